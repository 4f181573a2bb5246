/**
 * Piscina task file for the geo pool (src/geo/pool.ts). Thin on purpose: the tasks live in
 * src/batch/geo-tasks.ts; this thread's copy of the rate tables and polygons is made once.
 */
import { workerData } from "piscina";
import { createGeoTasks, type GeoWorkerData } from "../src/batch/geo-tasks.ts";

const tasks = createGeoTasks(workerData as GeoWorkerData);

export const warm = tasks.warm;
export const loadShared = tasks.loadShared;
export const prepare = tasks.prepare;
export const prepareLookupsBody = tasks.prepareLookupsBody;
export const settle = tasks.settle;
export const readBatchFile = tasks.readBatchFile;
