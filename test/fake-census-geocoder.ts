/**
 * FAKE UPSTREAM, for tests and benchmarks only: a local HTTP server that speaks the US Census
 * Geocoder's `geographies/onelineaddress` and `geographies/address` JSON in the format the Census
 * Bureau documents (test/fixtures/census/synthetic-answers.ts; result.input, addressMatches[]
 * with matchedAddress, coordinates {x, y}, tigerLine, addressComponents and geographies keyed
 * by layer name; an empty addressMatches for no match; `{"status": "Layer query encountered an
 * error…"}` in place of a layer's features).
 *
 * It also speaks the batch endpoint, `POST geographies/addressbatch` (multipart `addressFile`,
 * `benchmark`, `vintage`; at most 10,000 rows `id,street,city,state,zip`), answering the CSV of
 * the documented batch format: every field quoted, rows in another order than sent
 * (reversed here), `Match` with Exact/Non_Exact, "lon,lat" and state/county/tract/block, else
 * `No_Match` or `Tie`. A street found as it is matches Exact; one found only without its
 * directional ("100 Main St" for "100 S Main St") matches Non_Exact when one address fits (the
 * ZIP or city decides between several), and is a Tie when several do.
 *
 * It knows the Ohio addresses below, each with coordinates chosen inside the right county and
 * place of the TIGER/Line polygons (found by point-in-polygon, a few hundred metres from any
 * boundary). Streets matching `<n> BENCH ST` are answered from the same places in turn, for
 * benchmarks that need many distinct addresses. No test may reach the real geocoder.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "csv-parse/sync";

interface Area {
  geoid: string;
  name: string;
}

export interface FakeAddress {
  street: string;
  city: string;
  zip: string;
  lon: number;
  lat: number;
  county: Area;
  /** The Census Bureau's current incorporated place; null for an unincorporated point. */
  place: Area | null;
  /** Answer the places layer with the error object the real service sometimes returns. */
  placeLayerError?: boolean;
}

const FRANKLIN = { geoid: "39049", name: "Franklin County" };
const DELAWARE = { geoid: "39041", name: "Delaware County" };
const FAIRFIELD = { geoid: "39045", name: "Fairfield County" };
const LICKING = { geoid: "39089", name: "Licking County" };
const UNION = { geoid: "39159", name: "Union County" };
const WOOD = { geoid: "39173", name: "Wood County" };
const COLUMBUS = { geoid: "3918000", name: "Columbus city" };
const WESTERVILLE = { geoid: "3983342", name: "Westerville city" };
const DUBLIN = { geoid: "3922694", name: "Dublin city" };
const REYNOLDSBURG = { geoid: "3966390", name: "Reynoldsburg city" };
const ROSSFORD = { geoid: "3968686", name: "Rossford city" };

/** The addresses the fake upstream can match, by the key tests use to name them. */
export const FAKE_ADDRESSES = {
  statehouse: { street: "1 Capitol Sq", city: "Columbus", zip: "43215", lon: -82.9988, lat: 39.9612, county: FRANKLIN, place: COLUMBUS },
  columbusInDelaware: { street: "100 Polaris Pkwy", city: "Columbus", zip: "43240", lon: -83.01604, lat: 40.14285, county: DELAWARE, place: COLUMBUS },
  westervilleInDelaware: { street: "500 Worthington Rd", city: "Westerville", zip: "43082", lon: -82.94709, lat: 40.14302, county: DELAWARE, place: WESTERVILLE },
  dublinInDelaware: { street: "7000 Sawmill Pkwy", city: "Dublin", zip: "43017", lon: -83.13549, lat: 40.15314, county: DELAWARE, place: DUBLIN },
  delawareCity: { street: "1 N Sandusky St", city: "Delaware", zip: "43015", lon: -83.0921, lat: 40.31855, county: DELAWARE, place: { geoid: "3921434", name: "Delaware city" } },
  /** Unincorporated in the 2019 polygons, but the Census Bureau's current layer says Columbus: an annexation. */
  annexedToColumbus: { street: "9000 Annexed Way", city: "Lewis Center", zip: "43035", lon: -83.04604, lat: 40.14285, county: DELAWARE, place: COLUMBUS },
  columbusInFairfield: { street: "6000 Winchester Pike", city: "Columbus", zip: "43110", lon: -82.80146, lat: 39.91795, county: FAIRFIELD, place: COLUMBUS },
  reynoldsburgInFairfield: { street: "7000 Taylor Rd", city: "Reynoldsburg", zip: "43068", lon: -82.80943, lat: 39.93399, county: FAIRFIELD, place: REYNOLDSBURG },
  carroll: { street: "10 Center St", city: "Carroll", zip: "43112", lon: -82.7071, lat: 39.80181, county: FAIRFIELD, place: { geoid: "3912252", name: "Carroll village" } },
  reynoldsburgInLicking: { street: "8000 E Main St", city: "Reynoldsburg", zip: "43068", lon: -82.76217, lat: 39.95401, county: LICKING, place: REYNOLDSBURG },
  pataskala: { street: "100 S Main St", city: "Pataskala", zip: "43062", lon: -82.7365, lat: 40.03324, county: LICKING, place: { geoid: "3961112", name: "Pataskala city" } },
  dublinInUnion: { street: "8000 Avery Rd", city: "Dublin", zip: "43016", lon: -83.17522, lat: 40.11865, county: UNION, place: DUBLIN },
  marysville: { street: "100 E 5th St", city: "Marysville", zip: "43040", lon: -83.34909, lat: 40.22023, county: UNION, place: { geoid: "3948160", name: "Marysville city" } },
  rossford: { street: "300 Dixie Hwy", city: "Rossford", zip: "43460", lon: -83.57404, lat: 41.6118, county: WOOD, place: ROSSFORD },
  /** Same city, but the places layer errors: our own polygons must decide. */
  rossfordLayerError: { street: "302 Dixie Hwy", city: "Rossford", zip: "43460", lon: -83.58179, lat: 41.56042, county: WOOD, place: ROSSFORD, placeLayerError: true },
  bowlingGreen: { street: "100 N Main St", city: "Bowling Green", zip: "43402", lon: -83.69305, lat: 41.36842, county: WOOD, place: { geoid: "3907972", name: "Bowling Green city" } },
  fortWayne: { street: "1 E Main St", city: "Fort Wayne", zip: "46802", lon: -85.139, lat: 41.079, county: { geoid: "18003", name: "Allen County" }, place: { geoid: "1825000", name: "Fort Wayne city" } },
} satisfies Record<string, FakeAddress>;

export type FakeAddressName = keyof typeof FAKE_ADDRESSES;

/** "100 Polaris Pkwy, Columbus, OH 43240": how a client would write one of the fake's addresses. */
export function oneLine(name: FakeAddressName): string {
  const a: FakeAddress = FAKE_ADDRESSES[name];
  return `${a.street}, ${a.city}, ${a.county.geoid.startsWith("39") ? "OH" : "IN"} ${a.zip}`;
}

/** What the fake does with each request: answer, fail with 500, never answer, or wait for release(). */
export type FakeMode = "normal" | "error" | "hang" | "hold";

/**
 * How a batch request can fail:
 * - `http-500`; `hang` (no answer ever); `disconnect` (the upload read, the connection closed unanswered);
 * - `reset-mid-upload`: a TCP reset after the first part of the upload arrives, the rest unread;
 * - `reset-mid-answer`: the status line, headers (Content-Length of the whole answer) and half the CSV, then a TCP reset;
 * - a 200 whose body is not the batch CSV for the rows sent: `malformed` (an HTML page), `garbage` (bytes
 *   that are not CSV), `truncated` (the CSV cut off in the middle of a row), `extra-row` (one row more, for an id
 *   that was not sent), `missing-row` (the first row left out);
 * - `redirect-bad-port`: a 307 (which keeps the POST and its body) to a port fetch refuses to use.
 */
export type FakeBatchFailure =
  | "http-500"
  | "disconnect"
  | "hang"
  | "malformed"
  | "garbage"
  | "truncated"
  | "extra-row"
  | "missing-row"
  | "reset-mid-upload"
  | "reset-mid-answer"
  | "redirect-bad-port";

export interface FakeBatchRequest {
  /** The uploaded file's rows as the fake read them (empty when the upload could not be read). */
  rows: string[][];
  /** How the fake answered: the batch CSV, a refusal of the request (HTTP 400), or an injected failure. */
  answer: "csv" | "refused" | FakeBatchFailure;
  /** The connection closed before the fake finished answering: the client gave up on the request (or an injected failure cut it). */
  abandoned: boolean;
}

export interface FakeCensusGeocoder {
  url: string;
  /** Requests received, by path and query. */
  requests: URL[];
  /** Batch requests received, in order, failed ones included. */
  batchRequests: FakeBatchRequest[];
  /** Batch requests whose connection is open and unanswered now (held ones included), and the most there ever were at once. */
  readonly batchesInFlight: number;
  readonly peakBatchesInFlight: number;
  /** The next `count` batch requests fail as `how` says; later ones are answered again. */
  failBatches(count: number, how?: FakeBatchFailure): void;
  setMode(mode: FakeMode): void;
  /** Lets held requests through, in normal mode from now on. */
  release(): void;
  close(): Promise<void>;
}

const BENCHMARK = { id: "4", benchmarkName: "Public_AR_Current", benchmarkDescription: "Public Address Ranges - Current Benchmark", isDefault: false };
const VINTAGE = { id: "4", vintageName: "Current_Current", vintageDescription: "Current Vintage - Current Benchmark", isDefault: true };
const LAYER_ERROR = [{ status: "Layer query encountered an error: java.lang.RuntimeException: Failed to return" }];

const normalise = (text: string) => text.toUpperCase().replace(/[.,]/g, " ").replace(/\s+/g, " ").trim();
const BOOK = new Map(Object.values(FAKE_ADDRESSES).map((a: FakeAddress) => [normalise(a.street), a]));
const BENCH_PLACES = Object.values(FAKE_ADDRESSES).filter((a: FakeAddress) => a.county.geoid.startsWith("39") && !a.placeLayerError);

/** Where the fake places `<n> Bench St`, for tests that check each row got its own address's answer. */
export const benchPlace = (n: number): FakeAddress => BENCH_PLACES[n % BENCH_PLACES.length]!;
const BENCH_STREET = /^(\d+) BENCH ST$/;

function countyFeature(area: Area, a: FakeAddress) {
  return {
    OID: 27590331264532, STATE: area.geoid.slice(0, 2), FUNCSTAT: "A", AREAWATER: 0, NAME: area.name, LSADC: "06",
    CENTLON: String(a.lon), BASENAME: area.name.replace(/ County$/, ""), INTPTLAT: String(a.lat), COUNTYCC: "H1", MTFCC: "G4020",
    COUNTY: area.geoid.slice(2), GEOID: area.geoid, CENTLAT: String(a.lat), INTPTLON: String(a.lon), AREALAND: 1, COUNTYNS: "01074033", OBJECTID: 1,
  };
}

function placeFeature(area: Area, a: FakeAddress) {
  return {
    OID: 28090331264532, STATE: area.geoid.slice(0, 2), PLACE: area.geoid.slice(2), FUNCSTAT: "A", AREAWATER: 0, NAME: area.name, LSADC: "25",
    CENTLON: String(a.lon), BASENAME: area.name.replace(/ (city|village)$/, ""), INTPTLAT: String(a.lat), PLACECC: "C1", MTFCC: "G4110",
    GEOID: area.geoid, CENTLAT: String(a.lat), INTPTLON: String(a.lon), AREALAND: 1, PLACENS: "01086101", OBJECTID: 1,
  };
}

function match(a: FakeAddress, street: string) {
  const state = a.county.geoid.startsWith("39") ? "OH" : "IN";
  return {
    tigerLine: { tigerLineId: "76225813", side: "L" },
    geographies: {
      Counties: [countyFeature(a.county, a)],
      "Incorporated Places": a.placeLayerError ? LAYER_ERROR : a.place ? [placeFeature(a.place, a)] : [],
    },
    matchedAddress: `${normalise(street)}, ${a.city.toUpperCase()}, ${state}, ${a.zip}`,
    coordinates: { x: a.lon, y: a.lat },
    addressComponents: {
      zip: a.zip, city: a.city.toUpperCase(), state, preDirection: "", preType: "", streetName: normalise(street).replace(/^\d+ /, ""),
      suffixType: "", suffixDirection: "", suffixQualifier: "", fromAddress: "1", toAddress: "99", preQualifier: "",
    },
  };
}

function lookUp(street: string): FakeAddress | undefined {
  const key = normalise(street);
  const bench = BENCH_STREET.exec(key);
  if (bench) return benchPlace(Number(bench[1]));
  return BOOK.get(key);
}

const withoutDirectional = (street: string) => normalise(street).replace(/^(\d+) (?:[NSEW]|NORTH|SOUTH|EAST|WEST) /, "$1 ");
const stateOf = (a: FakeAddress) => (a.county.geoid.startsWith("39") ? "OH" : "IN");

type BatchAnswer = { kind: "Match"; exact: boolean; address: FakeAddress; street: string } | { kind: "No_Match" | "Tie" };

function lookUpBatchRow(street: string, city: string, zip: string): BatchAnswer {
  const exact = lookUp(street);
  if (exact) return { kind: "Match", exact: true, address: exact, street };
  const key = withoutDirectional(street);
  let candidates = Object.values(FAKE_ADDRESSES).filter((a: FakeAddress) => withoutDirectional(a.street) === key);
  if (zip) candidates = candidates.filter((a: FakeAddress) => a.zip === zip.slice(0, 5));
  else if (city) candidates = candidates.filter((a: FakeAddress) => a.city.toUpperCase() === normalise(city));
  const [only, ...others] = candidates;
  if (!only) return { kind: "No_Match" };
  return others.length > 0 ? { kind: "Tie" } : { kind: "Match", exact: false, address: only, street: only.street };
}

const quoted = (fields: string[]) => fields.map((field) => `"${field.replaceAll('"', '""')}"`).join(",");

/** One answer row, as the real service writes it (every field quoted, the input echoed as "street, city, state, zip"). */
function batchRow([id = "", street = "", city = "", state = "", zip = ""]: string[]): string {
  const input = `${street}, ${city}, ${state}, ${zip}`;
  const found = lookUpBatchRow(street, city, zip);
  if (found.kind !== "Match") return quoted([id, input, found.kind]);
  const a = found.address;
  const matched = `${normalise(found.street)}, ${a.city.toUpperCase()}, ${stateOf(a)}, ${a.zip}`;
  return quoted([id, input, "Match", found.exact ? "Exact" : "Non_Exact", matched, `${a.lon},${a.lat}`, "76225813", "L", a.county.geoid.slice(0, 2), a.county.geoid.slice(2), "000100", "1000"]);
}

const BATCH_LIMIT = 10_000;
const CENSUS_BATCH_PATH = "/geocoder/geographies/addressbatch";
const CSV_HEADERS = { "content-type": "text/plain", "content-disposition": "attachment; filename=GeocodeResults.csv" };
/** Port 10080 (Amanda backup) is on fetch's list of bad ports: fetch fails any request to it without connecting. */
const FETCH_BAD_PORT = 10080;
/** The first half of an answer, cut wherever that falls (inside a quoted field, as often as not). */
const halfOf = (text: string) => text.slice(0, Math.max(1, Math.floor(text.length / 2)));

/** Reads the multipart upload and answers it; `record` is the log entry tests see. */
async function answerBatch(req: IncomingMessage, res: ServerResponse, record: FakeBatchRequest, failure: FakeBatchFailure | undefined): Promise<void> {
  const refuse = (why: string) => {
    record.answer = "refused";
    res.writeHead(400, { "content-type": "text/plain" }).end(why);
  };
  if (failure === "reset-mid-upload") {
    record.answer = failure;
    // The first chunk holds the head and the start of the body; resetting now leaves the rest of the upload unsent.
    req.once("data", () => req.socket.resetAndDestroy());
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = await new Request("http://fake.census.test/", { method: "POST", headers: { "content-type": req.headers["content-type"] ?? "" }, body: Buffer.concat(chunks) })
    .formData()
    .catch(() => null);
  const file = form?.get("addressFile");
  if (!form || !(file instanceof Blob)) return refuse("addressFile is required");
  const missing = ["benchmark", "vintage"].filter((name) => !form.get(name));
  if (missing.length > 0) return refuse(`${missing.join(" and ")} required`);
  let rows: string[][];
  try {
    rows = parse(await file.text(), { skip_empty_lines: true });
  } catch {
    return refuse("the address file is not CSV");
  }
  record.rows = rows;
  if (rows.length > BATCH_LIMIT) return refuse(`there is an upper limit of ${BATCH_LIMIT} records per batch file`);
  if (rows.some((row) => row.length !== 5)) return refuse("each record must be: Unique ID, Street address, City, State, ZIP");
  const csv = (answerRows: string[]) => answerRows.join("\n") + "\n";
  const answered = rows.map(batchRow).reverse();
  if (failure) {
    record.answer = failure;
    if (failure === "hang") return;
    if (failure === "disconnect") req.socket.destroy();
    else if (failure === "http-500") res.writeHead(500, { "content-type": "text/html" }).end("<html><body>Internal Server Error</body></html>");
    else if (failure === "malformed") res.writeHead(200, { "content-type": "text/html" }).end("<html><body><h1>An error has occurred</h1>\n<p>Please try again later.</p></body></html>");
    else if (failure === "garbage") res.writeHead(200, CSV_HEADERS).end(Buffer.from([0x22, 0xff, 0xfe, 0x00, 0x2c, 0x22, 0x0a, 0x22, 0x89, 0x50, 0x4e, 0x47]));
    else if (failure === "truncated") res.writeHead(200, CSV_HEADERS).end(halfOf(csv(answered)));
    else if (failure === "extra-row") res.writeHead(200, CSV_HEADERS).end(csv([...answered, quoted([String(rows.length + 1000), "1 Elsewhere Rd, Nowhere, OH, 43000", "No_Match"])]));
    else if (failure === "missing-row") res.writeHead(200, CSV_HEADERS).end(csv(answered.slice(1)));
    else if (failure === "reset-mid-answer") {
      const whole = csv(answered);
      res.writeHead(200, { ...CSV_HEADERS, "content-length": String(Buffer.byteLength(whole)) });
      res.write(halfOf(whole), () => req.socket.resetAndDestroy());
    } else res.writeHead(307, { location: `http://127.0.0.1:${FETCH_BAD_PORT}${CENSUS_BATCH_PATH}` }).end();
    return;
  }
  res.writeHead(200, CSV_HEADERS);
  res.end(csv(answered));
}

function answer(url: URL): { status: number; body: unknown } {
  const q = url.searchParams;
  const missing = ["benchmark", "vintage"].filter((name) => !q.get(name));
  if (missing.length > 0 || q.get("format") !== "json") {
    return { status: 400, body: { errors: missing.map((name) => `${name} is required`).concat(q.get("format") === "json" ? [] : ["format must be json"]), status: "400" } };
  }
  let street: string;
  let input: Record<string, string>;
  if (url.pathname === "/geocoder/geographies/onelineaddress") {
    const address = q.get("address") ?? "";
    street = address.split(",")[0] ?? "";
    input = { address };
  } else if (url.pathname === "/geocoder/geographies/address") {
    street = q.get("street") ?? "";
    input = Object.fromEntries(["street", "city", "state", "zip"].filter((k) => q.has(k)).map((k) => [k, q.get(k)!]));
  } else {
    return { status: 404, body: { errors: ["unknown path"], status: "404" } };
  }
  const found = lookUp(street);
  return { status: 200, body: { result: { input: { address: input, benchmark: BENCHMARK, vintage: VINTAGE }, addressMatches: found ? [match(found, street)] : [] } } };
}

export async function startFakeCensusGeocoder(): Promise<FakeCensusGeocoder> {
  let mode: FakeMode = "normal";
  const held: Array<() => void> = [];
  const requests: URL[] = [];
  const batchRequests: FakeBatchRequest[] = [];
  const failures: FakeBatchFailure[] = [];
  let batchesInFlight = 0;
  let peakBatchesInFlight = 0;
  const reply = (req: IncomingMessage, res: ServerResponse, record: FakeBatchRequest | null) => {
    const url = new URL(req.url ?? "/", "http://fake.census.test");
    if (mode === "error") {
      if (record) record.answer = "http-500";
      res.writeHead(500, { "content-type": "text/html" }).end("<html><body>Internal Server Error</body></html>");
      return;
    }
    if (record) {
      answerBatch(req, res, record, failures.shift()).catch(() => res.destroy());
      return;
    }
    const { status, body } = answer(url);
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake.census.test");
    requests.push(url);
    let record: FakeBatchRequest | null = null;
    if (req.method === "POST" && url.pathname === CENSUS_BATCH_PATH) {
      const batch: FakeBatchRequest = { rows: [], answer: "csv", abandoned: false };
      record = batch;
      batchRequests.push(batch);
      batchesInFlight++;
      peakBatchesInFlight = Math.max(peakBatchesInFlight, batchesInFlight);
      res.once("close", () => {
        batchesInFlight--;
        if (!res.writableFinished) batch.abandoned = true;
      });
    }
    if (mode === "hang") return;
    if (mode === "hold") {
      held.push(() => reply(req, res, record));
      return;
    }
    reply(req, res, record);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    batchRequests,
    get batchesInFlight() {
      return batchesInFlight;
    },
    get peakBatchesInFlight() {
      return peakBatchesInFlight;
    },
    failBatches: (count, how = "http-500") => {
      failures.push(...Array<FakeBatchFailure>(count).fill(how));
    },
    setMode: (next) => {
      mode = next;
    },
    release: () => {
      mode = "normal";
      for (const go of held.splice(0)) go();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
