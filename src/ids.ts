/**
 * Sortable random identifiers with a type prefix (org_…, key_…, req_…), so an id says what it names.
 * The first 10 characters encode the millisecond time (Crockford base32, as in a ULID), so ids sort by
 * creation; 16 random characters (80 bits) follow. A request id is made on every request, so the work is
 * kept small: random bits are drawn from the CSPRNG in blocks (one system call per id is measurable), two
 * characters are looked up at a time, and the time's characters are reused within the same millisecond.
 */
import { randomFillSync } from "node:crypto";

const BASE32 = "0123456789abcdefghjkmnpqrstvwxyz";
/** Every pair of base32 characters, indexed by 10 random bits. */
const PAIRS = Array.from({ length: 1024 }, (_, i) => BASE32[i >> 5]! + BASE32[i & 31]!);
const pool = new Uint16Array(2048);
let poolOffset = pool.length;

/** Sixteen random base32 characters: eight pairs of 10 random bits each. */
function random16(): string {
  if (poolOffset + 8 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = "";
  for (let i = 0; i < 8; i++) out += PAIRS[pool[poolOffset++]! & 1023];
  return out;
}

function timeBase32(ms: number): string {
  let out = "";
  for (let rest = ms, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) out = BASE32[rest % 32] + out;
  return out;
}

let lastMs = -1;
let lastTime = "";

export function newId(prefix: string, now: number = Date.now()): string {
  if (now !== lastMs) {
    lastMs = now;
    lastTime = timeBase32(now);
  }
  return `${prefix}_${lastTime}${random16()}`;
}
