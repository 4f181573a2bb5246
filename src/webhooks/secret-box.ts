/**
 * Signing secrets at rest. Signing needs the secret itself, so it cannot be hashed like an API
 * key; with SECRETS_KEY set it is sealed with AES-256-GCM instead, and a copy of the database
 * alone no longer lets anyone forge deliveries. A sealed value reads
 * `sealed:v1:<base64url of 12-byte IV, 16-byte tag, ciphertext>`; a plain one is the `whsec_…`
 * string itself, which is what is stored without a key, and what a key-less deployment still
 * reads after the key is added (plain rows are sealed at start-up, see sealStoredSecrets).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Config } from "../config.ts";

const PREFIX = "sealed:v1:";

export function secretBoxFrom(config: Pick<Config, "secretsKey">): SecretBox {
  return new SecretBox(config.secretsKey === null ? null : Buffer.from(config.secretsKey, "hex"));
}

export class SecretBox {
  readonly #key: Buffer | null;

  /** `key`: 32 bytes, or null to store secrets as they are. */
  constructor(key: Buffer | null) {
    if (key !== null && key.length !== 32) throw new Error("SECRETS_KEY must be 32 bytes");
    this.#key = key;
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

  /** The secret itself; throws when it is sealed and this box has no key, or another key. */
  open(stored: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    if (this.#key === null) throw new Error("the signing secret is sealed and SECRETS_KEY is not set");
    const bytes = Buffer.from(stored.slice(PREFIX.length), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.#key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      throw new Error("the signing secret was sealed with another SECRETS_KEY");
    }
  }
}
