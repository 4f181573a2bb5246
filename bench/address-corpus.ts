/**
 * Match rate on addresses nobody here wrote (`node --import tsx bench/address-corpus.ts`; `npm run
 * bench` runs it too). Writes bench/results-address-corpus.json. Sources, their licences and what
 * is read from them: bench/README.md. The addresses are read from a local snapshot of the source
 * repository (BENCH_ADDRESS_CORPUS_DIR, a git directory; `fetch` it first), never copied into ours.
 *
 * Each labelled address (house number and street, no intersection) is re-homed to an Ohio ZIP of
 * data/zip-counties.csv: its state becomes OH and its ZIP the Ohio one (a +4 is kept); its city
 * stays as typed, and is the city the file gives that ZIP. From its labels a SYNTHETIC boundary
 * file is written in USPS Pub 28 standard form (directionals and suffix abbreviated): the block of
 * 100 holding its number, on its side of the street, and as traps the other side (another
 * record), the same name with another suffix, with another directional, and in another ZIP's
 * county. An address that names neither a ZIP nor a city is sent with the ZIP as the lookup's zip
 * field, as a batch's zip column carries it.
 *
 * Negatives, every tenth address, must answer nothing: the number outside every range, the street
 * asked in a ZIP that does not hold it, a suffix and a directional the file does not hold.
 *
 * Reported, per set, before (street-address.ts split, then the probe with its directional
 * variants) and after (address-match.ts against the file's streets, then the probe): the share of
 * addresses answered from the file by their own record (goal 98.5 %), answered wrongly (goal 0),
 * negatives matched (goal 0), the misses by reason, and the cost per row of reading the line and
 * of the whole file step.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import type { BoundaryQuery } from "../src/boundaries/boundary-index.interface.ts";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { standardDirectional, standardSuffix, streetKey } from "../src/boundaries/pub28.ts";
import { formatBoundaryRow, type BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { SYNTHETIC_CITY_MARK } from "../src/boundaries/synthetic-file.ts";
import { matchAddress } from "../src/lookup/address-match.ts";
import { askBoundaryFile, probeQuery } from "../src/lookup/ladder.ts";
import { readLookupItem, type LookupItem } from "../src/lookup/lookup-item.ts";
import { addressParts } from "../src/lookup/street-address.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { root } from "./start-process.ts";

const DATE = "2026-06-01";
const CORPUS_DIR = process.env.BENCH_ADDRESS_CORPUS_DIR ?? "/work/.mirror/datamade+usaddress/repo";
const TARGET_ANSWERED = 0.985;
/** The two sets: the first, usaddress's own labelled training addresses; the second, its held-out test files from other sources. */
const SETS: Record<string, string[]> = {
  "usaddress training/labeled.xml": ["training/labeled.xml"],
  "usaddress measure_performance (labeled.xml, us50_test_tagged.xml)": ["measure_performance/test_data/labeled.xml", "measure_performance/test_data/us50_test_tagged.xml"],
};

interface Labelled {
  text: string;
  label: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!).replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

function readCorpus(path: string): Labelled[][] {
  const xml = execFileSync("git", ["--git-dir", join(CORPUS_DIR, existsSync(join(CORPUS_DIR, ".git")) ? ".git" : ""), "show", `HEAD:${path}`], { encoding: "utf8", maxBuffer: 64 << 20 });
  return [...xml.matchAll(/<AddressString>(.*?)<\/AddressString>/g)].map(([, inner]) =>
    [...inner!.matchAll(/<([A-Za-z]+)>(.*?)<\/\1>/g)].map(([, label, text]) => ({ label: label!, text: unescape(text!) })),
  );
}

const bare = (text: string) => text.toUpperCase().replace(/[^A-Z0-9#/\- ]+/g, " ").trim().replace(/\s+/g, " ");

interface Address {
  tokens: Labelled[];
  house: number;
  pre: string;
  name: string;
  suffix: string;
  post: string;
  city: string;
}

/** A street address as the labels give it, or null for what the file cannot hold (no number, an intersection, a box). */
function streetOf(tokens: Labelled[]): Address | null {
  if (tokens[0]?.label !== "AddressNumber" || !/^\d{1,6}[A-Za-z]?,?$/.test(tokens[0].text)) return null;
  if (tokens.some((t) => ["IntersectionSeparator", "CornerOf", "USPSBoxType", "USPSBoxID"].includes(t.label))) return null;
  if (tokens.filter((t) => t.label === "AddressNumber").length !== 1) return null;
  const of = (...labels: string[]) => bare(tokens.filter((t) => labels.includes(t.label)).map((t) => t.text).join(" "));
  // The street's words in the order written; the last is its suffix when it is labelled one ("Al Highway 157" has none).
  const parts = tokens.filter((t) => ["StreetNamePreModifier", "StreetNamePreType", "StreetName", "StreetNamePostType", "StreetNamePostModifier"].includes(t.label));
  if (!parts.some((t) => t.label === "StreetName")) return null;
  const last = parts[parts.length - 1]!.label === "StreetNamePostType" && parts.length > 1 ? bare(parts.pop()!.text) : "";
  const name = bare(parts.map((t) => t.text).join(" "));
  if (name === "") return null;
  // A directional is placed where it was written: one labelled a pre-directional but written after the street's name
  // ("plantation centre dr. s.") is a post-directional in Pub 28 form.
  const firstName = tokens.findIndex((t) => t.label === "StreetName");
  const directionals = (after: boolean) =>
    bare(tokens.filter((t, at) => (t.label === "StreetNamePreDirectional" || t.label === "StreetNamePostDirectional") && at > firstName === after).map((t) => t.text).join(" "));
  const pre = directionals(false);
  const post = directionals(true);
  return {
    tokens,
    house: Number(/^\d+/.exec(tokens[0].text)![0]),
    pre: standardDirectional(pre) ?? pre,
    name,
    suffix: last === "" ? "" : (standardSuffix(last) ?? last),
    post: standardDirectional(post) ?? post,
    city: of("PlaceName"),
  };
}

interface Zip {
  zip: string;
  counties: string[];
}

function ohioZips(): Zip[] {
  const byZip = new Map<string, string[]>();
  for (const line of readFileSync(join(root, "data/zip-counties.csv"), "utf8").trim().split(/\r?\n/).slice(1)) {
    const [zip, fips] = line.split(",") as [string, string];
    byZip.set(zip, [...(byZip.get(zip) ?? []), fips]);
  }
  return [...byZip].map(([zip, counties]) => ({ zip, counties }));
}

/** The typed line, re-homed: the state is OH, the ZIP the Ohio one (its +4 kept); everything else as written. */
function retyped(a: Address, zip: string, change: (t: Labelled) => Labelled | null = (t) => t): string {
  let stateDone = false;
  const out: string[] = [];
  for (const token of a.tokens) {
    const t = change(token);
    if (t === null) continue;
    const trail = /[,;.]*$/.exec(t.text)![0];
    if (t.label === "StateName") {
      if (!stateDone) out.push(`OH${/,/.test(trail) ? "," : ""}`);
      stateDone = true;
    } else if (t.label === "ZipCode") {
      const plus4 = /^\d{5}-?(\d{4})/.exec(t.text)?.[1];
      out.push(`${zip}${plus4 ? `-${plus4}` : ""}${trail}`);
    } else out.push(t.text);
  }
  return out.join(" ");
}

const OTHER_SUFFIX = (suffix: string) => (suffix === "ST" ? "AVE" : "ST");
const OPPOSITE: Record<string, string> = { N: "S", S: "N", E: "W", W: "E", NE: "SW", SW: "NE", NW: "SE", SE: "NW" };
const ACROSS: Record<string, string> = { N: "E", S: "E", E: "N", W: "N", NE: "NW", SW: "NW", NW: "NE", SE: "NE" };

interface Case {
  set: string;
  kind: string;
  address: string;
  zip: string | null;
  /** The record's line that must answer, or null when none may. */
  expected: number | null;
}

function record(a: Address, zip: string, county: string, house: number, parity: "O" | "E", changes: Partial<BoundaryRecord> = {}): BoundaryRecord {
  const low = Math.floor(house / 100) * 100;
  return {
    recordType: "A", effectiveFrom: "2018-01-01", effectiveTo: null, houseLow: low, houseHigh: low + 99, parity,
    preDirectional: a.pre, streetName: a.name, suffix: a.suffix, postDirectional: a.post, unit: null,
    city: `${a.city === "" ? "OHIO" : a.city}${SYNTHETIC_CITY_MARK}`,
    zip5: zip, zip5High: zip, plus4Low: null, plus4High: null, countyFips: county, transitCode: null, districts: [], ...changes,
  };
}

/** The synthetic file's records and the cases asked of it, for one set of addresses. */
function build(set: string, addresses: Address[], zips: Zip[]): { records: BoundaryRecord[]; cases: Case[] } {
  const records: BoundaryRecord[] = [];
  const cases: Case[] = [];
  const add = (r: BoundaryRecord) => records.push(r) - 1 + 1;
  const filedIn = new Map<string, Set<string>>();
  const elsewhere = new Map<number, { zip: string; street: string }>();
  const file = (r: BoundaryRecord) => {
    filedIn.set(r.zip5, (filedIn.get(r.zip5) ?? new Set()).add(streetKey(r)));
    return add(r);
  };
  // Each address its own ZIP while there are enough; the other-county traps in the ZIPs left over.
  const homes = addresses.length < zips.length - 50 ? zips.slice(0, addresses.length) : zips;
  const spare = homes.length < zips.length ? zips.slice(homes.length) : zips;
  const seen = new Set<string>();
  addresses.forEach((a, i) => {
    // The same address twice in a corpus is one address.
    const same = `${a.city}|${a.pre}|${a.name}|${a.suffix}|${a.post}|${Math.floor(a.house / 100)}|${a.house % 2}`;
    if (seen.has(same)) return;
    seen.add(same);
    const home = homes[i % homes.length]!;
    const away = spare[i % spare.length]!;
    const [county] = home.counties;
    const side = a.house % 2 === 1 ? "O" : "E";
    const own = file(record(a, home.zip, county!, a.house, side));
    file(record(a, home.zip, home.counties[1] ?? county!, a.house, side === "O" ? "E" : "O"));
    if (a.suffix !== "") file(record(a, home.zip, county!, a.house, side, { suffix: OTHER_SUFFIX(a.suffix) }));
    file(record(a, home.zip, county!, a.house, side, { preDirectional: a.pre === "" ? "N" : OPPOSITE[a.pre] ?? "N" }));
    // The other county's town has its own name: a city's ZIPs holding one street twice would be no trap but a tie.
    file(record(a, away.zip, away.counties[0]!, a.house, side, { city: `OTHER COUNTY TOWN${SYNTHETIC_CITY_MARK}` }));
    const hasWhere = a.tokens.some((t) => t.label === "ZipCode" || t.label === "PlaceName");
    const zipField = hasWhere ? null : home.zip;
    cases.push({ set, kind: "address", address: retyped(a, home.zip), zip: zipField, expected: own });
    if (i % 10 !== 0) return;
    const k = i / 10;
    const number = (t: Labelled) => (t.label === "AddressNumber" ? { ...t, text: String(a.house + 5000) } : t);
    const negatives: Array<[string, string, string | null]> = [
      ["negative: number outside every range", retyped(a, home.zip, number), zipField],
      ["negative: street not in the ZIP", retyped(a, zips[(i + 7) % zips.length]!.zip), a.tokens.some((t) => t.label === "ZipCode") ? null : zips[(i + 7) % zips.length]!.zip],
    ];
    if (a.suffix !== "" && a.tokens.some((t) => t.label === "StreetNamePostType")) {
      let last = -1;
      a.tokens.forEach((t, at) => t.label === "StreetNamePostType" && (last = at));
      negatives.push(["negative: a suffix the file does not hold", retyped(a, home.zip, (t) => (t === a.tokens[last] ? { ...t, text: `Trce${/[,;.]*$/.exec(t.text)![0]}` } : t)), zipField]);
    }
    const wrong = ACROSS[a.pre] ?? "E";
    negatives.push([
      "negative: a directional the file does not hold",
      retyped(a, home.zip, (t) => (t.label === "StreetNamePreDirectional" ? null : t.label === "AddressNumber" ? { ...t, text: `${t.text} ${wrong}` } : t)),
      zipField,
    ]);
    const [kind, address, zip] = negatives[k % negatives.length]!;
    cases.push({ set, kind, address, zip, expected: null });
    if (kind === "negative: street not in the ZIP") elsewhere.set(cases.length - 1, { zip: zips[(i + 7) % zips.length]!.zip, street: streetKey({ preDirectional: a.pre, streetName: a.name, suffix: a.suffix, postDirectional: a.post }) });
  });
  // A street that happens to be filed in the other ZIP too is no negative there.
  const kept = cases.filter((_, at) => {
    const other = elsewhere.get(at);
    return other === undefined || !filedIn.get(other.zip)?.has(other.street);
  });
  return { records, cases: kept };
}

interface Tally {
  cases: number;
  answered: number;
  wrong: number;
  missed: Record<string, number>;
  examples: string[];
}

function tally(cases: readonly Case[], lines: ReadonlyArray<number | null>, reasons: ReadonlyArray<string | null>): Record<string, Tally> {
  const out: Record<string, Tally> = {};
  cases.forEach((c, i) => {
    const t = (out[c.kind] ??= { cases: 0, answered: 0, wrong: 0, missed: {}, examples: [] });
    t.cases++;
    const got = lines[i];
    if (got !== null && got === c.expected) t.answered++;
    else if (got !== null) {
      t.wrong++;
      if (t.examples.length < 5) t.examples.push(`WRONG ${c.address} → line ${got}, not ${c.expected}`);
    } else if (c.expected !== null) {
      const reason = reasons[i] ?? "not asked";
      t.missed[reason] = (t.missed[reason] ?? 0) + 1;
      if (t.examples.length < 40) t.examples.push(`${reason}: ${c.address}${c.zip ? ` (zip ${c.zip})` : ""}`);
    }
  });
  return out;
}

const perRow = (ms: number, rows: number) => Number(((ms * 1000) / rows).toFixed(1));

async function measure(set: string, files: string[], zips: Zip[]) {
  const all = files.flatMap(readCorpus);
  const addresses = all.map(streetOf).filter((a): a is Address => a !== null);
  const { records, cases } = build(set, addresses, zips);
  const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-address-corpus-"));
  const store = openStore(`sqlite:${join(dir, "bench.sqlite")}`);
  try {
    await migrateToLatest(store.db);
    const path = join(dir, "OHB2026Q4SEP17-synthetic.csv");
    writeFileSync(path, records.map((r) => `${formatBoundaryRow(r).map((f) => (/[",]/.test(f) ? `"${f.replaceAll('"', '""')}"` : f)).join(",")}\r\n`).join(""));
    const imported = await importBoundaryFile({ store, source: path, synthetic: true });
    if (imported.status !== "imported") throw new Error(`the synthetic file was not imported: ${imported.error}`);
    const index = openBoundaryIndex(store, { refreshMs: 600_000 });
    const items = cases.map((c) => {
      const item = readLookupItem({ address: c.address, ...(c.zip !== null && { zip: c.zip }) }, DATE);
      return "kind" in item ? null : item;
    });
    const streets = (await index.streets())!;

    // Each pass three times, interleaved, the fastest kept: the machine is shared, and the first pass warms the code up.
    const fastest = async <T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> => {
      let best = { ms: Number.POSITIVE_INFINITY, value: undefined as T };
      for (let pass = 0; pass < 3; pass++) {
        const started = performance.now();
        const value = await run();
        const ms = performance.now() - started;
        if (ms < best.ms) best = { ms, value };
      }
      return best;
    };
    // Before: the split (street-address.ts), then the probe with its directional variants.
    const beforeRead = await fastest(() => items.map((item) => (item === null ? null : probeQuery(item, addressParts(item.address!)))));
    const beforeStep = await fastest(async () => {
      const split = items.map((item) => (item === null ? null : probeQuery(item, addressParts(item.address!))));
      const probed = await index.probeMany(split.filter((q): q is BoundaryQuery => q !== null));
      let k = 0;
      return split.map((q) => (q === null ? null : (probed[k++]?.line ?? null)));
    });
    // After: the matcher against the file's streets (address-match.ts), then the probe of the street it found.
    const afterRead = await fastest(() => items.map((item) => (item === null ? null : matchAddress(item.address!, streets, item.zip ?? null))));
    const afterStep = await fastest(() => askBoundaryFile(index, items as Array<LookupItem | null>));
    const [beforeReadMs, beforeMs, afterReadMs, afterMs] = [beforeRead.ms, beforeStep.ms, afterRead.ms, afterStep.ms];
    const beforeLines = beforeStep.value;
    const answers = afterStep.value;
    await index.close();

    const before = tally(cases, beforeLines, cases.map(() => null));
    const after = tally(cases, answers.map((a) => a?.record?.line ?? null), answers.map((a) => a?.miss?.reason ?? null));
    const summary = (t: Record<string, Tally>) => {
      const positives = t.address ?? { cases: 0, answered: 0, wrong: 0 };
      const negatives = Object.entries(t).filter(([kind]) => kind.startsWith("negative"));
      const wrong = Object.values(t).reduce((n, x) => n + x.wrong, 0);
      return {
        addresses: positives.cases,
        answered: positives.answered,
        answered_share: Number((positives.answered / Math.max(1, positives.cases)).toFixed(4)),
        wrong,
        negatives: negatives.reduce((n, [, x]) => n + x.cases, 0),
        negatives_matched: negatives.reduce((n, [, x]) => n + x.wrong, 0),
        by_kind: t,
      };
    };
    return {
      set,
      labelled_addresses: all.length,
      street_addresses: addresses.length,
      boundary_records: records.length,
      before: { ...summary(before), read_us_per_row: perRow(beforeReadMs, cases.length), file_step_us_per_row: perRow(beforeMs, cases.length) },
      after: { ...summary(after), read_us_per_row: perRow(afterReadMs, cases.length), file_step_us_per_row: perRow(afterMs, cases.length) },
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(CORPUS_DIR)) throw new Error(`no snapshot of datamade/usaddress at ${CORPUS_DIR}: fetch it, or name it in BENCH_ADDRESS_CORPUS_DIR (bench/README.md)`);
  const zips = ohioZips();
  const results = [];
  for (const [set, files] of Object.entries(SETS)) {
    const r = await measure(set, files, zips);
    results.push(r);
    console.log(`${set}: ${r.street_addresses} street addresses of ${r.labelled_addresses} labelled; ${r.boundary_records} synthetic records`);
    for (const [when, s] of [["before", r.before], ["after", r.after]] as const) {
      console.log(
        `  ${when.padEnd(6)} answered from the file ${(100 * s.answered_share).toFixed(2)} % (${s.answered} of ${s.addresses}), wrong ${s.wrong}, negatives matched ${s.negatives_matched} of ${s.negatives}; ` +
          `reading ${s.read_us_per_row} µs/row, file step ${s.file_step_us_per_row} µs/row`,
      );
    }
    const misses = r.after.by_kind.address?.missed ?? {};
    if (Object.keys(misses).length > 0) console.log(`  after, misses by reason: ${JSON.stringify(misses)}`);
    for (const example of r.after.by_kind.address?.examples ?? []) console.log(`    ${example}`);
  }
  const first = results[0]!;
  const targets = [
    { target: `answered from the file at least ${TARGET_ANSWERED * 100} %`, measured: `${(100 * first.after.answered_share).toFixed(2)} %`, pass: first.after.answered_share >= TARGET_ANSWERED },
    { target: "answered wrongly: 0", measured: String(results.reduce((n, r) => n + r.after.wrong, 0)), pass: results.every((r) => r.after.wrong === 0) },
    { target: "negatives matched: 0", measured: String(results.reduce((n, r) => n + r.after.negatives_matched, 0)), pass: results.every((r) => r.after.negatives_matched === 0) },
  ];
  writeFileSync(join(root, "bench/results-address-corpus.json"), `${JSON.stringify({ corpus: CORPUS_DIR, targets, sets: results }, null, 2)}\n`);
}

await main();
