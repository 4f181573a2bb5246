/**
 * Built polygon indexes as bytes in a file, and back: the polygon index file that `buckeye data
 * fetch-geo` writes beside the polygons (polygon-index-file.ts), and how a process that parsed the
 * polygon files hands the result to the server (src/geo/open-polygon-index.ts). Layout: a 4-byte
 * length, a JSON header (the layout's version, the source files it was built from, vintages, feature
 * values, each array's byte length), then each array's bytes in ARRAYS order, counties' then places'.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { PolygonsData } from "./polygons.ts";
import type { CountyHit, PlaceHit } from "./polygon-layers.ts";
import type { PolygonIndexData } from "./polygon-index.ts";

type ArrayName = Exclude<keyof PolygonIndexData<unknown>, "values">;

/** The order the arrays go in; `readPolygons` reads them back in the same order. */
const ARRAYS: readonly ArrayName[] = ["tree", "partFeature", "partRingStart", "ringBox", "ringRunStart", "runFrom", "runTo", "runBox", "xy"];

/** Changes whenever the layout does, so a file written by another version of Buckeye is rebuilt, never misread. */
export const LAYOUT = "buckeye polygon index 1";

interface Header {
  layout: string;
  /** What the index was built from (polygon-index-file.ts `sourcesKey`), so a reader can tell a stale file. */
  sources: string;
  countyVintage: number;
  placeVintage: number;
  values: { counties: readonly CountyHit[]; places: readonly PlaceHit[] };
  /** Byte length of each array, counties' then places', in ARRAYS order. */
  lengths: number[];
}

const LAYERS = ["counties", "places"] as const;

function bytesOf(layer: PolygonIndexData<unknown>, name: ArrayName): Uint8Array {
  const array = layer[name];
  return array instanceof Uint32Array || array instanceof Float64Array
    ? new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
    : new Uint8Array(array as ArrayBufferLike);
}

export function encodePolygons(data: PolygonsData, sources: string): Uint8Array[] {
  const arrays = LAYERS.flatMap((layer) => ARRAYS.map((name) => bytesOf(data[layer], name)));
  const header: Header = {
    layout: LAYOUT,
    sources,
    countyVintage: data.countyVintage,
    placeVintage: data.placeVintage,
    values: { counties: data.counties.values, places: data.places.values },
    lengths: arrays.map((bytes) => bytes.byteLength),
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.byteLength);
  return [length, json, ...arrays];
}

/**
 * Reads polygon index bytes from a file straight into SharedArrayBuffers, one per array, so the
 * pool threads share one copy and no other copy is ever made.
 */
export function readPolygons(path: string): PolygonsData {
  const fd = openSync(path, "r");
  try {
    const { header, read, end } = readHeader(fd);
    if (header.layout !== LAYOUT) throw new Error(`polygon index bytes are of another layout (${String(header.layout)})`);
    let index = 0;
    const next = (): SharedArrayBuffer => {
      const shared = new SharedArrayBuffer(header.lengths[index++]!);
      read(new Uint8Array(shared));
      return shared;
    };
    // In ARRAYS order.
    const layer = <T>(values: readonly T[]): PolygonIndexData<T> => ({
      values,
      tree: next(),
      partFeature: new Uint32Array(next()),
      partRingStart: new Uint32Array(next()),
      ringBox: new Float64Array(next()),
      ringRunStart: new Uint32Array(next()),
      runFrom: new Uint32Array(next()),
      runTo: new Uint32Array(next()),
      runBox: new Float64Array(next()),
      xy: new Float64Array(next()),
    });
    const counties = layer(header.values.counties);
    const places = layer(header.values.places);
    if (readSync(fd, new Uint8Array(1), 0, 1, end()) !== 0) throw new Error("polygon index bytes have trailing data");
    return { countyVintage: header.countyVintage, placeVintage: header.placeVintage, counties, places };
  } finally {
    closeSync(fd);
  }
}

/** The layout and the sources an index file was built from, read from its header alone; null when it cannot be read. */
export function readIndexOrigin(path: string): { layout: string; sources: string } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const { header } = readHeader(fd);
    return { layout: String(header.layout), sources: String(header.sources) };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Reads the length and the JSON header; `read` goes on from there, `end` says how far it has read. */
function readHeader(fd: number) {
  let position = 0;
  const read = (into: Uint8Array) => {
    for (let done = 0; done < into.byteLength; ) {
      const count = readSync(fd, into, done, into.byteLength - done, position);
      if (count === 0) throw new Error("polygon index bytes end early");
      done += count;
      position += count;
    }
    return into;
  };
  const headerLength = Buffer.from(read(new Uint8Array(4)).buffer).readUInt32LE(0);
  const header = JSON.parse(Buffer.from(read(new Uint8Array(headerLength)).buffer).toString("utf8")) as Header;
  return { header, read, end: () => position };
}
