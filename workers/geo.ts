/**
 * Piscina task file of the lookup pool's interactive lane (src/lookup/worker-pool.ts): placing the
 * points of single address and coordinate lookups in the county and place polygons (the tasks live in
 * src/lookup/worker-tasks.ts). The batch lane has its own file, workers/batch-lane.ts. Thin on purpose:
 * this thread's copy of the polygons is made once.
 */
import { workerData } from "piscina";
import { createGeoTasks, type GeoWorkerData } from "../src/lookup/worker-tasks.ts";

const tasks = createGeoTasks(workerData as GeoWorkerData);

export const warm = tasks.warm;
export const locate = tasks.locate;
