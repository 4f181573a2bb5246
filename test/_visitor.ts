/**
 * A browser as the server sees it, without a browser: one client address (all of 127/8 is this
 * host, so each visitor can come from its own) and the cookies the server gave it, sent back on
 * every request. Signed-out forms get their CSRF token from the sign-in page, as a browser's would.
 */
import { requestFrom } from "./_http.ts";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export class Visitor {
  readonly #cookies = new Map<string, string>();
  #csrf: string | null = null;

  constructor(
    readonly base: string,
    readonly address: string,
  ) {}

  /** The value of one cookie the server set, if it set it. */
  cookie(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  /** Drops every cookie: the same address, a browser that has never been here. */
  forget(): void {
    this.#cookies.clear();
    this.#csrf = null;
  }

  /** The same cookies, from another address: the same browser on another network. */
  from(address: string): Visitor {
    const moved = new Visitor(this.base, address);
    for (const [name, value] of this.#cookies) moved.#cookies.set(name, value);
    moved.#csrf = this.#csrf;
    return moved;
  }

  async get(path: string): Promise<Answer> {
    return this.#keep(await requestFrom(this.base, this.address, "GET", path, { cookie: this.#header() }));
  }

  /** Posts a signed-out form (sign-in, forgot-password, reset-password) with its CSRF token. */
  async post(path: string, fields: Record<string, string>): Promise<Answer> {
    if (!this.#csrf) {
      const page = await this.get("/dashboard/sign-in");
      this.#csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    }
    const body = new URLSearchParams({ _csrf: this.#csrf, ...fields }).toString();
    return this.#keep(await requestFrom(this.base, this.address, "POST", path, { cookie: this.#header(), "content-type": "application/x-www-form-urlencoded" }, body));
  }

  signIn(email: string, password: string): Promise<Answer> {
    return this.post("/dashboard/sign-in", { email, password, next: "/dashboard/keys" });
  }

  #header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  #keep(answer: Answer & { cookies: string[] }): Answer {
    for (const line of answer.cookies) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0\b/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return answer;
  }
}
