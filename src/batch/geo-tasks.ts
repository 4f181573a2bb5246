/**
 * The tasks the geo worker threads run (workers/geo.ts only wires them up). Each thread loads
 * the shipped rate tables and the boundary polygons once, at its first task, and keeps them;
 * every task carries the periods reconciliation has recorded, and the thread rebuilds its table
 * when their version changes, so its answers match the API's.
 */
import { parseAddress, type ParsedAddress } from "../geo/address.ts";
import type { BoundaryFiles } from "../geo/boundary-files.ts";
import { adoptBoundaries, boundariesData, loadBoundaries, type Boundaries, type BoundariesData } from "../geo/boundaries.ts";
import type { GeocodeOutcome } from "../geo/geocoder.ts";
import { loadShippedData } from "../load-data.ts";
import type { IsoDate } from "../rates/calendar.ts";
import { mergeTable, type RatesOverlay } from "../rates/overlay-periods.ts";
import type { RecordContext } from "../rates/records.ts";
import { failure, type ItemResult } from "./item-result.ts";
import { readLookupItem, type LookupItem } from "./lookup-item.ts";
import { readBatchFile, readLookupsBody, type BatchFileReading, type BatchFormat } from "./read-batch-file.ts";
import { dateProblem, resolveCoordinates, resolveGeocoded, resolveWithoutGeography, type ResolverData } from "./resolve-item.ts";

export interface GeoWorkerData {
  dataDir: string;
  boundaryFiles: BoundaryFiles;
  /** Boundaries another thread already built (see GeoPool): adopted, not loaded again. */
  shared?: BoundariesData | null;
}

/** An item that is answered, or waits for its address to be geocoded on the main thread; with the caller's id. */
export type Prepared = { id: string | null } & ({ kind: "done"; result: ItemResult } | { kind: "geocode"; item: LookupItem; address: ParsedAddress });

export interface PrepareInput {
  /** The lookups, or a batch chunk as stored: a JSON array, parsed here rather than on the main thread. */
  items: unknown[] | string;
  today: IsoDate;
  context: RecordContext;
  overlay: RatesOverlay;
}

export interface SettleInput {
  entries: Array<{ item: LookupItem; address: ParsedAddress; outcome: GeocodeOutcome }>;
  context: RecordContext;
  overlay: RatesOverlay;
}

export interface BoundarySummary {
  dir: string;
  countyVintage: number;
  placeVintage: number;
}

/** The id of a row that failed validation, when it has a usable one, so the caller can still match it. */
function rawId(raw: unknown): string | null {
  const id = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)["id"] : undefined;
  return typeof id === "string" && id.length <= 100 ? id : typeof id === "number" ? String(id) : null;
}

export function createGeoTasks(workerData: GeoWorkerData) {
  const shipped = loadShippedData(workerData.dataDir);
  const data: ResolverData = { table: shipped.table, zips: shipped.zips };
  let overlayVersion = "shipped";

  function useOverlay(overlay: RatesOverlay): void {
    if (overlay.version === overlayVersion) return;
    data.table = mergeTable(shipped.table, overlay.periods);
    overlayVersion = overlay.version;
  }
  const files = workerData.boundaryFiles;
  let boundaries: Promise<Boundaries> | null = workerData.shared ? Promise.resolve(adoptBoundaries(workerData.shared)) : null;

  /** The polygons, loaded at first need; a load failure is reported, and retried on the next call. */
  async function getBoundaries(): Promise<Boundaries | string> {
    if (!files.available) return files.reason;
    boundaries ??= loadBoundaries(files);
    try {
      return await boundaries;
    } catch (error) {
      boundaries = null;
      return `boundary files in ${files.dir} could not be loaded: ${(error as Error).message}`;
    }
  }

  function unavailable(reason: string): ItemResult {
    return failure("boundaries-unavailable", `Address and coordinate lookups need the county and place boundaries, which are not loaded: ${reason}. County and ZIP lookups still work.`, null);
  }

  async function prepareOne(raw: unknown, input: PrepareInput): Promise<Prepared> {
    const item = readLookupItem(raw, input.today);
    if ("kind" in item) return { id: rawId(raw), kind: "done", result: item };
    const id = item.id;
    const early = dateProblem(data, item);
    if (early) return { id, kind: "done", result: early };
    if (item.address === undefined && item.lat === undefined) return { id, kind: "done", result: resolveWithoutGeography(data, item, input.context) };
    const loaded = await getBoundaries();
    if (typeof loaded === "string") return { id, kind: "done", result: unavailable(loaded) };
    if (item.address !== undefined) return { id, kind: "geocode", item, address: parseAddress(item.address) };
    return { id, kind: "done", result: resolveCoordinates(data, loaded, item as LookupItem & { lat: number; lon: number }, input.context) };
  }

  return {
    async warm(): Promise<BoundarySummary> {
      const loaded = await getBoundaries();
      if (typeof loaded === "string") throw new Error(loaded);
      return { dir: files.dir, countyVintage: loaded.countyVintage, placeVintage: loaded.placeVintage };
    },

    /** Loads the polygons from their files and hands them over as shared arrays. */
    async loadShared(): Promise<BoundariesData> {
      if (!files.available) throw new Error(files.reason);
      return boundariesData(await loadBoundaries(files));
    },

    async prepare(input: PrepareInput): Promise<Prepared[]> {
      useOverlay(input.overlay);
      const items = typeof input.items === "string" ? (JSON.parse(input.items) as unknown[]) : input.items;
      const out: Prepared[] = [];
      for (const raw of items) out.push(await prepareOne(raw, input));
      return out;
    },

    /** The body of POST /rates/batch, parsed and prepared in one trip to the pool. */
    async prepareLookupsBody(input: { text: string; maxItems: number; today: IsoDate; context: RecordContext; overlay: RatesOverlay }): Promise<Prepared[] | { slug: "bad-request" | "batch-too-large"; detail: string }> {
      useOverlay(input.overlay);
      const body = readLookupsBody(input.text, input.maxItems);
      if (!body.ok) return { slug: body.slug, detail: body.detail };
      const out: Prepared[] = [];
      for (const raw of body.items) out.push(await prepareOne(raw, { ...input, items: body.items }));
      return out;
    },

    async settle(input: SettleInput): Promise<ItemResult[]> {
      useOverlay(input.overlay);
      const loaded = await getBoundaries();
      return input.entries.map(({ item, address, outcome }) =>
        typeof loaded === "string" ? unavailable(loaded) : resolveGeocoded(data, loaded, item, address, outcome, input.context),
      );
    },

    readBatchFile(input: { text: string; format: BatchFormat; maxRows: number; chunkRows: number }): BatchFileReading {
      return readBatchFile(input.text, input.format, input.maxRows, input.chunkRows);
    },
  };
}

export type GeoTasks = ReturnType<typeof createGeoTasks>;
