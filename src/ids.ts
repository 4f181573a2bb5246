/**
 * Sortable random identifiers with a type prefix (org_…, key_…, req_…), so an id says what it names.
 * The first 10 characters encode the millisecond time (Crockford base32, as in a ULID), so ids sort by
 * creation; 16 random characters (80 bits) follow. Random bytes are drawn from the CSPRNG in
 * blocks: a request id is made on every request, and one system call per id is measurable.
 */
import { randomFillSync } from "node:crypto";

const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

function randomBase32(length: number): string {
  if (poolOffset + length > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = "";
  for (let i = 0; i < length; i++) out += BASE32[pool[poolOffset++]! & 31];
  return out;
}

function timeBase32(ms: number): string {
  let out = "";
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) out = BASE32[rest % 32] + out;
  return out;
}

export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${timeBase32(now)}${randomBase32(16)}`;
}
