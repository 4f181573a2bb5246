/**
 * The batch work a pool thread does (workers/geo.ts wires it up): a job's chunks, or a large inline
 * batch, through the ladder (ladder.ts): reading the rows, the state's boundary file, county and ZIP
 * rules, point placement and rate evaluation. Only the geocoder stays with the answering thread
 * (I/O), so a list whose addresses the file settles costs one task and no upstream call; one with
 * addresses left costs a second task, `completeChunks`, once they are geocoded.
 *
 * The thread reads the boundary file through its own read-only connection (a better-sqlite3 probe
 * is synchronous, so on the answering thread it would stall every request), and rebuilds the live
 * rate table from the shipped one it was given and the overlay each task carries. Answers are the
 * rows as stored (JSON text), so the answering thread copies strings and parses nothing.
 */
import { openBoundaryIndex } from "../boundaries/probe.ts";
import type { BatchAddress, BatchGeocode } from "../geo/census-batch-geocoder.ts";
import type { GeocodeOutcome } from "../geo/geocoder.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { mergeTable, type RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordContext } from "../rates/records.ts";
import { openStore, type Store } from "../store/connect.ts";
import type { RowResult } from "./item-result.ts";
import { batchOutcomes, complete, settle, type Entry, type LadderParts, type Settled } from "./ladder.ts";
import { readLookups } from "./lookup-item.ts";
import type { ResolverData } from "./resolve-item.ts";
import type { LocateAnswer } from "./worker-tasks.ts";

export interface BatchWorkerData {
  /** The store the state's boundary file is read from; null when the caller has none. */
  databaseUrl: string | null;
  /** The shipped rate table and ZIP index, copied into the thread once. */
  shipped: ResolverData;
}

/** One stored chunk (or an inline list) to resolve: its rows as JSON text, numbered from `firstRow`. */
export interface ChunkWork {
  input: string;
  firstRow: number;
  today: IsoDate;
  context: RecordContext;
}

/** A chunk's rows as stored (JSON text of RowResult[]), with its counts. */
export interface ChunkDone {
  output: string;
  done: number;
  failed: number;
}

export type BatchStep = { kind: "done"; chunks: ChunkDone[] } | { kind: "geocode"; rows: BatchAddress[]; state: string };

/** What the Census batch endpoint answered for the rows of a `geocode` step; `down` when it failed. */
export interface Geocoded {
  answers: Array<[string, BatchGeocode]>;
  down: Extract<GeocodeOutcome, { kind: "unavailable" }> | null;
}

/** Carried between the two tasks as JSON text: a later task may land on another thread. */
interface CarriedState {
  chunks: Array<{ firstRow: number; ids: Array<string | null> }>;
  entries: Entry[];
  settled: Settled;
}

export function createBatchTasks(workerData: BatchWorkerData, locate: (points: ReadonlyArray<{ lon: number; lat: number }>) => Promise<LocateAnswer>, missingPolygons: string | null) {
  let store: Store | null = null;
  let boundaries: ReturnType<typeof openBoundaryIndex> | null = null;
  let rates: { key: string; data: ResolverData } | null = null;

  function boundaryIndex() {
    if (workerData.databaseUrl === null) return null;
    store ??= openStore(workerData.databaseUrl, { readOnly: true });
    boundaries ??= openBoundaryIndex(store);
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

  function finish(chunks: CarriedState["chunks"], results: RowResult["result"][]): ChunkDone[] {
    let offset = 0;
    return chunks.map(({ firstRow, ids }) => {
      const rows: RowResult[] = ids.map((id, i) => ({ row: firstRow + i, id, result: results[offset + i]! }));
      offset += ids.length;
      return { output: JSON.stringify(rows), done: rows.length, failed: rows.filter((row) => row.result.kind === "failure").length };
    });
  }

  return {
    /** Every rung but the geocoder; done at once when nothing is left for it. */
    async resolveChunks(input: { chunks: ChunkWork[]; overlay: RatesOverlay }): Promise<BatchStep> {
      const chunks: CarriedState["chunks"] = [];
      const entries: Entry[] = [];
      for (const chunk of input.chunks) {
        const read = readLookups(chunk.input, chunk.today);
        chunks.push({ firstRow: chunk.firstRow, ids: read.map(({ id }) => id) });
        for (const { item } of read) entries.push({ item, context: chunk.context });
      }
      const ladder = parts(input.overlay);
      const settled = await settle(ladder, entries);
      if (settled.pending.length === 0) return { kind: "done", chunks: finish(chunks, settled.results.map((r) => r!)) };
      const state: CarriedState = { chunks, entries, settled };
      return { kind: "geocode", rows: settled.pending.map((p) => p.row), state: JSON.stringify(state) };
    },

    /** The geocoder's answers for a `geocode` step's rows, folded in. */
    async completeChunks(input: { state: string; overlay: RatesOverlay; geocoded: Geocoded }): Promise<Extract<BatchStep, { kind: "done" }>> {
      const { chunks, entries, settled } = JSON.parse(input.state) as CarriedState;
      const ladder = parts(input.overlay);
      const outcomes = batchOutcomes(ladder.data, settled.pending, new Map(input.geocoded.answers), input.geocoded.down);
      return { kind: "done", chunks: finish(chunks, await complete(ladder, entries, settled, outcomes)) };
    },
  };
}

export type BatchTasks = ReturnType<typeof createBatchTasks>;
