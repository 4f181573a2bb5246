/**
 * The operator CLI's single lookup (`buckeye rate`), and what a command loads: only its own group's
 * modules, and for `--version` none, so a command does not pay for the whole service's start-up. Real
 * processes of the `buckeye` CLI against a fresh database; which modules load is seen through a Node
 * module hook written here, never through timings.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { freshDatabase } from "./_setup.ts";

const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
// Each test starts the CLI as a process, some twice; on a machine shared with other work one start can take seconds.
vi.setConfig({ testTimeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), "buckeye-cli-rate-"));
const database = freshDatabase(dir, "rate");
const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "silent", RECONCILE_STALE_AFTER_DAYS: "36500" };
// Writes each of the checkout's modules (none of node_modules') as it is resolved.
const hook = join(dir, "log-modules.mjs");
writeFileSync(
  hook,
  `import { registerHooks } from "node:module";
registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); if (found.url.startsWith("file:") && !found.url.includes("/node_modules/")) process.stderr.write("module " + found.url + "\\n"); return found; } });
`,
);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

function buckeye(args: string[], nodeArgs: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...nodeArgs, BIN, ...args], { env }, (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

async function modulesLoadedBy(...args: string[]): Promise<string[]> {
  const { stderr } = await buckeye(args, ["--import", hook]);
  return [...stderr.matchAll(/^module file:\/\/.*?\/((?:src|dist\/src)\/.*)$/gm)].map((match) => match[1]!.replace(/^dist\//, "").replace(/\.js$/, ".ts"));
}

describe("a command loads its own code, not the whole service", () => {
  it("--version loads no command group, no configuration and not the service", async () => {
    const loaded = await modulesLoadedBy("--version");
    expect(loaded).toContain("src/cli.ts");
    expect(loaded.filter((path) => path.startsWith("src/cli/") && path !== "src/cli/output.ts")).toEqual([]);
    expect(loaded).not.toContain("src/config.ts");
    expect(loaded).not.toContain("src/service.ts");
  });

  it("migrate loads its own command's module, and neither the service nor another group's", async () => {
    const loaded = await modulesLoadedBy("migrate");
    expect(loaded).toContain("src/cli/migrate-command.ts");
    expect(loaded).not.toContain("src/service.ts");
    expect(loaded).not.toContain("src/cli/batch-command.ts");
    expect(loaded).not.toContain("src/cli/account-commands.ts");
  });

  it("--help still lists every command, rate among them", async () => {
    const { stdout, code } = await buckeye(["--help"]);
    expect(code).toBe(0);
    for (const name of ["serve", "migrate", "rate", "org", "key", "user", "batch", "data", "jobs", "reconcile", "boundaries"]) expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
  });
});

describe("buckeye rate answers one lookup as GET /api/v1/rates does", () => {
  it("a county on a date: the combined rate, its parts and how it was resolved; --json prints the API's body", async () => {
    const text = await buckeye(["rate", "--county", "franklin", "--date", "2025-03-31"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Franklin County (39049) on 2025-03-31: combined rate 0.075");
    expect(text.stdout).toContain("state 0.0575, county 0.0125, transit 0.005; resolved by county_param");
    const json = await buckeye(["rate", "--county", "franklin", "--date", "2025-03-31", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ county: "Franklin", combined_rate: 0.075, resolved_by: "county_param", ambiguous: false, request_id: expect.stringMatching(/^req_/) });
  });

  it("a ZIP that spans counties: every candidate and the lowest rate", async () => {
    const { stdout, code } = await buckeye(["rate", "--zip", "43016", "--date", "2025-03-31", "--json"]);
    expect(code).toBe(0);
    const body = JSON.parse(stdout) as { ambiguous: boolean; candidate_counties: Array<{ county: string }>; lowest_combined_rate: number };
    expect(body.ambiguous).toBe(true);
    expect(body.candidate_counties.map((candidate) => candidate.county).sort()).toEqual(["Delaware", "Franklin", "Union"]);
    expect(body.lowest_combined_rate).toBe(0.07);
  });

  it("a lookup the service refuses is its problem's detail in one line, exit status 1", async () => {
    const { stdout, stderr, code } = await buckeye(["rate", "--county", "atlantis"]);
    expect(stderr).toMatch(/^buckeye: "atlantis" is not one of Ohio's 88 counties\..*\n$/);
    expect(stdout).toBe("");
    expect(code).toBe(1);
    expect((await buckeye(["rate"])).stderr).toBe("buckeye: Send one of county, zip, address, or lat with lon.\n");
  });
});

describe("buckeye batch --help says which columns it reads", () => {
  it("names the address columns and points at the guide that lists every header", async () => {
    const { stdout } = await buckeye(["batch", "--help"]);
    expect(stdout).toMatch(/address line 1/);
    expect(stdout).toMatch(/postal code/);
    expect(stdout).toContain("docs/guides/address-resolution.md");
  });
});
