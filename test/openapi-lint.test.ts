/**
 * The served OpenAPI document passes the two linters client and tooling users run on it:
 * Redocly CLI's `recommended` rules (redocly.yaml) and Spectral's `spectral:oas` ruleset
 * (.spectral.yaml), with no error and no warning. Both run offline, as their own CLIs, on the
 * document exactly as GET /api/v1/openapi.json serves it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/config.ts";
import { startTestService, type TestService } from "./_setup.ts";

const run = promisify(execFile);
let api: TestService;
let dir: string;
let documentPath: string;

beforeAll(async () => {
  api = await startTestService();
  const res = await api.service.app.fetch(new Request("http://buckeye.test/api/v1/openapi.json"));
  expect(res.status).toBe(200);
  dir = mkdtempSync(join(tmpdir(), "buckeye-openapi-lint-"));
  documentPath = join(dir, "openapi.json");
  writeFileSync(documentPath, await res.text());
});
afterAll(async () => {
  await api?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a linter's CLI from node_modules/.bin; a failing lint exits non-zero but still prints its JSON report. */
async function lint(bin: string, args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
  try {
    return (await run(join(REPO_ROOT, "node_modules", ".bin", bin), args, { cwd: REPO_ROOT, env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

describe("Redocly CLI, recommended rules (redocly.yaml)", () => {
  it("reports no error and no warning on the served document", async () => {
    const report = JSON.parse(await lint("redocly", ["lint", documentPath, "--config", join(REPO_ROOT, "redocly.yaml"), "--format", "json"]));
    const found = report.problems.map((p: { ruleId: string; message: string; location: Array<{ pointer: string }> }) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);
});

describe("Spectral, spectral:oas (.spectral.yaml)", () => {
  it("reports no error, warning, info or hint on the served document", async () => {
    const report = JSON.parse(await lint("spectral", ["lint", documentPath, "--ruleset", join(REPO_ROOT, ".spectral.yaml"), "--format", "json", "--quiet"]));
    const found = report.map((r: { code: string; path: string[]; message: string }) => `${r.code} ${r.path.join(".")}: ${r.message}`);
    expect(found).toEqual([]);
  }, 60_000);

  it("the linters can fail: a document without operationIds, tags or servers is flagged by both", async () => {
    const served = await (await api.service.app.fetch(new Request("http://buckeye.test/api/v1/openapi.json"))).json();
    const { servers: _servers, ...bare } = served;
    delete bare.paths["/api/v1/rates"].get.operationId;
    delete bare.paths["/api/v1/rates"].get.tags;
    const barePath = join(dir, "bare.json");
    writeFileSync(barePath, JSON.stringify(bare));
    const spectral = JSON.parse(await lint("spectral", ["lint", barePath, "--ruleset", join(REPO_ROOT, ".spectral.yaml"), "--format", "json", "--quiet"]));
    expect(spectral.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(["operation-operationId", "operation-tags", "oas3-api-servers"]));
    const redocly = JSON.parse(await lint("redocly", ["lint", barePath, "--config", join(REPO_ROOT, "redocly.yaml"), "--format", "json"]));
    expect(redocly.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(expect.arrayContaining(["operation-operationId"]));
  }, 60_000);
});
