/**
 * The piscina pools that run the heavy work of address, coordinate and batch lookups, in two lanes
 * so that interactive work never queues behind a batch, each with its task file (workers/geo.ts,
 * workers/batch-lane.ts):
 *
 * - interactive (WORKER_THREADS): point-in-polygon for single lookups, whose answering thread
 *   parses, probes, geocodes (I/O) and evaluates rates, which cost microseconds each;
 * - batch (BATCH_THREADS): resolving job chunks and large inline batches whole (batch-tasks.ts),
 *   and the job queue's tasks (src/batch/job-tasks.ts: reading uploads, storing jobs, claiming
 *   chunks; run through `runInBatchLane`), each thread with its own store connection.
 *
 * Threads are fixed (min = max, no idle exit) and created at the first task, so a service that
 * answers only county and ZIP lookups never pays for them (about 20 MB each). At warm() the
 * polygon indexes are read from the index file `buckeye data fetch-geo` wrote, or, when there is
 * none that matches the polygons, parsed once in a child process that exits afterwards (parsing
 * 13 MB of GeoJSON takes memory a thread would not give back; see src/geo/open-polygon-index.ts); either way
 * they land in SharedArrayBuffers that every pool thread shares.
 * Which form of a task file the threads load (workers/geo-loader.mjs from the sources, geo.js
 * compiled) is worker-entries.ts's to say.
 */
import { Piscina } from "piscina";
import { poolTaskSeconds, poolThreadsOutOfMemory } from "../metrics.ts";
import { missingPolygonsNow, type PolygonFiles } from "../geo/polygon-files.ts";
import type { PolygonsData } from "../geo/polygons.ts";
import { IN_DENO, threadEntry } from "../worker-entries.ts";
import type { BatchWorkerData } from "./chunk-work.ts";
import { openPolygonIndex } from "../geo/open-polygon-index.ts";
import { yieldCollectorThreads } from "./batch-priority.ts";
import { clientWaiting, WaitingClientsFirst } from "./lane-queue.ts";
import type { PolygonSummary, GeoTasks, GeoWorkerData } from "./worker-tasks.ts";

export interface GeoPoolOptions {
  /** Threads of the interactive lane. */
  threads: number;
  /** Threads of the batch lane, and what they read besides the polygons. */
  batchThreads: number;
  /** Heap ceiling of each batch-lane thread, in MB (BATCH_THREAD_MAX_HEAP_MB). */
  batchHeapMb: number;
  batch: BatchWorkerData;
  polygonFiles: PolygonFiles;
  /**
   * Errors raised outside any task: piscina's (e.g. a thread's late answer to a task that was
   * aborted), which without a listener on the pool's `error` event would end the process, and a
   * failed index build in the child process (the threads then load the files themselves).
   */
  onError: (error: unknown) => void;
}

export type PoolReadiness =
  | { state: "idle" | "loading" }
  | { state: "ready"; boundaries: PolygonSummary }
  | { state: "unavailable"; reason: string };

type TaskName = keyof GeoTasks;
type Lane = "interactive" | "batch";

/** Which lane runs each task. */
const LANES: Record<TaskName, Lane> = {
  warm: "interactive",
  locate: "interactive",
  resolveChunks: "batch",
  completeChunks: "batch",
};
type TaskInput<N extends TaskName> = Parameters<GeoTasks[N]>[0];
type TaskOutput<N extends TaskName> = Awaited<ReturnType<GeoTasks[N]>>;
type RunOptions = { signal?: AbortSignal; clientWaits?: boolean; transfer?: ArrayBuffer[] };

/**
 * V8 heap ceilings per thread, so one task that runs away fails that task with
 * ERR_WORKER_OUT_OF_MEMORY and a fresh thread, not the whole process: Node's default lets each thread
 * grow to a share of the machine's memory. A pool thread holds the polygon indexes in
 * SharedArrayBuffers (outside its heap). An interactive thread places points; a batch thread reads
 * at most one 64 MiB upload with its parsed rows, and its ceiling is a setting of its own
 * (BATCH_THREAD_MAX_HEAP_MB), so what an upload may cost is chosen apart from what lookups need.
 * The young generation is kept small: a task's garbage is short-lived and a scavenge of a few MB is
 * cheap, while Node 24's default young generation (tens of MB per thread, touched and never given
 * back) was most of the server's resident memory after load.
 */
const YOUNG_GENERATION_MB = 4;
const INTERACTIVE_THREAD_LIMITS = { maxOldGenerationSizeMb: 1024, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB };

/** One task file per lane (piscina takes one per pool): the interactive threads never load the job code. */
const TASK_FILES: Record<Lane, URL> = { interactive: threadEntry("geo"), batch: threadEntry("batch-lane") };

export class GeoPool {
  readonly #options: GeoPoolOptions;
  #lanes: Partial<Record<Lane, Promise<Piscina>>> = {};
  #readiness: PoolReadiness;
  #warming: Promise<PoolReadiness> | null = null;
  #shared: Promise<PolygonsData | null> | null = null;

  constructor(options: GeoPoolOptions) {
    this.#options = options;
    this.#readiness = options.polygonFiles.available ? { state: "idle" } : { state: "unavailable", reason: options.polygonFiles.reason };
  }

  get threads(): number {
    return this.#options.threads;
  }

  /**
   * Why address and coordinate lookups cannot be placed in polygons at all, or null when the files
   * were there at start. Asked of the folder each time, so it says the same as /readyz once polygons arrive.
   */
  get missingPolygons(): string | null {
    const files = this.#options.polygonFiles;
    return files.available ? null : missingPolygonsNow(files.dir);
  }

  get readiness(): PoolReadiness {
    return this.#readiness;
  }

  /**
   * Reads or builds the polygon indexes (src/geo/open-polygon-index.ts). On failure, and under Deno, the pool
   * threads load the files themselves, and report a failure as they always have.
   */
  #loadShared(): Promise<PolygonsData | null> {
    const files = this.#options.polygonFiles;
    this.#shared ??=
      !files.available || IN_DENO
        ? Promise.resolve(null)
        : openPolygonIndex(files, this.#options.onError).catch((error: unknown) => {
            this.#options.onError(error);
            return null;
          });
    return this.#shared;
  }

  #pool(lane: Lane): Promise<Piscina> {
    this.#lanes[lane] ??= (async () => {
      const threads = lane === "batch" ? this.#options.batchThreads : this.#options.threads;
      const workerData: GeoWorkerData = {
        polygonFiles: this.#options.polygonFiles,
        shared: await this.#loadShared(),
        ...(lane === "batch" && { batch: this.#options.batch }),
      };
      const pool = new Piscina({
        filename: TASK_FILES[lane].href,
        minThreads: threads,
        maxThreads: threads,
        idleTimeout: Number.POSITIVE_INFINITY,
        resourceLimits:
          lane === "batch" ? { maxOldGenerationSizeMb: this.#options.batchHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } : INTERACTIVE_THREAD_LIMITS,
        workerData,
        ...(lane === "batch" && { taskQueue: new WaitingClientsFirst() }),
      });
      pool.on("error", this.#options.onError);
      // The lane's heaps are the ones V8's helper threads collect most: they give way with it (batch-priority.ts).
      if (lane === "batch") yieldCollectorThreads();
      return pool;
    })();
    return this.#lanes[lane];
  }

  /**
   * `clientWaits`: a client is waiting on this batch-lane task, so it goes before queued job groups;
   * `transfer`: buffers handed to the thread rather than copied (the caller gives them up).
   */
  run<N extends TaskName>(name: N, input: TaskInput<N>, options: RunOptions = {}): Promise<TaskOutput<N>> {
    return this.#run(LANES[name], name, input, options) as Promise<TaskOutput<N>>;
  }

  /**
   * A batch-lane task this room does not define: the job queue's (src/batch/job-tasks.ts, which the
   * task file exports beside these and whose types batch/ holds, runJobTask).
   */
  runInBatchLane(name: string, input: unknown, options: RunOptions = {}): Promise<unknown> {
    return this.#run("batch", name, input, options);
  }

  async #run(lane: Lane, name: string, input: unknown, options: RunOptions): Promise<unknown> {
    const pool = await this.#pool(lane);
    const task = options.clientWaits ? clientWaiting(input as object) : input;
    const timer = poolTaskSeconds.startTimer({ lane });
    const answer = pool.run(task, { name, ...(options.signal && { signal: options.signal }), ...(options.transfer && { transferList: options.transfer }) }) as Promise<unknown>;
    return answer.then(
      (output) => {
        timer();
        return output;
      },
      (error: unknown) => {
        timer();
        // piscina replaces a thread that hit its heap ceiling (resourceLimits above) and fails only the task it ran.
        if ((error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY") poolThreadsOutOfMemory.inc({ lane });
        throw error;
      },
    );
  }

  /** Each started lane's queue, threads and utilization (piscina's share of time its threads were busy), for the metrics. */
  async lanes(): Promise<Array<{ lane: Lane; queued: number; threads: number; utilization: number }>> {
    const started = Object.entries(this.#lanes) as Array<[Lane, Promise<Piscina>]>;
    return Promise.all(
      started.map(async ([lane, pending]) => {
        const pool = await pending;
        return { lane, queued: pool.queueSize, threads: pool.threads.length, utilization: pool.utilization };
      }),
    );
  }

  /**
   * Builds the polygon indexes; resolves with the readiness reached. The threads, which only adopt
   * the indexes, start at the first task. When the indexes could not be built here (Deno, or a
   * build that failed) every thread is started and loads the files itself, reporting any failure.
   */
  warm(): Promise<PoolReadiness> {
    this.#warming ??= (async () => {
      const files = this.#options.polygonFiles;
      if (this.#readiness.state === "unavailable" || !files.available) return this.#readiness;
      this.#readiness = { state: "loading" };
      try {
        const shared = await this.#loadShared();
        const summary = shared
          ? { dir: files.dir, countyVintage: shared.countyVintage, placeVintage: shared.placeVintage }
          : (await Promise.all(Array.from({ length: this.#options.threads }, () => this.run("warm", undefined))))[0]!;
        this.#readiness = { state: "ready", boundaries: summary };
      } catch (error) {
        this.#readiness = { state: "unavailable", reason: (error as Error).message };
      }
      return this.#readiness;
    })();
    return this.#warming;
  }

  async close(): Promise<void> {
    // A warm-up still loading would answer into a destroyed pool.
    await this.#warming;
    const lanes = Object.values(this.#lanes);
    this.#lanes = {};
    await Promise.all(lanes.map(async (pool) => (await pool).destroy()));
  }
}
