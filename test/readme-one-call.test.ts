/**
 * The README's "One call", run as a new user runs it: the shell lines exactly as the README prints them
 * (only the service's address changed to the test server's), in bash, from the checkout, twice. A setup
 * script is run again; the second run must answer as the first did, not fail to parse an empty refusal.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase } from "./_setup.ts";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "buckeye-one-call-"));
const database = freshDatabase(dir, "one-call");
const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent", RECONCILE_STALE_AFTER_DAYS: "36500" };
let server: ServeProcess;

beforeAll(async () => {
  server = await startServe({ env: { DATABASE_URL: database.url, LOG_LEVEL: "info" } });
}, 120_000);

afterAll(async () => {
  server?.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

function oneCall(): string {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## One call"));
  const script = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  expect(script).toContain("http://127.0.0.1:3000/");
  return script.replaceAll("http://127.0.0.1:3000", server.url);
}

describe("the README's One call", () => {
  it("answers Franklin County's rate each time it is run, and a second run reuses the organization the first made", async () => {
    const script = oneCall();
    for (const attempt of [1, 2]) {
      const { stdout, stderr } = await run("bash", ["-c", script], { cwd: ROOT, env });
      expect(stderr, `run ${attempt}`).toBe("");
      expect(JSON.parse(stdout), `run ${attempt}`).toMatchObject({ county: "Franklin", date_evaluated: "2025-03-31", combined_rate: 0.075 });
    }
    const organizations = JSON.parse((await run(process.execPath, [BIN, "org", "list", "--json"], { env })).stdout) as Array<{ name: string }>;
    expect(organizations.filter((organization) => organization.name === "Acme Hardware")).toHaveLength(1);
  }, 180_000);
});

describe("a refused command asked for --json still prints JSON", () => {
  it("org create of a taken name without --reuse: one line on stderr, {error} on stdout, exit status 1", async () => {
    await run(process.execPath, [BIN, "org", "create", "--name", "Taken Name Co", "--json"], { env });
    const failure = await run(process.execPath, [BIN, "org", "create", "--name", "taken name co", "--json"], { env }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/^buckeye: an organization named "Taken Name Co" already exists \(org_\w+\); use its id, pass --reuse to answer it, or --allow-duplicate to create another\n$/);
    expect(JSON.parse(failure!.stdout)).toEqual({ error: expect.stringContaining("already exists") });
  }, 60_000);
});
