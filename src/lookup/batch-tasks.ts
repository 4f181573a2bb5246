/**
 * The resolving a batch-lane thread does (workers/batch-lane.ts wires it up): a job's chunks, or a large
 * inline batch, through the ladder (ladder.ts): reading the rows, the state's boundary file, county
 * and ZIP rules, point placement and rate evaluation. Only the geocoder stays with the answering
 * thread (I/O), so a list whose addresses the file settles costs one task and no upstream call; one
 * with addresses left costs a second task, `completeChunks`, once they are geocoded.
 *
 * The thread has its own store connection: it reads the boundary file there (a better-sqlite3 probe
 * is synchronous, so on the answering thread it would stall every request), and a job's chunks are
 * read and their results stored there, through the queue's `LeasedChunks` (src/batch/job-tasks.ts;
 * on SQLite a commit that writes a chunk group's 14 MB of results waits on the disk for tens of
 * milliseconds, measured, and better-sqlite3 waits on the thread that asks); it rebuilds the live
 * rate table from the shipped one it was given and the overlay each task carries. So the answering
 * thread neither parses nor holds a job's rows.
 */
import { openBoundaryIndex } from "../boundaries/boundary-index.ts";
import { mergeTable, type RatesOverlay } from "../rates/overlay-periods.ts";
import type { Store } from "../store/connect.ts";
import type { BatchStep, BatchWorkerData, ChunkDone, ChunkLease, ChunkResults, ChunkWork, Geocoded } from "./chunk-work.ts";
import type { RowResult } from "./item-result.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts, type Settled } from "./ladder.ts";
import { readLookups } from "./lookup-item.ts";
import type { LocateAnswer, ResolverData } from "./resolver-inputs.ts";

/** A job's leased chunks as the queue keeps them: the batch room's store (src/batch/job-tasks.ts) implements it. */
export interface LeasedChunks {
  /** The rows (JSON text) of the chunks `owner` holds, keyed `jobId:seq`; a chunk whose lease was lost is absent. */
  read(store: Store, leases: readonly ChunkLease[], owner: string): Promise<Map<string, string>>;
  /** Stores each chunk's results if `owner` still holds its lease: whether each was stored. */
  write(store: Store, owner: string, chunks: readonly ChunkResults[], now: Date): Promise<boolean[]>;
}

/** Carried between the two tasks as JSON text: a later task may land on another thread. */
interface CarriedState {
  chunks: Array<{ firstRow: number; ids: Array<string | null>; lease?: ChunkLease }>;
  entries: Entry[];
  settled: Settled;
}

/** `openedStore`: the thread's store connection, opened at first need (null: the caller has no store). */
export function createBatchTasks(
  workerData: BatchWorkerData,
  locate: (points: ReadonlyArray<{ lon: number; lat: number }>) => Promise<LocateAnswer>,
  missingPolygons: string | null,
  openedStore: () => Store | null,
  leasedChunks: LeasedChunks,
) {
  let boundaries: ReturnType<typeof openBoundaryIndex> | null = null;
  let rates: { key: string; data: ResolverData } | null = null;

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
      const stored = await leasedChunks.write(opened!, owner, mine.map((chunk) => chunk.results), new Date(now));
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
        for (const [key, text] of await leasedChunks.read(openedStore()!, leases.filter((lease) => lease.owner === owner), owner)) inputs.set(`${owner}:${key}`, text);
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
  };
}

export type BatchTasks = ReturnType<typeof createBatchTasks>;
