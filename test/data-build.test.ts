import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { buildData, polygonsForBuild, REPO_ROOT, SOURCES_DIR } from "../scripts/build-data.ts";
import { buildRatePeriods, RateChainError } from "../scripts/build/rate-periods.ts";
import { readRateSources, type RateSources } from "../scripts/build/rate-sources.ts";

const DATA_DIR = join(REPO_ROOT, "data");
const AS_OF = "2026-01-01";

let built: Record<string, string>;
let sources: RateSources;

beforeAll(async () => {
  built = await buildData(SOURCES_DIR, polygonsForBuild());
  sources = readRateSources(SOURCES_DIR);
});

function committed(name: string): Record<string, string>[] {
  return parse(readFileSync(join(DATA_DIR, name), "utf8"), { columns: true });
}

/** Sums rates written with four decimals in ten-thousandths, independently of the builder's arithmetic. */
function tenThousandths(rate: string): number {
  expect(rate).toMatch(/^0\.\d{4}$/);
  return Number(rate.slice(2));
}

describe("no figure is edited by hand", () => {
  it("rebuilding data/ from the committed sources (data/sources) and the loaded polygons gives byte-identical files", () => {
    for (const [name, contents] of Object.entries(built)) {
      expect(readFileSync(join(DATA_DIR, name), "utf8"), name).toBe(contents);
    }
  });

  it("data/ holds only files the build makes, beside the build's inputs", () => {
    expect(readdirSync(DATA_DIR).sort()).toEqual([...Object.keys(built), "sources"].sort());
  });
});

describe("Ohio has 88 counties", () => {
  it("lists 88 counties, FIPS 39001 to 39175 in order", () => {
    const counties = committed("counties.csv");
    expect(counties).toHaveLength(88);
    expect(counties.map((row) => row["fips"])).toEqual(Array.from({ length: 88 }, (_, i) => `39${String(2 * i + 1).padStart(3, "0")}`));
  });
});

describe("every county evaluates to its published combined rate", () => {
  it("adds up state, county and countywide transit periods on 2026-01-01 to combined_rate in county-rates.csv", () => {
    const periods = committed("rate-periods.csv");
    const inForce = (fips: string, component: string): number =>
      periods
        .filter((p) => p["fips"] === fips && p["component"] === component)
        .filter((p) => (p["effective_from"] === "" || p["effective_from"]! <= AS_OF) && (p["effective_to"] === "" || AS_OF < p["effective_to"]!))
        .reduce((sum, p) => sum + tenThousandths(p["rate"]!), 0);
    const published = parse(readFileSync(join(SOURCES_DIR, "ohio", "county-rates.csv"), "utf8"), { columns: true }) as Record<string, string>[];
    expect(published).toHaveLength(88);
    for (const county of published) {
      const fips = county["fips"]!;
      expect(tenThousandths("0.0575") + inForce(fips, "county") + inForce(fips, "transit"), county["county"]).toBe(tenThousandths(county["combined_rate"]!));
    }
  });

  it("adds the district levy to give the in-district rates ODT publishes", () => {
    const periods = committed("rate-periods.csv");
    const current = (fips: string, component: string): string =>
      periods.find((p) => p["fips"] === fips && p["component"] === component && p["effective_to"] === "")?.["rate"] ?? "0.0000";
    const inDistrict = (fips: string): number => 575 + tenThousandths(current(fips, "county")) + tenThousandths(current(fips, "district"));
    expect([inDistrict("39041"), inDistrict("39045"), inDistrict("39089"), inDistrict("39159"), inDistrict("39173")]).toEqual([800, 775, 825, 800, 725]);
  });
});

describe("each levy has one rate at a time", () => {
  it("chains the periods of every county levy without gaps or overlaps", () => {
    const periods = committed("rate-periods.csv");
    const levies = new Map<string, Record<string, string>[]>();
    for (const p of periods) {
      const levy = `${p["fips"]} ${p["component"]}`;
      levies.set(levy, [...(levies.get(levy) ?? []), p]);
    }
    for (const [levy, chain] of levies) {
      expect(chain[0]!["effective_from"], levy).toBe("");
      expect(chain.at(-1)!["effective_to"], levy).toBe("");
      for (let i = 1; i < chain.length; i++) expect(chain[i]!["effective_from"], levy).toBe(chain[i - 1]!["effective_to"]);
    }
  });
});

describe("the chain validation rejects a tampered history", () => {
  const tamperHistory = (index: number, change: Partial<RateSources["history"][number]>): RateSources => ({
    ...sources,
    history: sources.history.map((row, i) => (i === index ? { ...row, ...change } : row)),
  });
  const historyIndex = (county: string, date: string): number =>
    sources.history.findIndex((row) => row.county === county && row.effectiveDate === date);

  it("accepts the real sources", () => {
    expect(() => buildRatePeriods(sources)).not.toThrow();
  });

  it("rejects a change whose new rate is not the rate that follows it", () => {
    expect(() => buildRatePeriods(tamperHistory(historyIndex("Knox", "2023-07-01"), { newRate: "0.0100" }))).toThrow(RateChainError);
  });

  it("rejects a combined rate that is not state + county + transit", () => {
    expect(() => buildRatePeriods(tamperHistory(historyIndex("Franklin", "2025-04-01"), { oldCombined: "0.0725" }))).toThrow(/old_combined/);
  });

  it("rejects a district change whose in-district rate does not add up", () => {
    expect(() => buildRatePeriods(tamperHistory(historyIndex("Wood", "2022-04-01"), { newCombined: "0.0775" }))).toThrow(RateChainError);
  });

  it("rejects a change that is not on a quarter start", () => {
    expect(() => buildRatePeriods(tamperHistory(historyIndex("Brown", "2025-10-01"), { effectiveDate: "2025-09-15" }))).toThrow(/quarter/);
  });

  it("rejects a current rate whose start disagrees with county-rates.csv", () => {
    const counties = sources.counties.map((c) => (c.name === "Coshocton" ? { ...c, effectiveFrom: null } : c));
    expect(() => buildRatePeriods({ ...sources, counties })).toThrow(/starts the current rate on 2022-04-01/);
  });

  it("rejects a current combined rate that does not add up", () => {
    const counties = sources.counties.map((c) => (c.name === "Allen" ? { ...c, combinedRate: "0.0675" } : c));
    expect(() => buildRatePeriods({ ...sources, counties })).toThrow(/combined_rate/);
  });
});

describe("a ZIP is split whenever it has land in two or more counties", () => {
  it("gives every ZCTA county part a land share, and a ZCTA's shares sum to 1 within rounding", () => {
    const rows = committed("zip-counties.csv");
    const shares = new Map<string, number>();
    for (const row of rows.filter((r) => r["source"] === "zcta2020")) {
      expect(row["land_share"]).toMatch(/^[01]\.\d{6}$/);
      shares.set(row["zip"]!, (shares.get(row["zip"]!) ?? 0) + Number(row["land_share"]!.replace(".", "")));
    }
    for (const [zip, millionths] of shares) expect(Math.abs(millionths - 1_000_000), zip).toBeLessThanOrEqual(3);
  });

  it("keeps tiny county parts (43013 has under 1% of its land in Delaware County)", () => {
    const rows = committed("zip-counties.csv").filter((r) => r["zip"] === "43013");
    expect(rows.map((r) => [r["fips"], r["land_share"]])).toEqual([
      ["39089", "0.990477"],
      ["39041", "0.009523"],
    ]);
  });

  it("places ZIPs without a ZCTA in one county by their point, with no land share", () => {
    const byPoint = committed("zip-counties.csv").filter((r) => r["source"] !== "zcta2020");
    expect(byPoint.length).toBeGreaterThan(0);
    expect(new Set(byPoint.map((r) => r["zip"])).size).toBe(byPoint.length);
    for (const row of byPoint) expect(row["land_share"]).toBe("");
  });
});

describe("transit districts name their cities by Census GEOID", () => {
  it("resolves each named city to the incorporated place that lies in the county", () => {
    const districts = JSON.parse(readFileSync(join(DATA_DIR, "transit-districts.json"), "utf8")) as { fips: string; places: { name: string; geoid: string }[] }[];
    expect(Object.fromEntries(districts.map((d) => [d.fips, d.places.map((p) => `${p.name} ${p.geoid}`)]))).toEqual({
      "39041": ["Columbus 3918000", "Westerville 3983342", "Dublin 3922694"],
      "39045": ["Columbus 3918000", "Reynoldsburg 3966390"],
      "39089": ["Reynoldsburg 3966390"],
      "39159": ["Dublin 3922694"],
      "39173": ["Rossford 3968686"],
    });
  });
});
