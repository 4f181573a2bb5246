/**
 * The "current figures" block of docs/operations/benchmarks.md (bench/current-figures.ts), rendered
 * from a results file as `npm run bench` writes it, without running a bench.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN_MARKER, END_MARKER, renderCurrentFigures, withCurrentFigures, type BenchResults } from "../bench/current-figures.ts";

const RESULTS: BenchResults = {
  measured_at: "2026-11-25T12:34:56.789Z",
  machine: { cores: 2, node: "v24.21.0" },
  connections: 50,
  slice_seconds: 3,
  core_rounds: 9,
  core: {
    "bare h3 route": { requests_per_second: 58518, p99_ms: 1, ratio_to_bare: 1 },
    "rates by county": { requests_per_second: 46180, p99_ms: 2, ratio_to_bare: 0.789 },
  },
  server_rss_mb: 148,
  server_rss_split_mb: { anonymous: 88.1, file_backed_or_shared: 59.9 },
  county_control: { twin_over_first: { median: 0.962, by_round: [0.967, 0.896] }, metrics_on_over_twin: { median: 0.988, by_round: [0.941, 1.079] } },
  request_cpu: { end_to_end: { "rates by county": { cpu_us_per_request: 19.8 } }, in_process_us: { key_check_us: 1.57 } },
  scale_out: { ratio_postgres_redis_to_sqlite: 0.762, ratio_two_instances_to_sqlite: 0.631 },
  boundary_import: { database: "sqlite", records: 2_000_000, import_seconds: 20.89, peak_rss_mb: 245, second_quarter: { import_seconds: 54.68, peak_rss_mb: 234.3 } },
  webhooks: { error: "bench/webhooks.ts exited with 1" },
  targets: [
    { target: "rates by county at least 0.6 of bare", measured: "0.789", pass: true },
    { target: "single address by file p99 under 5 ms", measured: "6 ms", pass: false },
  ],
};

const DOC = new URL("../docs/operations/benchmarks.md", import.meta.url);

describe("the current figures of docs/operations/benchmarks.md", () => {
  it("renders a run's results: when and where, the core table, memory, the control server, CPU, scale-out, targets and failed benches", () => {
    const block = renderCurrentFigures(RESULTS);
    expect(block).toContain("Last `npm run bench`: 2026-11-25 12:34 UTC, 2 cores, Node 24.21.0; 50 connections, 9 rounds of a 3 s slice of every scenario in turn");
    expect(block).toContain("| rates by county | 46,180 | 2 ms | 0.789 |");
    expect(block).toContain("Server RSS after the load: 148 MB (anonymous 88.1, file-backed or shared 59.9).");
    expect(block).toContain(
      "Rates by county on a second server as shipped (the control) over the first: 0.962 (rounds 0.967, 0.896): what this machine puts between two identical servers. " +
        "Metrics on over the control: 0.988 (rounds 0.941, 1.079).",
    );
    expect(block).toContain("rates by county 19.8 µs; in process: key check 1.57 µs.");
    expect(block).toContain("one instance (`bench/scale.ts`, median of rounds): 0.762; two instances: 0.631.");
    expect(block).toContain(
      "first import of 2,000,000 records 20.89 s, peak RSS 245 MB; the next quarter over it (change report, switch, rollback copy kept) 54.68 s, peak RSS 234.3 MB.",
    );
    expect(block).toContain("| rates by county at least 0.6 of bare | 0.789 | pass |");
    expect(block).toContain("| single address by file p99 under 5 ms | 6 ms | **FAIL** |");
    expect(block).toContain("Benches that failed in this run: `webhooks`.");
  });

  it("leaves out what a core-only run did not measure", () => {
    const { request_cpu, scale_out, boundary_import, targets, webhooks, ...core } = RESULTS;
    const block = renderCurrentFigures(core);
    expect(block).not.toMatch(/CPU per request|PostgreSQL|import|target|failed/);
  });

  it("replaces only what lies between the markers, so the history is never touched, and twice is once", () => {
    const doc = `# Benchmarks\n\nintro\n\n${BEGIN_MARKER}\nold figures\n${END_MARKER}\n\n## History\n\nkept\n`;
    const once = withCurrentFigures(doc, "new figures");
    expect(once).toBe(`# Benchmarks\n\nintro\n\n${BEGIN_MARKER}\nnew figures\n${END_MARKER}\n\n## History\n\nkept\n`);
    expect(withCurrentFigures(once, "new figures")).toBe(once);
  });

  it("refuses a document without the markers, or with them twice", () => {
    expect(() => withCurrentFigures("# Benchmarks\n", "x")).toThrow(/markers/);
    expect(() => withCurrentFigures(`${BEGIN_MARKER}\n${END_MARKER}\n${BEGIN_MARKER}\n${END_MARKER}\n`, "x")).toThrow(/markers/);
  });

  it("docs/operations/benchmarks.md holds the markers once each, ahead of its history", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(() => withCurrentFigures(doc, "x")).not.toThrow();
    expect(doc.indexOf(END_MARKER)).toBeLessThan(doc.indexOf("## History"));
  });
});
