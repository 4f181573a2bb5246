/**
 * Which code `npm start` (scripts/start.js) and the operator CLI (bin/buckeye.js) run, after either install
 * docs/guides/setup.md documents. Each case is a checkout of its own in a temporary folder: copies of the
 * sources (so their times can be moved) and a node_modules of links to the installed packages, with or
 * without the devDependencies (TypeScript's compiler among them). `--version` stands in for `serve`: the
 * choice of code is made before either runs (test/production-start.test.ts serves through `npm start`).
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; devDependencies: Record<string, string> };
const dir = mkdtempSync(join(tmpdir(), "buckeye-start-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function checkout(name: string, { dev }: { dev: boolean }): string {
  const root = join(dir, name);
  mkdirSync(join(root, "node_modules"), { recursive: true });
  for (const entry of ["package.json", "scripts", "src", "bin", "workers", "migrations", "tsconfig.json", "tsconfig.build.json"]) cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  symlinkSync(join(ROOT, "data"), join(root, "data"));
  const devPackages = new Set(Object.keys(manifest.devDependencies));
  const packages = readdirSync(join(ROOT, "node_modules"))
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(ROOT, "node_modules", name)).map((member) => `${name}/${member}`) : [name]));
  for (const name of packages.filter((name) => dev || !devPackages.has(name))) {
    mkdirSync(join(root, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(root, "node_modules", name));
  }
  return root;
}

let built: Promise<string> | undefined;
/**
 * A checkout with a fresh `npm run build` in dist/, newer than every source. The build is made once per file and
 * copied with its times: each copy has a dist/ just as current as a build of its own, so every case that needs a
 * build gets one without compiling the same sources again.
 */
async function builtCheckout(name: string): Promise<string> {
  built ??= (async () => {
    const root = checkout("built", { dev: true });
    await run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(root, "tsconfig.build.json")]);
    await run(process.execPath, [join(root, "scripts/bundle-server.js")]);
    return root;
  })();
  const copy = join(dir, name);
  cpSync(await built, copy, { recursive: true, preserveTimestamps: true });
  return copy;
}

const start = (root: string) => run(process.execPath, [join(root, "scripts/start.js"), "--version"], { cwd: root });
const cli = (root: string) => run(process.execPath, [join(root, "bin/buckeye.js"), "--version"], { cwd: root });
/** Marks a source as edited after the build: its time moved a minute past the build's. */
function editAfterBuild(root: string, file: string): void {
  const later = new Date(statSync(join(root, "dist/src/cli.js")).mtimeMs + 60_000);
  utimesSync(join(root, file), later, later);
}

describe("npm start compiles whenever TypeScript is installed, and never serves a dist/ older than its sources without saying so", () => {
  it("after the full install (npm ci) it compiles the sources into dist/, bundles them and serves the bundle, with TypeScript 7's exports map", async () => {
    const root = checkout("full", { dev: true });
    expect(existsSync(join(root, "node_modules/typescript/bin/tsc"))).toBe(true);
    const { stdout, stderr } = await start(root);
    expect(stderr).not.toContain("TypeScript is not installed");
    expect(stdout.trim()).toBe(manifest.version);
    expect(existsSync(join(root, "dist/src/cli.js"))).toBe(true);
    expect(statSync(join(root, "dist/bundle/cli.js")).mtimeMs).toBeGreaterThanOrEqual(statSync(join(root, "dist/src/cli.js")).mtimeMs);
    // And again after an edit: the full install recompiles, so the edit is what is served.
    editAfterBuild(root, "src/cli.ts");
    const before = statSync(join(root, "dist/src/cli.js")).mtimeMs;
    await start(root);
    expect(statSync(join(root, "dist/src/cli.js")).mtimeMs).toBeGreaterThan(before);
  }, 120_000);

  it("after the production install it serves the bundle of a dist/ newer than every source, and says so in one line", async () => {
    const root = await builtCheckout("production-current");
    unlinkSync(join(root, "node_modules/typescript"));
    const { stdout, stderr } = await start(root);
    expect(stderr).toBe("npm start: TypeScript is not installed (a production install); serving the bundled build already in dist/bundle/\n");
    expect(stdout.trim()).toBe(manifest.version);
  }, 120_000);

  it("after the production install it serves a current dist/ that was not bundled as compiled, and says how to bundle it", async () => {
    const root = await builtCheckout("production-unbundled");
    unlinkSync(join(root, "node_modules/typescript"));
    rmSync(join(root, "dist/bundle"), { recursive: true });
    const { stdout, stderr } = await start(root);
    expect(stderr).toBe(
      "npm start: TypeScript is not installed (a production install); serving the build already in dist/, which is not bundled (`npm run build` where TypeScript is installed bundles it, for less memory)\n",
    );
    expect(stdout.trim()).toBe(manifest.version);
  }, 120_000);

  it("after the production install it serves the sources through tsx when dist/ is older than a source, naming that source", async () => {
    const root = await builtCheckout("production-stale");
    unlinkSync(join(root, "node_modules/typescript"));
    editAfterBuild(root, "src/lookup/lookup-service.ts");
    const { stdout, stderr } = await start(root);
    expect(stderr).toBe(
      "npm start: TypeScript is not installed (a production install) and dist/ is older than src/lookup/lookup-service.ts; serving the sources through tsx (run `npm run build` where TypeScript is installed to refresh dist/)\n",
    );
    expect(stdout.trim()).toBe(manifest.version);
  }, 120_000);
});

describe("the operator CLI runs dist/ when it is newer than every source, else the sources", () => {
  // tsx's link is removed so that only the compiled build can run: a command that succeeds ran dist/,
  // one that fails for want of tsx would have run the sources.
  it("runs the compiled build while it is current, and the sources once a source is edited after it", async () => {
    const root = await builtCheckout("cli");
    unlinkSync(join(root, "node_modules/tsx"));
    expect((await cli(root)).stdout.trim()).toBe(manifest.version);
    editAfterBuild(root, "workers/geo.ts");
    await expect(cli(root)).rejects.toThrow(/tsx/);
  }, 120_000);
});
