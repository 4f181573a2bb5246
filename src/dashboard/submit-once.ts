/**
 * Create forms that answer with a secret (a new API key, a webhook's signing secret) render it in
 * the POST's response, because the secret must never be stored for a later page. A reload of
 * that response would post the form again and create a second key; each such form therefore
 * carries a one-time token, and a token seen before is answered without creating anything.
 * Tokens are remembered in this process for an hour (an LRU of bounded size): with several
 * instances, a resubmission that reaches another one can still create a duplicate, which the
 * customer sees in the list and can revoke.
 */
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";

export const ONCE_FIELD = "_once";

export class SubmitOnce {
  readonly #seen = new LRUCache<string, true>({ max: 100_000, ttl: 60 * 60 * 1000 });

  newToken(): string {
    return randomBytes(16).toString("base64url");
  }

  /** True the first time this session posts this token; false for every repeat. */
  first(sessionId: string, token: string): boolean {
    if (!token) return true;
    const key = `${sessionId} ${token}`;
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, true);
    return true;
  }
}
