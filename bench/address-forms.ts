/**
 * Match rate of addresses as people type them (`node --import tsx bench/address-forms.ts`; `npm run
 * bench` runs it too). Writes bench/results-address-forms.json.
 *
 * A SYNTHETIC boundary file (src/boundaries/synthetic-file.ts, Pub 28 standard forms, with state
 * routes, county and township roads, a US highway and numbered streets among its streets) is
 * imported into a fresh SQLite store. From its current address ranges, every street of every ZIP
 * is written the ways people write addresses (below), and each variant goes the way a lookup's
 * address does: lookup-item.ts (validation), then ladder.ts askBoundaryFile (the matcher,
 * address-match.ts, against the file's streets, and the boundary index). Reported, per kind and overall:
 * - answered: the variant's own record answered (target: at least 98 %);
 * - wrong: another record answered (target: 0);
 * - and, apart, variants that must NOT answer (a PO box; the opposite directional where the ZIP has
 *   no such street; a directional left out where the ZIP has the street under two): any answer
 *   there counts as wrong.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importBoundaryFile } from "../src/boundaries/import-file.ts";
import { openBoundaryIndex } from "../src/boundaries/boundary-index.ts";
import { streetKey } from "../src/boundaries/pub28.ts";
import type { BoundaryRecord } from "../src/boundaries/record-layout.ts";
import { syntheticBoundaryRecords, writeSyntheticBoundaryFile } from "../src/boundaries/synthetic-file.ts";
import { askBoundaryFile } from "../src/lookup/ladder.ts";
import { readLookupItem } from "../src/lookup/lookup-item.ts";
import { openStore } from "../src/store/connect.ts";
import { migrateToLatest } from "../src/store/migrate.ts";
import { root } from "./start-process.ts";

const DATE = "2026-06-01";
const DATA_DIR = join(root, "data");
const ZIP_COUNT = Number(process.env.BENCH_ADDRESS_FORM_ZIPS ?? 30);
const RECORDS = Number(process.env.BENCH_ADDRESS_FORM_RECORDS ?? 60_000);
const TARGET_ANSWERED = 0.98;

type Lined = BoundaryRecord & { line: number };

const SPELLED_DIRECTIONAL: Record<string, string> = { N: "North", S: "South", E: "East", W: "West" };
const SPELLED_SUFFIX: Record<string, string> = {
  ST: "Street", AVE: "Avenue", RD: "Road", DR: "Drive", BLVD: "Boulevard", LN: "Lane", CT: "Court", PL: "Place", PKWY: "Parkway",
  CIR: "Circle", TER: "Terrace", STREET: "St", AVENUE: "Ave", WAY: "Way",
};
const SPELLED_ORDINAL: Record<string, string[]> = { "5TH": ["Fifth"], "21ST": ["Twenty-First", "Twenty First"] };
/** How people write each of the file's highways (Pub 28's spelled-out form is the file's). */
const HIGHWAY_FORMS: Record<string, string[]> = {
  "STATE ROUTE 37": ["SR 37", "St Rt 37", "OH-37", "Ohio 37", "S.R. 37", "State Rte 37", "SR-37", "State Hwy 37"],
  "COUNTY ROAD 12": ["CR 12", "Co Rd 12", "Co. Rd. 12", "Cnty Rd 12", "County Rd 12", "C.R. 12"],
  "TOWNSHIP ROAD 45": ["TR 45", "Twp Rd 45", "T.R. 45", "Township Rd 45", "Twp. Rd. 45"],
  "US HIGHWAY 23": ["US 23", "US Route 23", "U.S. Hwy 23", "US-23", "U.S. Route 23", "US Hwy 23"],
};

interface Variant {
  kind: string;
  address: string;
  /** The record that must answer, or null when none may. */
  expected: number | null;
}

/** The first 30 ZIPs of data/zip-counties.csv: enough records per ZIP for every kind of street. */
function benchZips(): string[] {
  const zips = readFileSync(join(DATA_DIR, "zip-counties.csv"), "utf8").trim().split(/\r?\n/).slice(1).map((line) => line.split(",")[0]!);
  return [...new Set(zips)].slice(0, ZIP_COUNT);
}

const title = (word: string) => word.charAt(0) + word.slice(1).toLowerCase();
const titled = (text: string) => text.split(" ").map(title).join(" ");

/** Every way of writing one record's address that the bench measures. */
function variants(r: Lined, bodies: ReadonlyMap<string, Set<string>>): Variant[] {
  const house = r.houseLow! + (r.parity === "O" ? 1 : 2);
  const city = titled(r.city.replace(/ SYNTHETIC$/, ""));
  const street = (pre = r.preDirectional, name = titled(r.streetName), suffix = titled(r.suffix)) => [pre, name, suffix].filter(Boolean).join(" ");
  const std = street();
  const out: Variant[] = [];
  const add = (kind: string, address: string, expected: number | null = r.line) => out.push({ kind, address, expected });
  add("standard form", `${house} ${std}, ${city}, OH ${r.zip5}`);
  add("upper case, punctuation", `${house} ${[r.preDirectional && `${r.preDirectional}.`, r.streetName, r.suffix && `${r.suffix}.`].filter(Boolean).join(" ")}, ${city.toUpperCase()}, OH. ${r.zip5}`);
  add("lower case", `${house} ${std.toLowerCase()}, ${city.toLowerCase()}, oh ${r.zip5}`);
  if (r.preDirectional || SPELLED_SUFFIX[r.suffix]) {
    add("directional and suffix spelled out", `${house} ${street(SPELLED_DIRECTIONAL[r.preDirectional] ?? "", undefined, SPELLED_SUFFIX[r.suffix] ?? titled(r.suffix))}, ${city}, OH ${r.zip5}`);
  }
  add("no commas", `${house} ${std} ${city} OH ${r.zip5}`);
  add("state spelled out", `${house} ${std}, ${city}, Ohio ${r.zip5}`);
  add("ZIP+4 in the text", `${house} ${std}, ${city}, OH ${r.zip5}-0000`);
  add("no city, with the state", `${house} ${std}, OH ${r.zip5}`);
  add("no city, no state", `${house} ${std}, ${r.zip5}`);
  add("no city, no commas", `${house} ${std} OH ${r.zip5}`);
  add("misspelled city", `${house} ${std}, ${city.slice(0, -1)}e, OH ${r.zip5}`);
  add("fractional house number", `${house} 1/2 ${std}, ${city}, OH ${r.zip5}`);
  add("lettered house number", `${house}B ${std}, ${city}, OH ${r.zip5}`);
  add("tabs between parts", `${house} ${std}\t${city}\tOH\t${r.zip5}`);
  add("extra spaces", `  ${house}   ${std.replaceAll(" ", "  ")} ,  ${city} ,  OH   ${r.zip5} `);
  add("unit (Apt, Suite, #)", `${house} ${std} ${["Apt 4", "Suite 200", "# 12", "Unit B"][r.line % 4]}, ${city}, OH ${r.zip5}`);
  for (const form of HIGHWAY_FORMS[r.streetName] ?? []) {
    add("highway short and long forms", `${house} ${street(undefined, form, "")}, ${city}, OH ${r.zip5}`);
    add("highway short and long forms", `${house} ${street(undefined, form, "")} ${city} OH ${r.zip5}`);
  }
  for (const spelled of SPELLED_ORDINAL[r.streetName] ?? []) add("ordinal spelled out", `${house} ${street(undefined, spelled)}, ${city}, OH ${r.zip5}`);
  add("PO box (no answer)", `PO Box ${house}, ${city}, OH ${r.zip5}`, null);
  const filed = bodies.get(`${r.zip5} ${streetKey({ streetName: r.streetName, suffix: r.suffix })}`) ?? new Set();
  // Left out: the record when the ZIP files this street under one directional only, else no answer.
  // (Where the ZIP also has the street without a directional, the caller named that street: no variant.)
  const opposite: Record<string, string> = { N: "S", S: "N", E: "W", W: "E" };
  if (r.preDirectional && !filed.has(opposite[r.preDirectional]!)) {
    add("directional swapped (no answer)", `${house} ${street(opposite[r.preDirectional])}, ${city}, OH ${r.zip5}`, null);
  }
  if (r.preDirectional && !filed.has("")) {
    const unique = filed.size === 1;
    add(unique ? "directional left out" : "directional left out, street filed twice (no answer)", `${house} ${street("")}, ${city}, OH ${r.zip5}`, unique ? r.line : null);
  }
  return out;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-bench-address-forms-"));
  const zips = benchZips();
  const store = openStore(`sqlite:${join(dir, "bench.sqlite")}`);
  try {
    await migrateToLatest(store.db);
    const file = join(dir, "OHB2026Q4SEP17-synthetic.csv");
    await writeSyntheticBoundaryFile(file, { dataDir: DATA_DIR, records: RECORDS, zips });
    const imported = await importBoundaryFile({ store, source: file, synthetic: true });
    if (imported.status !== "imported") throw new Error(`the synthetic file was not imported: ${imported.error}`);

    const records: Lined[] = [...syntheticBoundaryRecords({ dataDir: DATA_DIR, records: RECORDS, zips })].map((r, i) => ({ ...r, line: i + 1 }));
    // Which directionals each street body has in each ZIP: "Main St" is unique only under one.
    const bodies = new Map<string, Set<string>>();
    for (const r of records) {
      if (r.recordType !== "A") continue;
      const key = `${r.zip5} ${streetKey({ streetName: r.streetName, suffix: r.suffix })}`;
      bodies.set(key, (bodies.get(key) ?? new Set()).add(r.preDirectional));
    }
    // One current, unit-less record per side of every street of every ZIP.
    const seen = new Set<string>();
    const sample = records.filter((r) => {
      if (r.recordType !== "A" || r.unit !== null || r.effectiveTo !== null || r.effectiveFrom > DATE) return false;
      const street = `${r.zip5}|${r.preDirectional}|${r.streetName}|${r.suffix}|${r.parity}`;
      if (seen.has(street)) return false;
      seen.add(street);
      return true;
    });
    const all = sample.flatMap((r) => variants(r, bodies));

    const index = openBoundaryIndex(store, { refreshMs: 60_000 });
    const started = performance.now();
    const items = all.map(({ address }) => {
      const item = readLookupItem({ address }, DATE);
      return "kind" in item ? null : item;
    });
    const answers = await askBoundaryFile(index, items);
    const seconds = (performance.now() - started) / 1000;
    await index.close();

    const lines = answers.map((a) => a?.record?.line ?? null);
    const kinds = new Map<string, { variants: number; answered: number; wrong: number; missed: string[] }>();
    all.forEach((v, i) => {
      const tally = kinds.get(v.kind) ?? { variants: 0, answered: 0, wrong: 0, missed: [] };
      kinds.set(v.kind, tally);
      tally.variants++;
      const got = lines[i];
      if (got === v.expected && got !== null) tally.answered++;
      else if (got !== null) tally.wrong++;
      else if (v.expected !== null && tally.missed.length < 3) tally.missed.push(v.address);
    });
    const mustAnswer = all.filter((v) => v.expected !== null);
    const answered = all.filter((v, i) => v.expected !== null && lines[i] === v.expected).length;
    const wrong = all.filter((v, i) => lines[i] !== null && lines[i] !== v.expected).length;
    const mustNot = all.length - mustAnswer.length;
    const round = (n: number) => Math.round(n * 10_000) / 10_000;
    const results = {
      boundary_records: RECORDS,
      zips: zips.length,
      streets_sampled: sample.length,
      variants: all.length,
      variants_that_must_answer: mustAnswer.length,
      variants_that_must_not_answer: mustNot,
      answered_share: round(answered / mustAnswer.length),
      wrong_share: round(wrong / all.length),
      wrong,
      seconds: Number(seconds.toFixed(2)),
      targets: [
        { target: `answered from the file at least ${TARGET_ANSWERED * 100} %`, measured: `${(100 * answered / mustAnswer.length).toFixed(2)} %`, pass: answered / mustAnswer.length >= TARGET_ANSWERED },
        { target: "answered wrongly: 0", measured: String(wrong), pass: wrong === 0 },
      ],
      by_kind: Object.fromEntries(
        [...kinds].map(([kind, t]) => [kind, { variants: t.variants, answered: t.answered, wrong: t.wrong, ...(t.missed.length > 0 && { missed_examples: t.missed }) }]),
      ),
    };
    console.log(`${all.length} address variants of ${sample.length} streets in ${zips.length} ZIPs (${RECORDS} synthetic records), probed in ${results.seconds} s`);
    for (const [kind, t] of kinds) {
      const must = kind.endsWith("(no answer)") ? "none answered" : `${((100 * t.answered) / t.variants).toFixed(1)} % answered`;
      console.log(`  ${kind.padEnd(54)} ${String(t.variants).padStart(5)}  ${must.padEnd(16)} wrong ${t.wrong}`);
    }
    console.log(`answered from the file: ${(100 * results.answered_share).toFixed(2)} % of ${mustAnswer.length}; answered wrongly: ${wrong} of ${all.length}`);
    writeFileSync(join(root, "bench/results-address-forms.json"), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
