/**
 * Signing secrets at rest. Signing needs the secret itself, so it cannot be hashed like an API
 * key; with SECRETS_KEY set it is sealed with AES-256-GCM instead, and a copy of the database
 * alone no longer lets anyone forge deliveries. A sealed value reads
 * `sealed:v1:<base64url of 12-byte IV, 16-byte tag, ciphertext>`; a plain one is the `whsec_…`
 * string itself, which is what is stored without a key. Rows that are plain, or sealed with the
 * key being replaced (SECRETS_KEY_PREVIOUS), are sealed with the current key at start-up
 * (webhook-secrets.ts, sealStoredSecrets).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Config } from "../config.ts";

const PREFIX = "sealed:v1:";

/** Logged once at start when SECRETS_KEY is unset (src/service.ts). */
export const SECRETS_KEY_UNSET_WARNING =
  "SECRETS_KEY is unset: webhook signing secrets are stored in the database in plain text, so a copy of the database lets anyone forge deliveries. Set SECRETS_KEY (openssl rand -hex 32) in production; stored secrets are sealed at the next start";

export function secretBoxFrom(config: Pick<Config, "secretsKey" | "secretsKeyPrevious">): SecretBox {
  const key = (hex: string | null) => (hex === null ? null : Buffer.from(hex, "hex"));
  return new SecretBox(key(config.secretsKey), key(config.secretsKeyPrevious));
}

function unseal(key: Buffer, stored: string): string | null {
  const bytes = Buffer.from(stored.slice(PREFIX.length), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

export class SecretBox {
  readonly #key: Buffer | null;
  readonly #previous: Buffer | null;

  /** `key`: 32 bytes, or null to store secrets as they are; `previous`: the key it replaces. */
  constructor(key: Buffer | null, previous: Buffer | null = null) {
    for (const k of [key, previous]) if (k !== null && k.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes");
    if (previous !== null && key === null) throw new Error("SECRETS_KEY_PREVIOUS needs SECRETS_KEY");
    this.#key = key;
    this.#previous = previous;
  }

  get sealing(): boolean {
    return this.#key !== null;
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  seal(secret: string): string {
    if (this.#key === null) return secret;
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return `${PREFIX}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url")}`;
  }

  /** The secret itself; throws when it is sealed and neither key of this box opens it. */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    if (this.#key === null) throw new Error("the signing secret is sealed and SECRETS_KEY is not set");
    const opened = unseal(this.#key, stored) ?? (this.#previous && unseal(this.#previous, stored));
    if (opened === null) throw new Error("the signing secret was sealed with another SECRETS_KEY");
    return opened;
  }

  /** True for what start-up should seal (again) with the current key: plain, or sealed with the previous key. */
  needsSealing(stored: string): boolean {
    if (this.#key === null) return false;
    return !SecretBox.isSealed(stored) || unseal(this.#key, stored) === null;
  }
}
