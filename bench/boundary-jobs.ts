/**
 * What the boundary-file benchmarks share: a SYNTHETIC boundary file (src/boundaries/synthetic-file.ts,
 * from data/) imported into a bench database, addresses that file resolves by its own records, and
 * asynchronous jobs submitted and polled over the HTTP API only, so the figures hold for any
 * implementation behind it.
 */
import { join } from "node:path";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import type { BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { syntheticBoundaryRecords, writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import type { components } from "../client/api-types.ts";
import type { Store } from "../src/store/connect.ts";
import { root } from "./start-process.ts";

/** The date every bench lookup asks for: inside the synthetic file's current records. */
export const DATE = "2026-06-01";
export const DATA_DIR = join(root, "data");

/**
 * Writes a synthetic file of `records` records into `dir`, imports it into `store` and closes the
 * store (the server opens its own); resolves with `count` addresses the file resolves.
 */
export async function importSyntheticFile(store: Store, dir: string, records: number, count: number): Promise<string[]> {
  const file = join(dir, "OHB2026Q4SEP17-synthetic.csv");
  await writeSyntheticBoundaryFile(file, { dataDir: DATA_DIR, records });
  const imported = await importBoundaryFile({ store, source: file, synthetic: true });
  await store.close();
  console.log(`imported ${imported.records} synthetic records in ${imported.seconds.toFixed(1)} s`);
  return resolvableAddresses(records, count);
}

function addressOf(r: BoundaryRecord): string {
  const house = r.houseLow! + (r.parity === "O" ? (r.houseLow! % 2 === 1 ? 0 : 1) : r.houseLow! % 2);
  return `${[house, r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" ")}, ${r.city}, OH ${r.zip5}`;
}

/** Addresses of current, unit-less address ranges of a `records`-record file: each resolves by its own record. */
function resolvableAddresses(records: number, count: number): string[] {
  const out: string[] = [];
  for (const r of syntheticBoundaryRecords({ dataDir: DATA_DIR, records })) {
    if (r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE) out.push(addressOf(r));
    if (out.length === count) return out;
  }
  throw new Error(`a ${records}-record file has only ${out.length} usable address ranges; raise BENCH_BOUNDARY_RECORDS`);
}

/** "Franklin Synthetic": a city as customers type it. */
const titleCase = (text: string) => text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());

/**
 * `count` addresses of current, unit-less address ranges of a `records`-record file in the state's
 * layout (synthetic-file.ts `streets: "many"`), taken evenly over the whole file so every ZIP is asked,
 * typed with the record's own city and ZIP: "110 S WINVILBAR AVE, Franklin Synthetic, OH 43215".
 */
export function spreadAddresses(records: number, count: number): string[] {
  const usable = (r: BoundaryRecord) => r.recordType === "A" && r.unit === null && r.effectiveTo === null && r.effectiveFrom <= DATE;
  let total = 0;
  for (const r of syntheticBoundaryRecords({ dataDir: DATA_DIR, records, streets: "many" })) if (usable(r)) total++;
  if (total < count) throw new Error(`a ${records}-record file has only ${total} usable address ranges; raise BENCH_BOUNDARY_RECORDS`);
  const out: string[] = [];
  let seen = 0;
  for (const r of syntheticBoundaryRecords({ dataDir: DATA_DIR, records, streets: "many" })) {
    if (!usable(r)) continue;
    // The n-th of `count` picks is the usable range at n·total/count.
    if (Math.floor((seen * count) / total) !== Math.floor(((seen + 1) * count) / total)) {
      const house = r.houseLow! + (r.parity === "O" ? (r.houseLow! % 2 === 1 ? 0 : 1) : r.houseLow! % 2) + 10;
      out.push(`${[house, r.preDirectional, r.streetName, r.suffix].filter(Boolean).join(" ")}, ${titleCase(r.city)}, OH ${r.zip5}`);
    }
    seen++;
  }
  return out;
}

const csvCell = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A job as GET /api/v1/batches/{id} shows it (the published contract). */
export type JobView = components["schemas"]["BatchJob"];

/** What a job's client met while polling: 429s and requests that never got an answer. */
export interface PollTally {
  throttled: number;
  errors: number;
}

/** The addresses as a job's CSV file, encoded: built once, it can be sent many times. */
export function jobFile(addresses: readonly string[]): Uint8Array<ArrayBuffer> {
  return Buffer.from(["id,address,date", ...addresses.map((a, i) => `r${i},${csvCell(a)},${DATE}`)].join("\n"));
}

/** POSTs the addresses (or their file, jobFile) as a CSV job and resolves with its Location. */
export async function submitJob(url: string, auth: Record<string, string>, addresses: readonly string[] | Uint8Array<ArrayBuffer>): Promise<string> {
  const csv = addresses instanceof Uint8Array ? addresses : jobFile(addresses);
  const submitted = await fetch(`${url}/api/v1/batches`, { method: "POST", headers: { ...auth, "content-type": "text/csv" }, body: csv });
  if (submitted.status !== 202) throw new Error(`job refused: ${submitted.status} ${await submitted.text()}`);
  return submitted.headers.get("location")!;
}

/**
 * Polls a job until it is completed. A 429 or a failed request is counted and polled again: under a
 * deployed rate limit a polling client may meet either, and the job itself is what is being timed.
 */
export async function waitForJob(url: string, auth: Record<string, string>, location: string, pollMs = 25, tally?: PollTally): Promise<JobView> {
  for (;;) {
    try {
      const answer = await fetch(`${url}${location}`, { headers: auth });
      if (answer.status === 429 && tally) tally.throttled++;
      if (answer.ok) {
        const job = (await answer.json()) as JobView;
        if (job.status === "completed") return job;
      } else await answer.arrayBuffer();
    } catch (error) {
      if (!tally) throw error;
      tally.errors++;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** Submits a job and waits for it: the job and the seconds from upload to completed. */
export async function runJob(url: string, auth: Record<string, string>, addresses: readonly string[]) {
  const started = performance.now();
  const location = await submitJob(url, auth, addresses);
  const job = await waitForJob(url, auth, location);
  return { job, seconds: (performance.now() - started) / 1000, location };
}
