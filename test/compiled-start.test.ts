/**
 * `npm start` runs the compiled JavaScript (`npm run build`), bundled (scripts/bundle-server.js), not
 * the TypeScript sources through tsx. This builds and bundles it into a folder of its own and checks
 * the bundled service end to end: it finds its shipped data and dashboard assets, its worker threads
 * load the compiled task file, and it answers the API.
 */
import { getJson } from "./_http.ts";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "./_setup.ts";

const run = promisify(execFile);
const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "var", `compiled-${process.pid}`);
const dir = mkdtempSync(join(tmpdir(), "buckeye-compiled-"));
const database = freshDatabase(dir, "compiled");
// The shipped data's age is not what this test is about: a generous staleness setting keeps /readyz "ready" whatever the calendar says.
// Info-level logging: the start-up lines are read below (every request is logged only at debug).
const env = { ...process.env, DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "info", RECONCILE_STALE_AFTER_DAYS: "36500" };

let server: ChildProcess;
let baseUrl: string;
let key: string;
let serverLog = "";

beforeAll(async () => {
  await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json"), "--outDir", OUT]);
  await run(process.execPath, [join(ROOT, "scripts/bundle-server.js"), OUT]);
  const cli = async (...args: string[]) => JSON.parse((await run(process.execPath, [join(OUT, "src/cli.js"), ...args, "--json"], { env })).stdout);
  const org = await cli("org", "create", "--name", "Compiled Co");
  key = (await cli("key", "create", "--org", org.id, "--label", "compiled build")).key;
  server = spawn(process.execPath, [join(OUT, "bundle/cli.js"), "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  baseUrl = await new Promise<string>((resolve, reject) => {
    server.stderr!.on("data", (chunk) => {
      serverLog += chunk;
      const match = /"url":"([^"]+)"/.exec(serverLog);
      if (match) resolve(match[1]!);
    });
    server.once("exit", (code) => reject(new Error(`compiled serve exited with ${code}: ${serverLog}`)));
  });
}, 120_000);

afterAll(async () => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  rmSync(OUT, { recursive: true, force: true });
  await database.drop();
});

const get = (path: string) => getJson(`${baseUrl}${path}`, key);

describe("the bundled build that npm start runs", () => {
  it("answers county and coordinate lookups (worker threads on the compiled task file) and serves the dashboard's assets", async () => {
    const county = await get("/api/v1/rates?county=franklin&date=2025-04-01");
    expect(county.res.status).toBe(200);
    expect(county.body).toMatchObject({ county: "Franklin", combined_rate: 0.08 });
    const point = await get("/api/v1/rates?lat=39.9612&lon=-82.9988&date=2026-01-01");
    expect(point.body).toMatchObject({ county: "Franklin", resolved_by: "coordinates" });
    // /readyz turns 200 once the database, the data and the boundary indexes in the worker threads are in.
    let ready = await fetch(`${baseUrl}/readyz`);
    for (let tries = 0; ready.status !== 200 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      ready = await fetch(`${baseUrl}/readyz`);
    }
    expect(await ready.json()).toMatchObject({ status: "ready" });
    expect((await fetch(`${baseUrl}/dashboard/assets/dashboard.css`)).status).toBe(200);
  });

  it("serves the API reference page and Swagger UI's bundle, which it finds beside the swagger-ui-dist package it resolves from the bundle", async () => {
    const page = await fetch(`${baseUrl}/docs`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("/docs/assets/reference.js");
    const swagger = await fetch(`${baseUrl}/docs/assets/swagger-ui-bundle.js`);
    expect(swagger.status).toBe(200);
    expect((await swagger.text()).length).toBeGreaterThan(100_000);
  });

  it("gives back to the system, once started, the memory start-up took and no longer needs (src/give-back-memory.ts)", async () => {
    let line: string | undefined;
    for (let tries = 0; !line && tries < 100; tries++) {
      line = serverLog.split("\n").find((entry) => entry.includes('"start-up memory given back"'));
      if (!line) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const given = JSON.parse(line ?? "{}") as { rss_before_mb?: number; rss_after_mb?: number; took_ms?: number };
    // The young generation start-up grew to its ceiling (node's own, since this starts the bundle without npm start's flags) shrinks to its smallest.
    expect(given.rss_before_mb! - given.rss_after_mb!).toBeGreaterThan(4);
    expect(given.took_ms).toBeGreaterThanOrEqual(0);
  });
});
