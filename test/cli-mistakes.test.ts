/**
 * What an operator sees when a setting or a command line is wrong: one line on stderr starting `buckeye:`,
 * naming what to fix, and exit status 1 (docs/reference/cli.md), never a stack trace. Real processes of
 * the `buckeye` CLI against a fresh database.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/config.ts";
import { freshDatabase } from "./_setup.ts";

const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
// Each test starts the CLI as a process, some twice; on a machine shared with other work one start can take seconds.
vi.setConfig({ testTimeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), "buckeye-cli-mistakes-"));
const database = freshDatabase(dir, "mistakes");
// No rate file configured, as on a fresh install, whatever the shell running the tests has set.
const { RECONCILE_SOURCE: _unset, ...inherited } = process.env;
const env = { ...inherited, DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "silent" };

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

/** Runs the CLI to its end, whatever its exit status. */
function attempt(extraEnv: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...env, ...extraEnv } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("a configuration mistake is one line naming the setting, its value and what it must be, and exit status 1", () => {
  it("PORT=abc, before anything starts", async () => {
    const { code, stderr } = await attempt({ PORT: "abc" }, "serve");
    expect(stderr).toBe('buckeye: invalid configuration: PORT: "abc" is not a number\n');
    expect(code).toBe(1);
  });

  it("SMTP_URL without PUBLIC_URL or MAIL_FROM, for any command that reads the configuration", async () => {
    const { code, stderr } = await attempt({ SMTP_URL: "smtp://mail.example.test" }, "org", "list");
    expect(stderr).toBe("buckeye: invalid configuration: SMTP_URL: needs PUBLIC_URL (the start of the links it mails) and MAIL_FROM\n");
    expect(code).toBe(1);
  });

  it("says what a number must be, in words, not in the validator's types", () => {
    expect(() => loadConfig({ PORT: "1.5" })).toThrow('invalid configuration: PORT: "1.5" is not a whole number');
    expect(() => loadConfig({ PORT: "70000" })).toThrow('invalid configuration: PORT: "70000" is above the most allowed, 65535');
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow('invalid configuration: LOG_LEVEL: "loud" is not one of debug, info, warn, error, silent');
  });
});

describe("a command-line mistake is one line and exit status 1", () => {
  it("jobs run --at with a date that is not an instant", async () => {
    const { code, stderr } = await attempt({}, "jobs", "run", "rate-changes", "--at", "tomorrow");
    expect(stderr).toBe('buckeye: --at must be an ISO 8601 instant, e.g. 2027-01-01T00:05:00-05:00; got "tomorrow"\n');
    expect(code).toBe(1);
  });
});

describe("a reconciliation with no rate file says what to download and from where, and exits non-zero", () => {
  const download = "download the state's current SST rate file (OHRyyyyQqMMMDD, CSV or ZIP) from the Ohio Department of Taxation's Finder, https://thefinder.tax.ohio.gov";

  it("buckeye reconcile without --source or RECONCILE_SOURCE: one line, exit status 1, nothing reconciled", async () => {
    const { code, stdout, stderr } = await attempt({}, "reconcile");
    expect(stderr).toMatch(/^buckeye: no rate file to reconcile with \(neither --source nor RECONCILE_SOURCE\): /);
    expect(stderr).toContain(download);
    expect(stderr).toContain("then run `buckeye reconcile --source <that file>`");
    expect(stderr.split("\n")).toHaveLength(2);
    expect(stdout).toBe("");
    expect(code).toBe(1);
  });

  it("buckeye jobs run reconcile without a source reports the skipped run and exits 1", async () => {
    const { code, stdout } = await attempt({}, "jobs", "run", "reconcile", "--json");
    expect(JSON.parse(stdout)).toMatchObject({ job: "reconcile", result: { status: "skipped", error: "RECONCILE_SOURCE is not set" } });
    expect(code).toBe(1);
  });

  it("buckeye data status says where the file is when the rates are stale", async () => {
    const { code, stdout } = await attempt({ RECONCILE_STALE_AFTER_DAYS: "0" }, "data", "status");
    expect(stdout).toMatch(/staleness {10}STALE/);
    expect(stdout).toContain(download);
    expect(code).toBe(0);
  });
});
