/** The start-up version check (src/supported-node.js, run by src/require-supported-node.js from every entry point). */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { unsupportedNodeMessage } from "../src/supported-node.js";

const ROOT = new URL("..", import.meta.url).pathname;

describe("Node version check: Buckeye runs on Node 22.12 or later (22 and 24 tested)", () => {
  it("accepts Node 22.12, 22.23, 24 and later majors", () => {
    for (const version of ["22.12.0", "22.23.3", "24.21.0", "26.1.0"]) expect(unsupportedNodeMessage(version)).toBeUndefined();
  });

  it("refuses Node 20 and 22.11 with a message naming the supported versions and how to get one", () => {
    for (const version of ["20.20.2", "22.11.0", "18.20.8"]) {
      const message = unsupportedNodeMessage(version);
      expect(message).toContain(`this is Node.js v${version}`);
      expect(message).toContain("Node.js 22 or 24");
      expect(message).toContain("bash scripts/fetch-node.sh 24");
    }
  });
});

describe("on Node 20, every entry point of a fresh clone prints how to get Node 24 and exits 1, before tsx or node_modules are needed", () => {
  it("npm start, npm test, every other npm script and bin/buckeye.js", () => {
    // A real Node 20, fetched the way the message tells a user to fetch Node 24 (cached after the first run).
    const node20 = execFileSync("bash", [join(ROOT, "scripts/fetch-node.sh"), "20"], { encoding: "utf8" }).trim();
    // What a clone has before `npm ci`: the files the check reads, and no node_modules.
    const clone = mkdtempSync(join(tmpdir(), "buckeye-clone-"));
    for (const file of ["package.json", ".npmrc", "bin/buckeye.js", "src/supported-node.js", "src/require-supported-node.js"]) {
      mkdirSync(join(clone, file, ".."), { recursive: true });
      cpSync(join(ROOT, file), join(clone, file));
    }
    const env = { ...process.env, PATH: `${node20}:${process.env.PATH}` };
    const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);
    expect(scripts).toEqual(expect.arrayContaining(["start", "test", "bench", "data:build"]));
    const entryPoints: Array<[string, string[]]> = [...scripts.map((name): [string, string[]] => ["npm", ["run", "--silent", name]]), ["node", ["bin/buckeye.js", "--help"]]];
    for (const [command, args] of entryPoints) {
      const run = spawnSync(command, args, { cwd: clone, env, encoding: "utf8", timeout: 30_000 });
      const label = `${command} ${args.join(" ")}`;
      expect(run.stderr, label).toMatch(/^Buckeye needs Node\.js 22 or 24 \(22\.12 or later\); this is Node\.js v20\./);
      expect(run.stderr, label).toContain('export PATH="$(bash scripts/fetch-node.sh 24):$PATH"');
      expect(run.stderr, label).not.toMatch(/ERR_MODULE_NOT_FOUND|not found/);
      expect(run.status, label).toBe(1);
    }
  }, 120_000);
});

describe("on Node 20, npm ci stops with npm's EBADENGINE naming >=22.12, as the README says before the fetch-node line", () => {
  it("npm ci in a fresh clone fails before installing anything, and the README names that error rather than the fetch-node line", () => {
    const node20 = execFileSync("bash", [join(ROOT, "scripts/fetch-node.sh"), "20"], { encoding: "utf8" }).trim();
    const clone = mkdtempSync(join(tmpdir(), "buckeye-clone-"));
    for (const file of ["package.json", "package-lock.json", ".npmrc"]) cpSync(join(ROOT, file), join(clone, file));
    const run = spawnSync("npm", ["ci"], { cwd: clone, env: { ...process.env, PATH: `${node20}:${process.env.PATH}` }, encoding: "utf8", timeout: 60_000 });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain("EBADENGINE");
    expect(run.stderr).toContain('Required: {"node":">=22.12"}');
    const readme = readFileSync(join(ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
    expect(readme).toContain("`npm ci` stops at once with npm's own `EBADENGINE` error (`Required: {\"node\":\">=22.12\"}`)");
    expect(readme).not.toMatch(/every entry point prints this line/);
  }, 60_000);
});
