/**
 * A results download never stalls the service (src/batch/job-service.ts `resultText`,
 * src/batch/download-slots.ts): it is read and written a slice per event-loop turn, so another
 * organization's lookup sent while a large download streams to a fast client is answered before the
 * download ends; and one organization may have BATCH_DOWNLOADS_PER_ORG downloads in progress at once.
 * `buckeye serve` as its own process (the client here reads as fast as it can, on another thread than
 * the service's), the real database (SQLite, or PostgreSQL under TEST_DATABASE_URL).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "../src/auth/key-service.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { openStore, type Store } from "../src/store/connect.ts";
import { createOrganization } from "../src/store/organizations.repository.ts";
import { startServe, type ServeProcess } from "./_serve-process.ts";
import { freshDatabase, type FreshDatabase } from "./_setup.ts";

const ROWS = 20_000;
const dir = mkdtempSync(join(tmpdir(), "buckeye-downloads-"));
let database: FreshDatabase;
let store: Store;
let served: ServeProcess;
let downloader: string;
let other: string;
let location: string;

async function send(method: string, path: string, key: string, body?: string): Promise<Response> {
  return fetch(new URL(path, served.url), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "text/csv" }) },
    ...(body !== undefined && { body }),
  });
}

beforeAll(async () => {
  database = freshDatabase(dir, "downloads");
  store = openStore(database.url);
  await migrateToLatest(store.db);
  const orgs = [await createOrganization(store.db, "Downloading Co"), await createOrganization(store.db, "Looking Up Co")];
  downloader = (await createKey(store.db, orgs[0]!.id, "downloads", "live")).key;
  other = (await createKey(store.db, orgs[1]!.id, "lookups", "live")).key;
  served = await startServe({
    env: { DATABASE_URL: database.url, BATCH_CHUNK_ROWS: "500", BATCH_POLL_MS: "20", RATE_LIMIT_PER_SECOND: "100000", LOG_LEVEL: "warn", RECONCILE_STALE_AFTER_DAYS: "36500" },
    // tsx compiles the sources at start; on a loaded machine with PostgreSQL that has taken over a minute.
    startTimeoutMs: 150_000,
  });
  // A completed job of county lookups (no geocoder needed): its NDJSON results are about 20 MB.
  const csv = `id,county,date\n${Array.from({ length: ROWS }, (_, i) => `r${i + 1},Franklin,2026-06-01`).join("\n")}\n`;
  location = (await send("POST", "/api/v1/batches", downloader, csv)).headers.get("location")!;
  for (;;) {
    const job = (await (await send("GET", location, downloader)).json()) as { status: string };
    if (job.status === "completed") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 180_000);

afterAll(async () => {
  served?.child.kill("SIGKILL");
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
  await database?.drop();
});

interface Download {
  status: Promise<number>;
  /** Resolves when the first bytes of the body arrive. */
  started: Promise<void>;
  /** Resolves with performance.now() at the body's end. */
  ended: Promise<number>;
  response: Promise<IncomingMessage>;
  abort(): void;
}

function download(paused = false): Download {
  let abort!: () => void;
  let response!: Promise<IncomingMessage>;
  const started = new Promise<void>((resolveStarted, rejectStarted) => {
    response = new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(new URL(`${location}/results`, served.url), { headers: { authorization: `Bearer ${downloader}`, accept: "application/x-ndjson" } }, (res) => {
        resolve(res);
        if (paused) res.pause();
        res.once("data", () => resolveStarted());
        res.once("end", () => resolveStarted());
      });
      req.on("error", (error) => {
        reject(error);
        rejectStarted(error);
      });
      req.end();
      abort = () => req.destroy();
    });
  });
  const ended = response.then((res) => new Promise<number>((resolve) => {
    if (!paused) res.resume();
    res.on("end", () => resolve(performance.now()));
    res.on("close", () => resolve(performance.now()));
  }));
  return { status: response.then((res) => res.statusCode!), started, ended, response, abort: () => abort() };
}

describe("a results download is written a slice per turn: other organizations' requests are answered while it streams", () => {
  it(`a lookup from another organization, sent once a ${ROWS}-row NDJSON download has begun, is answered before the download ends and within 2 s`, async () => {
    const whole = download();
    expect(await whole.status).toBe(200);
    await whole.started;
    const sent = performance.now();
    const lookup = await send("GET", "/api/v1/rates?county=franklin&date=2026-06-01", other);
    await lookup.arrayBuffer();
    const answered = performance.now();
    expect(lookup.status).toBe(200);
    const ended = await whole.ended;
    expect(answered).toBeLessThan(ended);
    expect(answered - sent).toBeLessThan(2_000);
  }, 120_000);
});

describe("BATCH_DOWNLOADS_PER_ORG: results downloads in progress at once per organization", () => {
  it("with 2 downloads held open by a client that does not read, a third is 429 batch-downloads-in-flight with Retry-After; once one ends, the next is served", async () => {
    const held = [download(true), download(true)];
    for (const one of held) expect(await one.status).toBe(200);
    const third = await send("GET", `${location}/results`, downloader);
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(((await third.json()) as { type: string }).type).toMatch(/\/batch-downloads-in-flight$/);
    held[0]!.abort();
    await held[0]!.ended;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const next = await send("GET", `${location}/results`, downloader);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
    held[1]!.abort();
  }, 120_000);
});
