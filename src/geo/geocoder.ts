/**
 * The one narrow interface every geocoder provider implements. Outcomes are plain data (they
 * cross into worker threads); an outage is an outcome, not an exception, so a batch of 10,000
 * addresses never fails as a whole because the upstream blinked.
 */
import type { ParsedAddress } from "./address.ts";

/** A county or incorporated place as the geocoder's own boundary layer reports it. */
export interface GeocodedArea {
  geoid: string;
  name: string;
}

export type GeocodeOutcome =
  | {
      kind: "match";
      lon: number;
      lat: number;
      matchedAddress: string;
      /** undefined: the layer was not returned or reported an error; null: returned, and empty. */
      county: GeocodedArea | null | undefined;
      place: GeocodedArea | null | undefined;
    }
  | { kind: "no-match" }
  | { kind: "unavailable"; reason: string; retryAfterSeconds: number };

export interface Geocoder {
  geocode(address: ParsedAddress, signal?: AbortSignal): Promise<GeocodeOutcome>;
}

/**
 * The `unavailable` outcome as an error, for calls that answer many addresses at once (the Census
 * batch endpoint): one outage there fails a whole request, so it is thrown rather than repeated in
 * every row. Same facts as the outcome, so callers answer it the same way (503 geocoder-unavailable).
 */
export class GeocoderUnavailableError extends Error {
  override readonly name = "GeocoderUnavailableError";

  constructor(
    readonly reason: string,
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(`the geocoder is unavailable: ${reason}`, options);
  }
}
