/**
 * `npm start` after the production install docs/guides/setup.md documents (`npm ci --omit=dev`), which
 * leaves out every devDependency, TypeScript included. The install is reproduced in a folder of its
 * own: the checkout's files, and a node_modules holding every installed package except the
 * devDependencies' own folders (TypeScript's compiler among them).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase } from "./_setup.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
const dir = mkdtempSync(join(tmpdir(), "buckeye-production-"));
const database = freshDatabase(dir, "production");
let server: ChildProcess | undefined;

afterAll(async () => {
  if (server?.pid) process.kill(-server.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

function productionCheckout(): string {
  const checkout = join(dir, "checkout");
  mkdirSync(join(checkout, "node_modules"), { recursive: true });
  cpSync(join(ROOT, "package.json"), join(checkout, "package.json"));
  cpSync(join(ROOT, "scripts"), join(checkout, "scripts"), { recursive: true });
  for (const entry of ["src", "bin", "data", "migrations", "workers", "tsconfig.json", "tsconfig.build.json"]) symlinkSync(join(ROOT, entry), join(checkout, entry));
  const dev = new Set(Object.keys(manifest.devDependencies));
  const packages = readdirSync(join(ROOT, "node_modules"))
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => (name.startsWith("@") ? readdirSync(join(ROOT, "node_modules", name)).map((member) => `${name}/${member}`) : [name]));
  for (const name of packages.filter((name) => !dev.has(name))) {
    mkdirSync(join(checkout, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(checkout, "node_modules", name));
  }
  return checkout;
}

describe("npm start works after the production install, without TypeScript or any devDependency", () => {
  it("serves the API, saying in one line that it runs the sources through tsx", async () => {
    const checkout = productionCheckout();
    expect(existsSync(join(checkout, "node_modules/typescript"))).toBe(false);
    server = spawn("npm", ["start", "--silent"], {
      cwd: checkout,
      detached: true,
      env: { ...process.env, DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "info", RECONCILE_STALE_AFTER_DAYS: "36500" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    const url = await new Promise<string>((resolve, reject) => {
      server!.stderr!.on("data", (chunk) => {
        log += chunk;
        const match = /"url":"([^"]+)"/.exec(log);
        if (match) resolve(match[1]!);
      });
      server!.once("exit", (code) => reject(new Error(`npm start exited with ${code}: ${log}`)));
    });
    expect(log).not.toMatch(/tsc: not found/);
    expect(log).toContain("npm start: TypeScript is not installed (a production install) and there is no dist/; serving the sources through tsx");
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  }, 120_000);
});
