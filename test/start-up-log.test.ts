/**
 * The first screen an operator sees (the start-up log, docs/operations/logging.md): what is configured is
 * said once at start, and the probe's /readyz 503s, asked every few seconds while the service lacks what it
 * needs, do not fill the log with warnings. A real service, built in process, with its log captured.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createService } from "../src/service.ts";
import { testConfig } from "./_setup.ts";

async function started(env: Record<string, string>, work: (log: Array<Record<string, unknown>>, fetch: (path: string) => Promise<Response>) => Promise<void>): Promise<void> {
  const { config, cleanup } = testConfig(env);
  const log: Array<Record<string, unknown>> = [];
  try {
    const service = await createService(config, { log: (entry) => log.push(entry) });
    try {
      await work(log, async (path) => service.app.fetch(new Request(`http://buckeye.test${path}`)));
    } finally {
      await service.close();
    }
  } finally {
    await cleanup();
  }
}

describe("the start-up log says whether mail is configured", () => {
  it("with SMTP_URL, PUBLIC_URL and MAIL_FROM: one info line naming the SMTP host (never its credentials) and the sender", async () => {
    await started({ SMTP_URL: "smtp://user:pw-Kq81zz@mail.example.test:2525", PUBLIC_URL: "https://tax.example.test", MAIL_FROM: "Buckeye <no-reply@example.test>" }, async (log) => {
      const line = log.find((entry) => String(entry.msg).startsWith("mail is"));
      expect(line).toEqual({ level: "info", msg: "mail is configured: password reset links are mailed", smtp_host: "mail.example.test:2525", from: "Buckeye <no-reply@example.test>" });
      expect(JSON.stringify(log)).not.toContain("pw-Kq81zz");
    });
  });

  it("without SMTP_URL: one info line saying mail is off and what that costs", async () => {
    await started({}, async (log) => {
      expect(log.filter((entry) => String(entry.msg).startsWith("mail is"))).toEqual([{ level: "info", msg: "mail is off (SMTP_URL unset): the dashboard cannot mail password reset links" }]);
    });
  });
});

describe("a /readyz 503 is the probe's answer, not a warning each time it is asked", () => {
  it("without polygons /readyz answers 503 three times and the log has the one start-up warning, no warn line per probe", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "buckeye-no-geo-")), "geo");
    await started({ GEO_DATA_DIR: dir }, async (log, fetch) => {
      for (let i = 0; i < 3; i++) expect((await fetch("/readyz")).status).toBe(503);
      expect(log.filter((entry) => entry.level === "warn" && String(entry.msg).startsWith("no boundary polygons"))).toHaveLength(1);
      expect(log.filter((entry) => entry.path === "/readyz" && (entry.level === "warn" || entry.level === "error"))).toEqual([]);
    });
  });
});
