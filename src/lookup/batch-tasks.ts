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

/**
 * Rows settled together within a group, in whole chunks: a slice the boundary file settles is stored
 * before the next is read, so a thread holds one slice's rows and answers, not a group's. A group is
 * as large as one Census batch request (10,000 rows), and its answers held at once were most of the
 * batch thread's heap (docs/operations/benchmarks.md); the rows left for the geocoder are still sent
 * in one request.
 */
const SLICE_ROWS = 2_000;

/** `unread`: by a row's index in the chunk, the address-like columns it carried that were not read (only rows that have some). */
type SliceChunk = { firstRow: number; ids: Array<string | null>; unread?: Record<number, string[]>; lease?: ChunkLease };

/** A slice that waits for the geocoder; its pending rows' ids are numbered across the group. */
interface CarriedSlice {
  chunks: SliceChunk[];
  entries: Entry[];
  settled: Settled;
}

/**
 * Carried between the two tasks as JSON text (a later task may land on another thread): the group's
 * chunks in order, each done already or null where a waiting slice holds it.
 */
interface CarriedState {
  done: Array<ChunkDone | null>;
  slices: CarriedSlice[];
}

/** The rows of a chunk that carried address-like columns that were not read, by index; undefined when none did. */
function unreadOf(read: ReadonlyArray<{ unread?: string[] }>): Record<number, string[]> | undefined {
  let unread: Record<number, string[]> | undefined;
  read.forEach((row, i) => {
    if (row.unread) (unread ??= {})[i] = row.unread;
  });
  return unread;
}

/**
 * The ladder as a batch-lane thread climbs it, for a task's overlay: the state's boundary file from the
 * thread's store (opened at first need; null: the caller has no store), and the live rate table rebuilt
 * from the shipped one and the overlay (kept while the overlay is the same). The thread's other
 * resolving tasks (src/batch/order-tasks.ts) climb the same one.
 */
export function threadLadder(
  workerData: BatchWorkerData,
  locate: (points: ReadonlyArray<{ lon: number; lat: number }>) => Promise<LocateAnswer>,
  missingPolygons: string | null,
  openedStore: () => Store | null,
): (overlay: RatesOverlay) => LadderParts {
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

  return (overlay) => ({ data: ratesFor(overlay), boundaries: boundaryIndex(), missingPolygons, locate });
}

/** `parts`: the thread's ladder (threadLadder); `openedStore`: the thread's store connection (null: the caller has no store). */
export function createBatchTasks(parts: (overlay: RatesOverlay) => LadderParts, openedStore: () => Store | null, leasedChunks: LeasedChunks) {
  /** Each chunk's rows: stored under its lease when it has one (a group's together, completeChunks), else returned as JSON text. */
  async function finish(chunks: readonly SliceChunk[], results: RowResult["result"][], now: string): Promise<ChunkDone[]> {
    let offset = 0;
    const done: ChunkDone[] = [];
    const leased: Array<{ index: number; owner: string; results: ChunkResults }> = [];
    for (const { firstRow, ids, unread, lease } of chunks) {
      const rows: RowResult[] = ids.map((id, i) => ({ row: firstRow + i, id, result: results[offset + i]!, ...(unread?.[i] && { unread_columns: unread[i] }) }));
      offset += ids.length;
      const counts = { done: rows.length, failed: rows.filter((row) => row.result.kind === "failure").length };
      if (lease === undefined) done.push({ output: JSON.stringify(rows), ...counts });
      else {
        leased.push({ index: done.length, owner: lease.owner, results: { jobId: lease.jobId, seq: lease.seq, rows, counts } });
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
      // The leased chunks' rows in one read per owner and job, not one per chunk (a round trip each on PostgreSQL).
      const leases = input.chunks.flatMap((chunk) => (chunk.lease ? [chunk.lease] : []));
      const inputs = new Map<string, string>();
      for (const owner of new Set(leases.map((lease) => lease.owner))) {
        for (const [key, text] of await leasedChunks.read(openedStore()!, leases.filter((lease) => lease.owner === owner), owner)) inputs.set(`${owner}:${key}`, text);
      }
      // A chunk whose lease was lost (or whose job was deleted and purged) has no rows to resolve; its empty results are refused when stored.
      const keyOf = (lease: ChunkLease) => `${lease.owner}:${lease.jobId}:${lease.seq}`;
      const textOf = (chunk: ChunkWork) => (chunk.lease ? (inputs.get(keyOf(chunk.lease)) ?? "[]") : chunk.input);
      const ladder = parts(input.overlay);
      const carried: CarriedState = { done: [], slices: [] };
      const geocode: BatchStep & { kind: "geocode" } = { kind: "geocode", rows: [], state: "" };
      let settledRows = 0;
      let chunks: SliceChunk[] = [];
      let entries: Entry[] = [];
      const settleSlice = async () => {
        const settled = await settle(ladder, entries);
        if (settled.pending.length === 0) carried.done.push(...(await finish(chunks, settled.results.map((r) => r!), input.now)));
        else {
          // Numbered across the group: the geocoder answers the group's rows in one request, by id.
          for (const pending of settled.pending) pending.row = { ...pending.row, id: String(settledRows + pending.at) };
          geocode.rows.push(...settled.pending.map((p) => p.row));
          carried.done.push(...chunks.map(() => null));
          carried.slices.push({ chunks, entries, settled });
        }
        settledRows += entries.length;
        chunks = [];
        entries = [];
      };
      for (const [i, chunk] of input.chunks.entries()) {
        const read = readLookups(textOf(chunk), chunk.today);
        if (chunk.lease) inputs.delete(keyOf(chunk.lease));
        const unread = unreadOf(read);
        chunks.push({ firstRow: chunk.firstRow, ids: read.map(({ id }) => id), ...(unread && { unread }), ...(chunk.lease && { lease: chunk.lease }) });
        for (const { item } of read) entries.push({ item, context: chunk.context });
        if (entries.length >= SLICE_ROWS || i === input.chunks.length - 1) await settleSlice();
      }
      if (carried.slices.length === 0) return { kind: "done", chunks: carried.done.map((chunk) => chunk!) };
      return { ...geocode, state: JSON.stringify(carried) };
    },

    /** The geocoder's answers for a `geocode` step's rows, folded in. */
    async completeChunks(input: { state: string; overlay: RatesOverlay; geocoded: Geocoded; now: string }): Promise<Extract<BatchStep, { kind: "done" }>> {
      const { done, slices } = JSON.parse(input.state) as CarriedState;
      const ladder = parts(input.overlay);
      const answers = new Map(input.geocoded.answers);
      const finished: ChunkDone[] = [];
      for (const { chunks, entries, settled } of slices) {
        const outcomes = batchOutcomes(ladder.data, settled.pending, answers, input.geocoded.down);
        finished.push(...(await finish(chunks, await complete(ladder, entries, settled, outcomes), input.now)));
      }
      let next = 0;
      return { kind: "done", chunks: done.map((chunk) => chunk ?? finished[next++]!) };
    },
  };
}

export type BatchTasks = ReturnType<typeof createBatchTasks>;
