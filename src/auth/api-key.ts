/**
 * API key format: `tax_live_` or `tax_test_`, 32 random base62 characters (about 190 bits),
 * then a 6-character base62 CRC-32 of everything before it. The checksum lets us reject a
 * mistyped or truncated key without touching the database. Only the SHA-256 of a key and its
 * first 16 characters (the public prefix shown in the dashboard, docs/guides/dashboard.md) are ever stored.
 */
import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import type { KeyEnv } from "../store/database.ts";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const PUBLIC_PREFIX_LENGTH = 16;
const KEY_SHAPE = new RegExp(`^tax_(live|test)_([0-9A-Za-z]{${BODY_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`);

function base62(value: number, width: number): string {
  let out = "";
  for (let rest = value; out.length < width; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out;
  return out;
}

function checksum(text: string): string {
  return base62(crc32(text), CHECKSUM_LENGTH);
}

export interface IssuedKey {
  key: string;
  prefix: string;
  hash: string;
  env: KeyEnv;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function issueKey(env: KeyEnv): IssuedKey {
  let body = "";
  // randomInt draws uniformly (no modulo bias) from the CSPRNG.
  while (body.length < BODY_LENGTH) body += ALPHABET[randomInt(62)];
  const head = `tax_${env}_${body}`;
  const key = head + checksum(head);
  return { key, prefix: key.slice(0, PUBLIC_PREFIX_LENGTH), hash: hashKey(key), env };
}

export type KeyShape = { ok: true; env: KeyEnv; prefix: string } | { ok: false };

/** Checks the shape and checksum only; whether the key exists is the store's question. */
export function checkKeyShape(key: string): KeyShape {
  const match = KEY_SHAPE.exec(key);
  if (!match) return { ok: false };
  const head = key.slice(0, key.length - CHECKSUM_LENGTH);
  if (checksum(head) !== match[3]) return { ok: false };
  return { ok: true, env: match[1] as KeyEnv, prefix: key.slice(0, PUBLIC_PREFIX_LENGTH) };
}
