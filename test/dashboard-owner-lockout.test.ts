/**
 * Owners are never shut out of their own account by strangers (docs/guides/dashboard.md, "Sign-in
 * throttle" and "Forgotten passwords"), over real sockets from loopback addresses of our choosing,
 * without a browser: a completed reset proves the owner, strangers' reset requests cost the owner
 * nothing, and a server without mail says how to reset instead of failing. Mail goes to a FAKE
 * UPSTREAM SMTP server (test/_smtp.ts) the service is pointed at with SMTP_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService } from "./_setup.ts";
import { Visitor } from "./_visitor.ts";

/** Each test is several sign-ins and resets, each a scrypt hash: seconds apiece on a loaded machine. */
const ERRAND = 180_000;

describe("without SMTP_URL, the forgotten-password page says resets go through the operator", () => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  beforeAll(async () => {
    service = await startTestService({}, true);
  }, ERRAND);
  afterAll(() => service.close());

  it("names the operator command and sends nothing", async () => {
    const page = await new Visitor(service.url!, "127.0.0.1").get("/dashboard/forgot-password");
    expect(page.status).toBe(200);
    expect(page.body).toContain("Password reset by email is not set up on this server.");
    expect(page.body).toContain("buckeye user reset-password &lt;email&gt;");
    expect(page.body).toContain("ask the people who run this Buckeye server");
    expect(page.body).not.toContain("<form");
  }, ERRAND);

  it("a post to the form answers that page with 200, however many come: never a 5xx the server-errors alert counts", async () => {
    const visitor = new Visitor(service.url!, "127.0.0.2");
    for (let i = 0; i < 12; i++) {
      const answer = await visitor.post("/dashboard/forgot-password", { email: "owner@nomail.example" });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("Password reset by email is not set up on this server.");
      expect(answer.body).toContain("buckeye user reset-password &lt;email&gt;");
    }
  }, ERRAND);
});
