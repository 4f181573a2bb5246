/**
 * The lookup service's rules, asked of the service itself (no HTTP): one precedence rule, one
 * answer whichever way a lookup arrives, and batch lists resolved in the pool's batch lane, never
 * on the answering thread. Against a real store holding a SYNTHETIC boundary file generated from
 * data/ (test/_boundary-files.ts), with a FAKE UPSTREAM Census geocoder; `buckeye batch` is run as
 * the operator runs it and held against the API's job results.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yieldCollectorThreads } from "../src/lookup/batch-priority.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { DEFAULT_REFRESH_MS, openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import type { BoundaryIndex } from "../src/boundaries/boundary-index.interface.ts";
import { writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import type { RowResult } from "../src/lookup/item-result.ts";
import { strategyOf, type LookupItem } from "../src/lookup/lookup-item.ts";
import { INLINE_ON_THREAD, LookupService } from "../src/lookup/lookup-service.ts";
import { DATA_DIR, linedRecords, TEST_ZIPS } from "./_boundary-files.ts";
import { BIN } from "./_serve-process.ts";
import { startTestServiceWithFakeGeocoder, type GeocodedTestService } from "./_setup.ts";

const VERSION = "OHB2026Q3JUN1-SYNTHETIC";
const RECORDS = 3000;
const DATE = "2026-06-01";
const context = { lastReconciled: "2026-08-18", confirmedThrough: "2026-09-30", requestId: "req_service_test" };

let api: GeocodedTestService;
let dir: string;

/** Addresses the synthetic file settles: the lowest odd or even house of current, unit-less address ranges. */
const settled = linedRecords(RECORDS)
  .filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE)
  .slice(0, 60)
  .map((r) => {
    const house = r.parity === "E" ? r.houseLow! + (r.houseLow! % 2) : r.houseLow! + 1 - (r.houseLow! % 2);
    return { address: `${[house, r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" ")}, Westerville, OH ${r.zip5}`, line: r.line };
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "buckeye-lookup-service-"));
  api = await startTestServiceWithFakeGeocoder();
  const path = join(dir, "OHB2026Q3JUN1-synthetic.csv");
  await writeSyntheticBoundaryFile(path, { dataDir: DATA_DIR, zips: TEST_ZIPS, records: RECORDS });
  expect(await importBoundaryFile({ store: api.service.store, source: path, synthetic: true })).toMatchObject({ status: "imported", version: VERSION });
  // The service trusts the active version it read for DEFAULT_REFRESH_MS on its clock: past that, a lookup after this sees the file.
  api.clock.advance(DEFAULT_REFRESH_MS);
}, 60_000);

afterAll(async () => {
  await api?.close();
  rmSync(dir, { recursive: true, force: true });
});

const lookups = () => api.service.context.lookups.service;
const item = (fields: Partial<LookupItem>): LookupItem => ({ id: null, date: DATE, ...fields });

describe("one precedence rule", () => {
  it("an address wins over coordinates, a county and a ZIP; coordinates over a county; a county over a ZIP; a ZIP+4 alone asks the boundary file", () => {
    expect(strategyOf(item({ address: "1 Main St", lat: 40, lon: -83, county: "franklin", zip: "43215" }))).toBe("address");
    expect(strategyOf(item({ lat: 40, lon: -83, county: "franklin" }))).toBe("coordinates");
    expect(strategyOf(item({ county: "franklin", zip: "43215", zip4: "1234" }))).toBe("county-or-zip");
    expect(strategyOf(item({ zip: "43081", zip4: "1234" }))).toBe("zip4");
    expect(strategyOf(item({ zip: "43081" }))).toBe("county-or-zip");
  });
});

describe("a lookup answers alike whichever way it arrives", () => {
  it("answerOne, a short inline list, a long inline list (batch lane) and a job chunk give the same body", async () => {
    const { address, line } = settled[0]!;
    const one = await lookups().answerOne(item({ address }), context);
    expect(one).toMatchObject({ kind: "rate", body: { resolved_by: "address_range", boundary_record: { version: VERSION, line } } });
    const short = await lookups().answerMany([{ address, date: DATE }], { today: DATE, context });
    const long = await lookups().answerMany(
      Array.from({ length: INLINE_ON_THREAD + 5 }, () => ({ address, date: DATE })),
      { today: DATE, context },
    );
    const [chunk] = await lookups().rowsOf([{ input: JSON.stringify([{ id: "a", address, date: DATE }]), firstRow: 7, today: DATE, context }]);
    const [row] = JSON.parse(chunk!.output) as RowResult[];
    expect(short[0]!.result).toEqual(one);
    for (const answer of long) expect(answer.result).toEqual(one);
    expect(row).toEqual({ row: 7, id: "a", result: one });
    expect(chunk).toMatchObject({ done: 1, failed: 0 });
  });

  it("a failure is the same problem everywhere: a county that does not exist, a point outside Ohio", async () => {
    const rows = [{ county: "atlantis" }, { lat: 35, lon: -100 }];
    const inline = await lookups().answerMany(rows, { today: DATE, context });
    const [chunk] = await lookups().rowsOf([{ input: JSON.stringify(rows), firstRow: 1, today: DATE, context }]);
    const stored = (JSON.parse(chunk!.output) as RowResult[]).map((r) => r.result);
    expect(inline.map((a) => a.result)).toEqual(stored);
    expect(stored.map((r) => r.kind === "failure" && r.slug)).toEqual(["county-not-found", "outside-ohio"]);
    expect(chunk).toMatchObject({ done: 2, failed: 2 });
  });
});

/** The store's boundary index, counting the probes asked of it on the answering thread. */
function countingIndex(inner: BoundaryIndex): BoundaryIndex & { probes: number } {
  const counted = {
    probes: 0,
    activeVersion: () => inner.activeVersion(),
    version: () => inner.version(),
    refresh: () => inner.refresh(),
    probe: (query: Parameters<BoundaryIndex["probe"]>[0]) => counted.probeMany([query]).then(([match]) => match!),
    probeMany: (queries: Parameters<BoundaryIndex["probeMany"]>[0]) => {
      counted.probes += queries.length;
      return inner.probeMany(queries);
    },
    zipSummary: (zip5: string, date: string) => inner.zipSummary(zip5, date),
    streets: () => inner.streets(),
    close: () => inner.close(),
  };
  return counted;
}

describe("batch lists are resolved in the batch lane, never on the answering thread", () => {
  it("a job's chunks and a long inline list never probe the answering thread's boundary index, yet answer from the file; a single address does probe it", async () => {
    const inner = openBoundaryIndex(api.service.store);
    await inner.refresh();
    const index = countingIndex(inner);
    const rates = api.service.rates;
    const service = new LookupService({
      config: api.config,
      databaseUrl: api.config.databaseUrl,
      rates: () => ({ table: rates.table, zips: api.service.context.zips, overlay: rates.overlay }),
      shipped: { table: rates.shipped, zips: api.service.context.zips },
      boundaries: index,
      now: () => new Date(),
      log: () => {},
    });
    try {
      const input = JSON.stringify(settled.map(({ address }, i) => ({ id: `r${i}`, address, date: DATE })));
      const [chunk] = await service.rowsOf([{ input, firstRow: 1, today: DATE, context }]);
      const rows = JSON.parse(chunk!.output) as RowResult[];
      expect(rows.map((r) => r.result.kind === "rate" && r.result.body.boundary_record?.line)).toEqual(settled.map((s) => s.line));
      const inline = await service.answerMany(settled.map(({ address }) => ({ address, date: DATE })), { today: DATE, context });
      expect(inline.every((a) => a.result.kind === "rate" && a.result.body.resolved_by === "address_range")).toBe(true);
      expect(index.probes, "probes asked on the answering thread by batch work").toBe(0);

      await service.answerOne(item({ address: settled[0]!.address }), context);
      expect(index.probes).toBe(1);
    } finally {
      await service.close();
      await inner.close();
    }
  });
});

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]));
}

describe("requests win the CPU from a job: batch lane threads run at a lower priority", () => {
  it("on Linux, once the batch lane has worked, a thread of this process runs 10 nicer than this (answering) thread, whose own nice value is unchanged", async () => {
    const ownNice = () => Number(readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1]!.split(" ")[16]);
    const before = ownNice();
    await lookups().rowsOf([{ input: JSON.stringify([{ county: "franklin" }]), firstRow: 1, today: DATE, context }]);
    expect(threadNiceValues()).toContain(Math.min(19, before + 10));
    expect(ownNice()).toBe(before);
  });

  it("on Linux, once the batch lane has started, V8's helper threads (the collectors' parallel and concurrent work, for every thread's heap; named V8Worker from Node 24) run 10 nicer than this thread too; where they are unnamed (Node 22) no thread is lowered in their stead", async () => {
    const ownNice = Number(readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1]!.split(" ")[16]);
    await lookups().rowsOf([{ input: JSON.stringify([{ county: "franklin" }]), firstRow: 1, today: DATE, context }]);
    const helpers = readdirSync("/proc/self/task").filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === "V8Worker");
    if (Number(process.versions.node.split(".")[0]) < 24) {
      expect(helpers).toEqual([]);
      expect(yieldCollectorThreads()).toBe(0);
      return;
    }
    expect(helpers.length).toBeGreaterThan(0);
    for (const tid of helpers) expect(Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16])).toBe(Math.min(19, ownNice + 10));
  });
});

describe("buckeye batch writes what the API's job results give, row for row", () => {
  it("the CLI's NDJSON lines equal the job's NDJSON results, status field included, but for the request id", async () => {
    const rows = [...settled.slice(0, 5).map(({ address }, i) => ({ id: `a${i}`, address, date: DATE })), { id: "c", county: "franklin", date: DATE }, { id: "bad", zip: "4321" }, { id: "far", lat: 35, lon: -100, date: DATE }];
    const ndjson = rows.map((r) => JSON.stringify(r)).join("\n");
    const submitted = await api.service.app.fetch(
      new Request("http://buckeye.test/api/v1/batches", { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "application/x-ndjson" }, body: ndjson }),
    );
    expect(submitted.status).toBe(202);
    const location = submitted.headers.get("location")!;
    for (let waited = 0; ; waited += 50) {
      const job = (await (await api.get(location)).json()) as { status: string };
      if (job.status === "completed") break;
      if (waited > 20_000) throw new Error(`job still ${job.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fromApi = (await (await api.get(`${location}/results`, { authorization: `Bearer ${api.liveKey}`, accept: "application/x-ndjson" })).text()).trim().split("\n");

    const input = join(dir, "rows.ndjson");
    const output = join(dir, "rows-out.ndjson");
    writeFileSync(input, ndjson);
    // Two rows fail: the file is written whole, and the exit status says not every row has a rate.
    expect((await batchCli([input, "--out", output])).code).toBe(3);
    const fromCli = readFileSync(output, "utf8").trim().split("\n");

    const comparable = (line: string) => {
      const parsed = JSON.parse(line) as { body: Record<string, unknown> };
      delete parsed.body.request_id;
      return parsed;
    };
    expect(fromCli).toHaveLength(rows.length);
    expect(fromCli.map(comparable)).toEqual(fromApi.map(comparable));
    expect(fromCli.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual([200, 200, 200, 200, 200, 200, 400, 422]);
  }, 60_000);

  it("--format finder writes the Finder results and errors files a Finder job's downloads give, byte for byte", async () => {
    const rows = settledBlocks.slice(0, 6).map((r, i) => [`INV-${i}`, r.street, i === 0 ? "Suite 200" : "", r.city, "OH", r.zip5, "", "06/01/2026", ...(i === 1 ? ["99.95"] : [])].join(","));
    const file = [...rows, "INV-BAD,1 Main St,,Columbus,OH,4321,,06/01/2026", "INV-OLD,1 Main St,,Columbus,OH,43215,,03/31/2012"].join("\n");
    const submitted = await api.service.app.fetch(
      new Request("http://buckeye.test/api/v1/batches?format=finder", { method: "POST", headers: { authorization: `Bearer ${api.liveKey}`, "content-type": "text/csv" }, body: file }),
    );
    expect(submitted.status).toBe(202);
    const location = submitted.headers.get("location")!;
    await jobCompleted(location);
    const download = async (format: string) => (await api.get(`${location}/results?format=${format}`, { authorization: `Bearer ${api.liveKey}` })).text();

    const input = join(dir, "finder.csv");
    const output = join(dir, "finder-out.csv");
    writeFileSync(input, file);
    expect((await batchCli([input, "--format", "finder", "--out", output])).code).toBe(3);
    const results = readFileSync(output, "utf8");
    expect(results).toBe(await download("finder"));
    expect(readFileSync(join(dir, "finder-out-errors.csv"), "utf8")).toBe(await download("finder-errors"));
    expect(results.trim().split("\n").map((line) => [line.split(",")[0], line.split(",")[15]])).toEqual(rows.map((_, i) => [`INV-${i}`, "address_range"]));
    expect(readFileSync(join(dir, "finder-out-errors.csv"), "utf8")).toMatch(/^INV-BAD,.*,7,400,.*\nINV-OLD,.*,8,422,.*2018-01-01/);
  }, 60_000);

  it("an export with a name column: the CLI says which columns it ignores, and a row with no location names them", async () => {
    const [r] = settledBlocks;
    const input = join(dir, "export.csv");
    const output = join(dir, "export-out.csv");
    writeFileSync(input, `name, street, city, state, zip\nAcme,${r!.street},${r!.city},OH,${r!.zip5}\nWalk-in,,,,\n`);
    const { code, stderr } = await batchCli([input, "--out", output]);
    expect(code).toBe(3);
    expect(stderr).toContain("ignored columns (Buckeye does not read them): name");
    const [header, answered, failed] = readFileSync(output, "utf8").trim().split("\n");
    expect(header).toMatch(/^row,id,status/);
    expect(answered).toContain(`address_range`);
    expect(failed).toContain("This row's name is not read");
  }, 60_000);
});

/** Runs `buckeye batch`, whatever its exit status. */
async function batchCli(args: string[]): Promise<{ code: number; stderr: string }> {
  return promisify(execFile)(process.execPath, [BIN, "batch", ...args], { env: cliEnv() }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe("buckeye batch's exit status says whether every row was answered with a rate: 0 every row, 3 some not (ambiguous or failed), 4 none", () => {
  const csvRows = (output: string) => parse(readFileSync(output, "utf8"), { columns: true }) as Array<Record<string, string>>;

  it("every row failed: exit 4, and the summary counts 0 answered", async () => {
    const input = join(dir, "all-failed.csv");
    const output = join(dir, "all-failed-out.csv");
    writeFileSync(input, "id,zip\nbad1,4321\nbad2,99999x\n");
    const { code, stderr } = await batchCli([input, "--out", output]);
    expect(code).toBe(4);
    expect(stderr).toMatch(/: 0 answered, 0 ambiguous, 2 problems → /);
    expect(stderr).toContain("buckeye: no row was answered with a rate (exit 4)\n");
    expect(csvRows(output).map((row) => row["status"])).toEqual(["400", "400"]);
  }, 60_000);

  it("an ambiguous ZIP is counted as ambiguous, not answered; its CSV row says ambiguous=true with status 200 and no rate; exit 3", async () => {
    const input = join(dir, "ambiguous.csv");
    const output = join(dir, "ambiguous-out.csv");
    writeFileSync(input, `id,zip,date\nplain,43215,${DATE}\nsplit,43017,${DATE}\n`);
    const { code, stderr } = await batchCli([input, "--out", output]);
    expect(stderr).toMatch(/: 1 answered, 1 ambiguous, 0 problems → /);
    expect(stderr).toContain("buckeye: 1 of 2 rows was not answered with a rate (exit 3)\n");
    expect(code).toBe(3);
    expect(csvRows(output).map((row) => [row["id"], row["status"], row["ambiguous"], row["combined_rate"], row["candidate_fips"]])).toEqual([
      ["plain", "200", "false", "0.08", ""],
      ["split", "200", "true", "", "39049 39041 39159"],
    ]);
  }, 60_000);

  it("every row answered with a rate: exit 0", async () => {
    const input = join(dir, "all-answered.csv");
    const output = join(dir, "all-answered-out.csv");
    writeFileSync(input, `id,county,date\nc1,Franklin,${DATE}\nc2,Wood,${DATE}\n`);
    const { code, stderr } = await batchCli([input, "--out", output]);
    expect(stderr).toMatch(/: 2 answered, 0 ambiguous, 0 problems → /);
    expect(code).toBe(0);
  }, 60_000);
});

describe("buckeye batch refuses a file that is not UTF-8, naming the row and byte offset, and writes nothing", () => {
  it("a CSV with a Windows-1252 é exits 1 with one line naming line, row and offset; no results file is written", async () => {
    const input = join(dir, "latin1.csv");
    const output = join(dir, "latin1-out.csv");
    writeFileSync(input, Buffer.concat([Buffer.from("id,county\nr1,Franklin\nr2,Licking\nCaf"), Buffer.from([0xe9]), Buffer.from(",Franklin\n")]));
    const failed = await promisify(execFile)(process.execPath, [BIN, "batch", input, "--out", output], { env: cliEnv() }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(`buckeye: ${input}: The file is not UTF-8: byte 0xE9 at byte offset 36 (line 4, row 3) is not part of a UTF-8 character. Save it as UTF-8 (in Excel: "CSV UTF-8") and send it again. Nothing was stored.\n`);
    expect(existsSync(output)).toBe(false);
  }, 60_000);
});

const settledBlocks = linedRecords(RECORDS)
  .filter((r) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE)
  .slice(0, 10)
  .map((r) => {
    const house = r.parity === "E" ? r.houseLow! + (r.houseLow! % 2) : r.houseLow! + 1 - (r.houseLow! % 2);
    return { street: [house, r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" "), city: r.city, zip5: r.zip5, line: r.line };
  });

const cliEnv = () => ({ ...process.env, DATABASE_URL: api.config.databaseUrl, CENSUS_GEOCODER_URL: api.fake.url, GEO_DATA_DIR: api.config.geoDataDir, LOG_LEVEL: "silent" });

async function jobCompleted(location: string): Promise<void> {
  for (let waited = 0; ; waited += 50) {
    const job = (await (await api.get(location)).json()) as { status: string };
    if (job.status === "completed") return;
    if (waited > 20_000) throw new Error(`job still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("buckeye batch says what it waits for while the geocoder is unreachable and retried", () => {
  it("prints one line naming the Census geocoder, the failure and the coming retry, before the rows are answered", async () => {
    const input = join(dir, "unreachable.ndjson");
    writeFileSync(input, JSON.stringify({ id: "x", address: "1 Nowhere Unknown Rd, Columbus, OH 43215", date: DATE }));
    // A port just let go: nothing listens there, so every request is refused at once.
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    const { stderr } = await promisify(execFile)(process.execPath, [BIN, "batch", input, "--out", join(dir, "unreachable-out.ndjson")], {
      env: { ...process.env, DATABASE_URL: api.config.databaseUrl, CENSUS_GEOCODER_URL: `http://127.0.0.1:${port}`, GEOCODER_BATCH_RETRIES: "1", GEO_DATA_DIR: api.config.geoDataDir, LOG_LEVEL: "silent" },
    });
    expect(stderr).toMatch(/^waiting for the Census geocoder \(.+\): retry 1 of 1 in \d+ s$/m);
    expect(stderr).toMatch(/^1 rows in .* → /m);
  }, 60_000);
});
