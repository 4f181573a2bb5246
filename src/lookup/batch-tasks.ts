/**
 * The batch work a pool thread does (workers/geo.ts wires it up): a job's chunks, or a large inline
 * batch, through the ladder (ladder.ts): reading the rows, the state's boundary file, county and ZIP
 * rules, point placement and rate evaluation. Only the geocoder stays with the answering thread
 * (I/O), so a list whose addresses the file settles costs one task and no upstream call; one with
 * addresses left costs a second task, `completeChunks`, once they are geocoded.
 *
 * The thread has its own store connection: it reads the boundary file there (a better-sqlite3 probe
 * is synchronous, so on the answering thread it would stall every request), stores a job's uploaded
 * chunks and each chunk's results there (on SQLite a commit that writes a chunk group's 14 MB of
 * results waits on the disk for tens of milliseconds, measured, and better-sqlite3 waits on the
 * thread that asks), and rebuilds the live rate table from the shipped one it was given and the
 * overlay each task carries. So the answering thread neither parses nor holds a job's rows.
 */
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { mergeTable, type RatesOverlay } from "../rates/overlay-periods.ts";
import {
  claimGroup,
  completeChunk,
  completeChunks,
  countBatchJobs,
  insertBatchJob,
  readLeasedInput,
  readLeasedInputs,
  type BatchJob,
  type ChunkResults,
  type ClaimedChunk,
  type NewBatchJob,
} from "../store/batch-jobs.repository.ts";
import { openStore, type Store } from "../store/connect.ts";
import type { Db } from "../store/database.ts";
import { lockOrganization } from "../store/organizations.repository.ts";
import type { BatchStep, BatchWorkerData, ChunkDone, ChunkLease, ChunkWork, Geocoded } from "./chunk-work.ts";
import { failure, type RowResult } from "./item-result.ts";
import { jobCapRefusal, type JobCaps, type JobRefusal } from "./job-admission.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts, type Settled } from "./ladder.ts";
import { rawId, readLookups } from "./lookup-item.ts";
import { readBatchFile, type BatchFileReading, type BatchFormat } from "./read-batch-file.ts";
import type { LocateAnswer, ResolverData } from "./resolver-inputs.ts";

/** An upload to read, cut into chunks and store as a job with them. */
export interface JobUpload {
  /** UTF-8, as uploaded. */
  bytes: Uint8Array;
  format: BatchFormat;
  maxRows: number;
  /** Rows per chunk at most (a chunk of long rows is cut sooner). */
  chunkRows: number;
  job: Omit<NewBatchJob, "total" | "chunks" | "format">;
  /** The organization's caps, held again as the job is stored; null: none. */
  caps: JobCaps | null;
  /** ISO time of acceptance, from the service's clock. */
  now: string;
}

/** Carried between the two tasks as JSON text: a later task may land on another thread. */
interface CarriedState {
  chunks: Array<{ firstRow: number; ids: Array<string | null>; lease?: ChunkLease }>;
  entries: Entry[];
  settled: Settled;
}

export function createBatchTasks(workerData: BatchWorkerData, locate: (points: ReadonlyArray<{ lon: number; lat: number }>) => Promise<LocateAnswer>, missingPolygons: string | null) {
  let store: Store | null = null;
  let boundaries: ReturnType<typeof openBoundaryIndex> | null = null;
  let rates: { key: string; data: ResolverData } | null = null;

  function openedStore(): Store | null {
    if (workerData.databaseUrl === null) return null;
    store ??= openStore(workerData.databaseUrl, { pool: 2, immediateTransactions: true });
    return store;
  }

  function boundaryIndex() {
    const opened = openedStore();
    if (opened === null) return null;
    boundaries ??= openBoundaryIndex(opened);
    return boundaries;
  }

  function ratesFor(overlay: RatesOverlay): ResolverData {
    if (rates?.key !== overlay.key) {
      const { shipped } = workerData;
      const table = overlay.periods.length === 0 ? shipped.table : mergeTable(shipped.table, overlay.periods);
      rates = { key: overlay.key, data: { table, zips: shipped.zips } };
    }
    return rates.data;
  }

  function parts(overlay: RatesOverlay): LadderParts {
    return { data: ratesFor(overlay), boundaries: boundaryIndex(), missingPolygons, locate };
  }

  /** Each chunk's rows: stored under its lease when it has one (a group's together, completeChunks), else returned as JSON text. */
  async function finish(chunks: CarriedState["chunks"], results: RowResult["result"][], now: string): Promise<ChunkDone[]> {
    let offset = 0;
    const done: ChunkDone[] = [];
    const leased: Array<{ index: number; owner: string; results: ChunkResults }> = [];
    for (const { firstRow, ids, lease } of chunks) {
      const rows: RowResult[] = ids.map((id, i) => ({ row: firstRow + i, id, result: results[offset + i]! }));
      offset += ids.length;
      const counts = { done: rows.length, failed: rows.filter((row) => row.result.kind === "failure").length };
      if (lease === undefined) done.push({ output: JSON.stringify(rows), ...counts });
      else {
        leased.push({ index: done.length, owner: lease.owner, results: { jobId: lease.jobId, seq: lease.seq, output: JSON.stringify(rows), counts } });
        done.push({ stored: false, ...counts });
      }
    }
    const opened = openedStore();
    for (const owner of new Set(leased.map((chunk) => chunk.owner))) {
      const mine = leased.filter((chunk) => chunk.owner === owner);
      const stored = await completeChunks(opened!.db, opened!.dialect, owner, mine.map((chunk) => chunk.results), new Date(now));
      mine.forEach((chunk, k) => {
        done[chunk.index]!.stored = stored[k]!;
      });
    }
    return done;
  }

  return {
    /** Every rung but the geocoder; done at once when nothing is left for it. */
    async resolveChunks(input: { chunks: ChunkWork[]; overlay: RatesOverlay; now: string }): Promise<BatchStep> {
      const chunks: CarriedState["chunks"] = [];
      const entries: Entry[] = [];
      // The leased chunks' rows in one read per owner and job, not one per chunk (a round trip each on PostgreSQL).
      const leases = input.chunks.flatMap((chunk) => (chunk.lease ? [chunk.lease] : []));
      const inputs = new Map<string, string>();
      for (const owner of new Set(leases.map((lease) => lease.owner))) {
        for (const [key, text] of await readLeasedInputs(openedStore()!.db, leases.filter((lease) => lease.owner === owner), owner)) inputs.set(`${owner}:${key}`, text);
      }
      for (const chunk of input.chunks) {
        // A chunk whose lease was lost (or whose job was deleted and purged) has no rows to resolve; its empty results are refused when stored.
        const text = chunk.lease ? (inputs.get(`${chunk.lease.owner}:${chunk.lease.jobId}:${chunk.lease.seq}`) ?? "[]") : chunk.input;
        const read = readLookups(text, chunk.today);
        chunks.push({ firstRow: chunk.firstRow, ids: read.map(({ id }) => id), ...(chunk.lease && { lease: chunk.lease }) });
        for (const { item } of read) entries.push({ item, context: chunk.context });
      }
      const ladder = parts(input.overlay);
      const settled = await settle(ladder, entries);
      if (settled.pending.length === 0) return { kind: "done", chunks: await finish(chunks, settled.results.map((r) => r!), input.now) };
      const state: CarriedState = { chunks, entries, settled };
      return { kind: "geocode", rows: settled.pending.map((p) => p.row), state: JSON.stringify(state) };
    },

    /** The geocoder's answers for a `geocode` step's rows, folded in. */
    async completeChunks(input: { state: string; overlay: RatesOverlay; geocoded: Geocoded; now: string }): Promise<Extract<BatchStep, { kind: "done" }>> {
      const { chunks, entries, settled } = JSON.parse(input.state) as CarriedState;
      const ladder = parts(input.overlay);
      const outcomes = batchOutcomes(ladder.data, settled.pending, new Map(input.geocoded.answers), input.geocoded.down);
      return { kind: "done", chunks: await finish(chunks, await complete(ladder, entries, settled, outcomes), input.now) };
    },

    /** Claims a group of chunks for `owner` (the runner on the answering thread serialises its claims). */
    async claimGroup(input: { owner: string; now: string; leaseMs: number; groupRows: number; runningPerOrganization: number }): Promise<ClaimedChunk[]> {
      const opened = openedStore()!;
      return claimGroup(opened.db, opened.dialect, input.owner, new Date(input.now), input.leaseMs, input.groupRows, input.runningPerOrganization);
    },

    /**
     * A chunk claimed more than the runner's attempts allow: its rows are stored as failures
     * (`batch-row-abandoned`) under the lease, without being resolved, so the fault that stopped its
     * runners cannot recur. Only the rows' ids are read. Whether it was stored (false: lease lost or chunk gone).
     */
    async abandonChunk(input: { lease: ChunkLease; firstRow: number; attempts: number; now: string }): Promise<boolean> {
      const { lease, firstRow } = input;
      const db = openedStore()!.db;
      const text = await readLeasedInput(db, lease, lease.owner);
      if (text === null) return false;
      const raws = JSON.parse(text) as unknown[];
      const tries = input.attempts - 1;
      const result = failure(
        "batch-row-abandoned",
        `Rows ${firstRow}–${firstRow + raws.length - 1} of this job were tried ${tries} times and never finished (the runner stopped or failed each time), so they were given up and the rest of the job went on. Submit this row again.`,
      );
      const rows: RowResult[] = raws.map((raw, i) => ({ row: firstRow + i, id: rawId(raw), result }));
      return completeChunk(db, lease, lease.owner, JSON.stringify(rows), { done: rows.length, failed: rows.length }, new Date(input.now));
    },

    /** Reads an upload and stores it as a job with its chunks, in one transaction; or the reason it is refused. */
    async acceptJob(input: JobUpload): Promise<{ ok: true; job: BatchJob } | Extract<BatchFileReading, { ok: false }> | JobRefusal> {
      const reading = readBatchFile(input.bytes, input.format, input.maxRows, input.chunkRows);
      if (!reading.ok) return reading;
      const { caps, job: fields } = input;
      // Counted and stored under the organization's lock: the answering thread's check passes uploads sent at
      // once together, and this one lets through only as many as the caps leave room for.
      const admit = caps
        ? async (trx: Db) => {
            await lockOrganization(trx, fields.organizationId);
            const refusal = jobCapRefusal(await countBatchJobs(trx, fields.organizationId), caps);
            if (refusal) throw new CapReached(refusal);
          }
        : undefined;
      try {
        const job = await insertBatchJob(openedStore()!.db, { ...fields, format: input.format, total: reading.total, ignoredColumns: reading.ignoredColumns, chunks: reading.chunks }, new Date(input.now), admit);
        return { ok: true, job };
      } catch (error) {
        if (error instanceof CapReached) return error.refusal;
        throw error;
      }
    },
  };
}

export type BatchTasks = ReturnType<typeof createBatchTasks>;

/** Thrown inside the storing transaction when the caps leave no room, so nothing of the job is written. */
class CapReached extends Error {
  constructor(readonly refusal: JobRefusal) {
    super(refusal.detail);
  }
}
