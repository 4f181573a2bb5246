import { createRequire } from "node:module";
import { compareText } from "./compare-text.ts";

/** A USPS ZIP code with the representative coordinates the zipcodes package gives it. */
export interface UspsZip {
  readonly zip: string;
  readonly lat: number;
  readonly lon: number;
}

const require = createRequire(import.meta.url);

/** The zipcodes package (BSD licence) ships no type declarations, so its data is checked here. */
export function ohioUspsZips(): { readonly version: string; readonly zips: UspsZip[] } {
  const { version } = require("zipcodes/package.json") as { version: string };
  const { codes } = require("zipcodes") as { codes: Record<string, unknown> };
  const zips: UspsZip[] = [];
  for (const entry of Object.values(codes)) {
    const { zip, state, latitude, longitude } = entry as Record<string, unknown>;
    if (state !== "OH") continue;
    if (typeof zip !== "string" || !/^\d{5}$/.test(zip) || typeof latitude !== "number" || typeof longitude !== "number") {
      throw new Error(`zipcodes: unexpected Ohio entry ${JSON.stringify(entry)}`);
    }
    zips.push({ zip, lat: latitude, lon: longitude });
  }
  return { version, zips: zips.sort((a, b) => compareText(a.zip, b.zip)) };
}
