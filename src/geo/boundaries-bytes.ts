/**
 * Built boundary indexes as bytes in a file, and back: how a process that parsed the polygon files
 * hands the result to the server (src/lookup/build-boundaries.ts). The layout is private to one version
 * of Buckeye talking to itself: a 4-byte length, a JSON header (vintages, feature values, each
 * array's byte length), then each array's bytes in ARRAYS order, counties' then places'.
 */
import { closeSync, openSync, readSync } from "node:fs";
import type { BoundariesData } from "./boundaries.ts";
import type { CountyHit, PlaceHit } from "./boundary-layers.ts";
import type { PolygonIndexData } from "./polygon-index.ts";

type ArrayName = Exclude<keyof PolygonIndexData<unknown>, "values">;

/** The order the arrays go in; `readBoundaries` reads them back in the same order. */
const ARRAYS: readonly ArrayName[] = ["tree", "partFeature", "partRingStart", "ringBox", "ringRunStart", "runFrom", "runTo", "runBox", "xy"];

interface Header {
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

export function encodeBoundaries(data: BoundariesData): Uint8Array[] {
  const arrays = LAYERS.flatMap((layer) => ARRAYS.map((name) => bytesOf(data[layer], name)));
  const header: Header = {
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
 * Reads boundary index bytes from a file straight into SharedArrayBuffers, one per array, so the
 * pool threads share one copy and no other copy is ever made.
 */
export function readBoundaries(path: string): BoundariesData {
  const fd = openSync(path, "r");
  try {
    let position = 0;
    const read = (into: Uint8Array) => {
      for (let done = 0; done < into.byteLength; ) {
        const count = readSync(fd, into, done, into.byteLength - done, position);
        if (count === 0) throw new Error("boundary index bytes end early");
        done += count;
        position += count;
      }
      return into;
    };
    const headerLength = Buffer.from(read(new Uint8Array(4)).buffer).readUInt32LE(0);
    const header = JSON.parse(Buffer.from(read(new Uint8Array(headerLength)).buffer).toString("utf8")) as Header;
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
    if (readSync(fd, new Uint8Array(1), 0, 1, position) !== 0) throw new Error("boundary index bytes have trailing data");
    return { countyVintage: header.countyVintage, placeVintage: header.placeVintage, counties, places };
  } finally {
    closeSync(fd);
  }
}
