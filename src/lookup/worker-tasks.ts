/**
 * The tasks the lookup worker threads run (workers/geo.ts and workers/batch-lane.ts only wire them up, one task file per lane): placing points in
 * the county and place polygons for single lookups; in the batch lane, resolving batch lists
 * (batch-tasks.ts), beside the job queue's tasks (src/batch/job-tasks.ts: reading uploads too).
 * Each thread adopts the polygon indexes a child process built (see worker-pool.ts), or loads them
 * at its first task. Answers are plain data.
 */
import type { PolygonFiles } from "../geo/polygon-files.ts";
import { adoptPolygons, loadPolygons, locate, type Polygons, type PolygonsData } from "../geo/polygons.ts";
import { openStore, type Store } from "../store/connect.ts";
import { createBatchTasks, threadLadder, type BatchTasks, type LeasedChunks } from "./batch-tasks.ts";
import type { LadderParts } from "./ladder.ts";
import type { RatesOverlay } from "../rates/overlay-periods.ts";
import type { BatchWorkerData } from "./chunk-work.ts";
import type { LocateAnswer, LocatedPoint, PolygonVintages } from "./resolver-inputs.ts";

export interface GeoWorkerData {
  polygonFiles: PolygonFiles;
  /** Polygons a child process already built (see GeoPool): adopted, not loaded again. */
  shared?: PolygonsData | null;
  /** Given to the batch lane's threads only: what resolving a batch list reads besides the polygons. */
  batch?: BatchWorkerData;
}

export interface PolygonSummary extends PolygonVintages {
  dir: string;
}

/** A point just off every county polygon (a geocode on a shoreline) still belongs to the nearest county within this distance. */
const SHORE_TOLERANCE_KM = 0.3;

/**
 * The page cache of a batch thread's SQLite connection, in MiB. Its reads are a group's chunks, each
 * read once, and the boundary file's probes, whose pages the operating system's cache keeps too; at
 * better-sqlite3's 16 MiB the cache was a tenth of what a job added to the service's memory, and
 * malloc kept it after the job (docs/operations/benchmarks.md).
 */
const BATCH_PAGE_CACHE_MB = 4;

/**
 * The thread's store connection, opened at first need and shared by its resolving and job tasks;
 * null in a thread given no store (the interactive lane, or a caller without one).
 */
export function threadStore(workerData: GeoWorkerData): () => Store | null {
  let store: Store | null = null;
  return () => {
    const url = workerData.batch?.databaseUrl ?? null;
    if (url === null) return null;
    store ??= openStore(url, { pool: 2, immediateTransactions: true, pageCacheMb: BATCH_PAGE_CACHE_MB });
    return store;
  };
}

/** What the batch lane's resolving tasks read and store a job's chunks through; the interactive lane has none. */
export interface ChunkStore {
  openedStore: () => Store | null;
  leasedChunks: LeasedChunks;
}

export function createGeoTasks(workerData: GeoWorkerData, chunkStore?: ChunkStore) {
  return createGeoLane(workerData, chunkStore).tasks;
}

/** A lane's tasks, and in the batch lane (given its data and store) the ladder they climb, for the thread's other resolving tasks; null elsewhere. */
export function createGeoLane(workerData: GeoWorkerData, chunkStore?: ChunkStore): { tasks: GeoTasks; ladder: ((overlay: RatesOverlay) => LadderParts) | null } {
  const files = workerData.polygonFiles;
  let polygons: Promise<Polygons> | null = workerData.shared ? Promise.resolve(adoptPolygons(workerData.shared)) : null;

  /** The polygons, loaded at first need; a load failure is reported, and retried on the next call. */
  async function getPolygons(): Promise<Polygons | string> {
    if (!files.available) return files.reason;
    polygons ??= loadPolygons(files);
    try {
      return await polygons;
    } catch (error) {
      polygons = null;
      return `boundary files in ${files.dir} could not be loaded: ${(error as Error).message}`;
    }
  }

  function place(loaded: Polygons, lon: number, lat: number): LocatedPoint {
    const found = locate(loaded, lon, lat);
    if (found.county) return { ...found, shoreCounty: null };
    const nearest = loaded.counties.nearest(lon, lat);
    return { ...found, shoreCounty: nearest.distanceKm <= SHORE_TOLERANCE_KM ? nearest.value : null };
  }

  /** Every point of a lookup list, placed in one call. */
  async function locatePoints(points: ReadonlyArray<{ lon: number; lat: number }>): Promise<LocateAnswer> {
    const loaded = await getPolygons();
    if (typeof loaded === "string") return { ok: false, reason: loaded };
    return { ok: true, countyVintage: loaded.countyVintage, placeVintage: loaded.placeVintage, points: points.map(({ lon, lat }) => place(loaded, lon, lat)) };
  }

  const unavailable = (): never => {
    throw new Error("batch tasks run in the batch lane, whose threads are given its data");
  };
  const ladder = workerData.batch && chunkStore ? threadLadder(workerData.batch, locatePoints, files.available ? null : files.reason, chunkStore.openedStore) : null;
  const batch = ladder && chunkStore ? createBatchTasks(ladder, chunkStore.openedStore, chunkStore.leasedChunks) : null;

  const tasks = {
    async warm(): Promise<PolygonSummary> {
      const loaded = await getPolygons();
      if (typeof loaded === "string") throw new Error(loaded);
      return { dir: files.dir, countyVintage: loaded.countyVintage, placeVintage: loaded.placeVintage };
    },

    locate: locatePoints,
    resolveChunks: batch?.resolveChunks ?? (unavailable as BatchTasks["resolveChunks"]),
    completeChunks: batch?.completeChunks ?? (unavailable as BatchTasks["completeChunks"]),
  };
  return { tasks, ladder };
}

export interface GeoTasks {
  warm(): Promise<PolygonSummary>;
  locate(points: ReadonlyArray<{ lon: number; lat: number }>): Promise<LocateAnswer>;
  resolveChunks: BatchTasks["resolveChunks"];
  completeChunks: BatchTasks["completeChunks"];
}
