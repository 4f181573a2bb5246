/**
 * The operator's path, end to end over real processes: the `buckeye` CLI against a fresh database
 * (a SQLite file, or a PostgreSQL schema under TEST_DATABASE_URL), and `buckeye serve` answering on
 * a real socket while the CLI revokes and suspends.
 */
import { getJson } from "./_http.ts";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "./_setup.ts";

const run = promisify(execFile);
const BIN = new URL("../bin/buckeye.js", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "buckeye-cli-"));
const database = freshDatabase(dir, "cli");
const env = { ...process.env, DATABASE_URL: database.url, PORT: "0", LOG_LEVEL: "silent" };

async function buckeye(...args: string[]): Promise<any> {
  const { stdout } = await run(process.execPath, [BIN, ...args, "--json"], { env });
  return JSON.parse(stdout);
}

let server: ChildProcess;
let baseUrl: string;

beforeAll(async () => {
  const first = await buckeye("migrate");
  expect(first.applied).toContain("2026-11-21-001-organizations-and-api-keys");
  expect(await buckeye("migrate")).toEqual({ applied: [] });
  server = spawn(process.execPath, [BIN, "serve"], { env, stdio: ["ignore", "ignore", "pipe"] });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let log = "";
    server.stderr!.on("data", (chunk) => {
      log += chunk;
      const match = /"url":"([^"]+)"/.exec(log);
      if (match) resolve(match[1]!);
    });
    server.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${log}`)));
  });
});

afterAll(async () => {
  server?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  await database.drop();
});

const get = (path: string, key: string) => getJson(`${baseUrl}${path}`, key);

describe("buckeye org / key commands (--json)", () => {
  it("org create prints {id, name, status: active}; key create prints the full key once with its 16-character prefix", async () => {
    const org = await buckeye("org", "create", "--name", "Acme Hardware");
    expect(org).toEqual({ id: expect.stringMatching(/^org_/), name: "Acme Hardware", status: "active", created: true });
    const key = await buckeye("key", "create", "--org", org.id, "--label", "checkout", "--env", "test");
    expect(key).toMatchObject({ id: expect.stringMatching(/^key_/), prefix: key.key.slice(0, 16), label: "checkout", env: "test" });
    expect(key.key).toMatch(/^tax_test_/);
    const listed = await buckeye("key", "list", "--org", org.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect(listed[0]).toMatchObject({ prefix: key.prefix, label: "checkout", status: "active" });
  });

  it("org create refuses a second organization of an existing name (case aside) unless --allow-duplicate", async () => {
    const first = await buckeye("org", "create", "--name", "Twice Hardware");
    await expect(run(process.execPath, [BIN, "org", "create", "--name", "twice hardware", "--json"], { env })).rejects.toMatchObject({
      code: 1,
      stderr: `buckeye: an organization named "Twice Hardware" already exists (${first.id}); use its id, pass --reuse to answer it, or --allow-duplicate to create another\n`,
    });
    const named = async () => ((await buckeye("org", "list")) as Array<{ name: string }>).filter((org) => org.name.toLowerCase() === "twice hardware");
    expect(await named()).toHaveLength(1);
    const second = await buckeye("org", "create", "--name", "Twice Hardware", "--allow-duplicate");
    expect(second.id).not.toBe(first.id);
    expect(await named()).toHaveLength(2);
  });

  it("refuses a key for an organization that does not exist, with exit code 1", async () => {
    await expect(run(process.execPath, [BIN, "key", "create", "--org", "org_nope", "--label", "x"], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("no organization org_nope"),
    });
  });
});

describe("buckeye's help: a version, a description for every subcommand, required options marked", () => {
  it("--version prints package.json's version; key --help describes each subcommand; batch --help marks --out required", async () => {
    const ROOT = new URL("..", import.meta.url).pathname;
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect((await run(process.execPath, [BIN, "--version"], { env })).stdout).toBe(`${version}\n`);
    const keyHelp = (await run(process.execPath, [BIN, "key", "--help"], { env })).stdout;
    for (const sub of ["create", "list", "revoke"]) expect(keyHelp, sub).toMatch(new RegExp(`^  ${sub} \\S*(?: \\S+)? +\\w`, "m"));
    const orgHelp = (await run(process.execPath, [BIN, "org", "--help"], { env })).stdout;
    for (const sub of ["create", "list", "verify", "suspend", "activate"]) expect(orgHelp, sub).toMatch(new RegExp(`^  ${sub} \\S*(?: \\S+)? +\\w`, "m"));
    expect((await run(process.execPath, [BIN, "batch", "--help"], { env })).stdout).toMatch(/--out <file> +where to write the results \([^)]*\)\s+\(required\)/);
  }, 60_000);
});

describe("every relative path setting is read from the checkout, whatever the current folder", () => {
  it("npx buckeye run in a subfolder with a relative sqlite DATABASE_URL uses the checkout's file, not a new one in that folder", async () => {
    const ROOT = new URL("..", import.meta.url).pathname;
    const relative = `var/subfolder-${process.pid}.sqlite`;
    const subfolder = join(ROOT, "docs");
    try {
      const subEnv = { ...process.env, DATABASE_URL: `sqlite:${relative}`, LOG_LEVEL: "silent" };
      await run(process.execPath, [BIN, "org", "create", "--name", "From the checkout", "--json"], { env: subEnv, cwd: ROOT });
      await run(process.execPath, [BIN, "org", "create", "--name", "From a subfolder", "--json"], { env: subEnv, cwd: subfolder });
      expect(existsSync(join(subfolder, relative))).toBe(false);
      const listed = JSON.parse((await run(process.execPath, [BIN, "org", "list", "--json"], { env: subEnv, cwd: subfolder })).stdout) as Array<{ name: string }>;
      expect(listed.map((org) => org.name).sort()).toEqual(["From a subfolder", "From the checkout"]);
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(join(ROOT, relative + suffix), { force: true });
      rmSync(join(subfolder, "var"), { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the CLI's expected failures are one line and a hint, exit 1, never a stack", () => {
  it("buckeye batch with an input file that does not exist, or a folder, names it and what to check", async () => {
    const missing = join(dir, "no-such-rows.csv");
    for (const [input, hint] of [
      [missing, "no such file or folder; check the path (relative paths are read from the current folder)"],
      [dir, "it is a folder; give a file"],
    ] as const) {
      await expect(run(process.execPath, [BIN, "batch", input, "--out", join(dir, "out.csv")], { env })).rejects.toMatchObject({ code: 1, stderr: `buckeye: cannot open ${input}: ${hint}\n` });
    }
  }, 60_000);
});

describe("buckeye serve on a port that is taken stops with one line naming PORT", () => {
  it("exits 1 with the port, its host and how to choose another, and never falls back to a random port", async () => {
    const taken = new URL(baseUrl).port;
    const failed = await run(process.execPath, [BIN, "serve"], { env: { ...env, PORT: taken, HOST: "127.0.0.1" } }).then(
      () => {
        throw new Error("serve started on a taken port");
      },
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toMatch(/get-port|random port/);
    expect(failed.stderr).toBe(`buckeye: port ${taken} on 127.0.0.1 is taken by another program; set PORT to a free port (PORT=3001 npm start), or PORT=0 for any free one\n`);
  }, 60_000);
});

describe("buckeye serve over a real socket", () => {
  it("answers /api/v1/rates and /api/v1/counties, and a key revoked by the CLI is refused on the next request", async () => {
    const org = await buckeye("org", "create", "--name", "Socket Co");
    const key = await buckeye("key", "create", "--org", org.id, "--label", "socket test");
    const rates = await get("/api/v1/rates?county=franklin&date=2025-04-01", key.key);
    expect(rates.res.status).toBe(200);
    expect(rates.body.combined_rate).toBe(0.08);
    expect(rates.res.headers.get("ratelimit-limit")).toBe("10");
    expect(rates.res.headers.get("x-request-id")).toBe(rates.body.request_id);
    expect(rates.res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    expect((await get("/api/v1/counties", key.key)).body.total).toBe(88);

    await buckeye("key", "revoke", key.prefix);
    const after = await get("/api/v1/rates?county=franklin", key.key);
    expect(after.res.status).toBe(401);
    expect(after.body.type).toMatch(/\/invalid-api-key$/);
  });

  it("a key of an organization suspended by the CLI is refused, and accepted after activate", async () => {
    const org = await buckeye("org", "create", "--name", "Suspend Co");
    const key = await buckeye("key", "create", "--org", org.id, "--label", "suspend test");
    expect((await get("/api/v1/rates?zip=43215", key.key)).res.status).toBe(200);
    expect(await buckeye("org", "suspend", org.id)).toMatchObject({ status: "suspended" });
    expect((await get("/api/v1/rates?zip=43215", key.key)).res.status).toBe(401);
    await buckeye("org", "activate", org.id);
    expect((await get("/api/v1/rates?zip=43215", key.key)).res.status).toBe(200);
  });
});
