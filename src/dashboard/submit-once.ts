/**
 * Create forms that answer with a secret (a new API key, a webhook's signing secret) render it in
 * the POST's response, because the secret must never be stored for a later page. A reload of
 * that response would post the form again and create a second key; each such form therefore
 * carries a one-time token, and a token seen before is answered without creating anything.
 * Used tokens are kept in the database for an hour, so a repeat is caught whichever instance it
 * reaches.
 */
import { randomBytes } from "node:crypto";
import type { Db } from "../store/database.ts";
import { dropFormTokensUsedBefore, useFormToken } from "../store/form-tokens.repository.ts";

export const ONCE_FIELD = "_once";
const REMEMBERED_MS = 60 * 60 * 1000;

export class SubmitOnce {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date) {
    this.#db = db;
    this.#now = now;
  }

  newToken(): string {
    return randomBytes(16).toString("base64url");
  }

  /** True the first time this session posts this token; false for every repeat. */
  async first(sessionId: string, token: string): Promise<boolean> {
    if (!token) return true;
    const now = this.#now();
    await dropFormTokensUsedBefore(this.#db, new Date(now.getTime() - REMEMBERED_MS));
    return useFormToken(this.#db, sessionId, token, now);
  }
}
