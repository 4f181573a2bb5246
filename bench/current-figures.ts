/**
 * The "current figures" block at the top of docs/operations/benchmarks.md, rendered from what
 * `npm run bench` writes to bench/results.json, so the reader sees the last run's figures before the
 * history below them. bench/run.ts calls `writeCurrentFigures` at the end of a run; the block is only
 * ever written between the two markers, so the hand-written history is never touched.
 * test/bench-current-figures.test.ts renders it from a results file without running a bench.
 */
import { readFileSync, writeFileSync } from "node:fs";

export const BEGIN_MARKER = "<!-- current figures: written by `npm run bench` (bench/current-figures.ts); do not edit by hand -->";
export const END_MARKER = "<!-- end of current figures -->";

interface CoreFigures {
  requests_per_second: number;
  p99_ms: number;
  ratio_to_bare: number;
  /** Each round's ratio, when the run took several (the ratio above is their median). */
  ratio_by_round?: number[];
}

/** The parts of bench/results.json the block shows; every bench but the core may be missing or have failed. */
export interface BenchResults {
  measured_at: string;
  machine: { cores: number; node: string };
  connections: number;
  /** Seconds of each scenario's slice in a round (bench/interleaved.ts). */
  slice_seconds: number;
  core_rounds: number;
  core: Record<string, CoreFigures>;
  server_rss_mb: number;
  server_rss_at_start_mb?: number;
  server_rss_split_mb?: { anonymous: number; file_backed_or_shared: number };
  /** RSS once the server has idled after the load (`serve` gives back what a busy spell left after 10 s of quiet: src/give-back-memory.ts). */
  server_rss_settled_mb?: { after_seconds: number; total: number };
  /** Rates by county over a bare route answering the county answer's own bytes and headers, per round and their median. */
  county_ratio_to_same_bytes?: { median: number; by_round: number[] };
  /** Two servers alike (the control over the first), and the metrics-on server over the control: per round and their median. */
  county_control?: { twin_over_first: { median: number; by_round: number[] }; metrics_on_over_twin: { median: number; by_round: number[] } };
  request_cpu?: {
    end_to_end?: Record<string, { cpu_us_per_request: number }>;
    in_process_us?: Record<string, number>;
    middleware?: Array<{ piece: string; us: number; budget_us: number }>;
    error?: string;
  };
  scale_out?: {
    ratio_postgres_redis_to_sqlite?: number;
    ratio_two_instances_to_sqlite?: number;
    server_cpu_ratio_postgres_redis_to_sqlite?: number;
    redis_cpu_us_per_request?: number;
    postgres_cpu_us_per_request?: number;
    error?: string;
  };
  boundary_import?: {
    database?: string;
    records?: number;
    import_seconds?: number;
    peak_rss_mb?: number;
    second_quarter?: { import_seconds: number; peak_rss_mb: number };
    error?: string;
  };
  targets?: Array<{ target: string; measured: string; pass: boolean }>;
  [bench: string]: unknown;
}

const integer = (value: number) => Math.round(value).toLocaleString("en-US");

/** Benches that exited with an error, by their results.json name. */
function failedBenches(results: BenchResults): string[] {
  return Object.entries(results)
    .filter(([, value]) => typeof value === "object" && value !== null && "error" in value)
    .map(([name]) => name)
    .sort();
}

export function renderCurrentFigures(results: BenchResults): string {
  const when = results.measured_at.replace(/:\d\d(\.\d+)?Z$/, " UTC").replace("T", " ");
  const lines = [
    `Last \`npm run bench\`: ${when}, ${results.machine.cores} cores, Node ${results.machine.node.replace(/^v/, "")}; ` +
      `${results.connections} connections, ${results.core_rounds} rounds of a ${results.slice_seconds} s slice of every scenario in turn after 2 s of warm-up ` +
      "(bench/interleaved.ts; medians, each round's ratio to the bare route's slice of its own round)" +
      ". Only ratios measured in one run compare; req/s depend on the machine.",
    "",
    "| scenario | req/s | p99 | ratio to bare h3 | ratio in each round |",
    "|---|---|---|---|---|",
    ...Object.entries(results.core).map(
      ([name, figures]) =>
        `| ${name} | ${integer(figures.requests_per_second)} | ${figures.p99_ms} ms | ${figures.ratio_to_bare} | ${figures.ratio_by_round?.join(", ") ?? "one round"} |`,
    ),
    "",
  ];
  const split = results.server_rss_split_mb;
  lines.push(
    (results.server_rss_at_start_mb !== undefined ? `Server RSS at start: ${results.server_rss_at_start_mb} MB. ` : "") +
      `Server RSS after the load: ${results.server_rss_mb} MB` +
      (split ? ` (anonymous ${split.anonymous}, file-backed or shared ${split.file_backed_or_shared})` : "") +
      (results.server_rss_settled_mb ? `; ${results.server_rss_settled_mb.after_seconds} s later, idle: ${results.server_rss_settled_mb.total} MB.` : "."),
  );
  if (results.county_ratio_to_same_bytes) {
    lines.push(
      `Rates by county over the bare route answering the county answer's own bytes and headers: ${results.county_ratio_to_same_bytes.median} ` +
        `(rounds ${results.county_ratio_to_same_bytes.by_round.join(", ")}).`,
    );
  }
  if (results.county_control) {
    const { twin_over_first: twin, metrics_on_over_twin: on } = results.county_control;
    lines.push(
      `Rates by county on a second server as shipped (the control) over the first: ${twin.median} (rounds ${twin.by_round.join(", ")}): ` +
        `what this machine puts between two identical servers. Metrics on over the control: ${on.median} (rounds ${on.by_round.join(", ")}).`,
    );
  }
  const cpu = results.request_cpu?.end_to_end;
  if (cpu) {
    const parts = Object.entries(cpu).map(([name, figures]) => `${name} ${figures.cpu_us_per_request} µs`);
    const inProcess = Object.entries(results.request_cpu?.in_process_us ?? {}).map(([name, us]) => `${name.replace(/_us$/, "").replaceAll("_", " ")} ${us} µs`);
    lines.push(
      `CPU per request (\`bench/request-cpu.ts\`): ${parts.join(", ")}` + (inProcess.length > 0 ? `; in process: ${inProcess.join(", ")}.` : "."),
    );
  }
  const middleware = results.request_cpu?.middleware ?? [];
  if (middleware.length > 0) {
    lines.push(
      "",
      "Middleware budget (`bench/middleware-budget.ts`): each piece of a county lookup's request path in a loop of its own, µs per call.",
      "",
      "| piece | µs | budget | verdict |",
      "|---|---|---|---|",
      ...middleware.map((m) => `| ${m.piece} | ${m.us} | ${m.budget_us} | ${m.us <= m.budget_us ? "within" : "**over**"} |`),
      "",
    );
  }
  const scale = results.scale_out;
  if (scale?.ratio_postgres_redis_to_sqlite !== undefined) {
    lines.push(
      `PostgreSQL + Redis against SQLite, one instance (\`bench/scale.ts\`, median of rounds): ${scale.ratio_postgres_redis_to_sqlite}` +
        (scale.ratio_two_instances_to_sqlite !== undefined ? `; two instances: ${scale.ratio_two_instances_to_sqlite}` : "") +
        (scale.server_cpu_ratio_postgres_redis_to_sqlite !== undefined
          ? `; the server's CPU per county request on PostgreSQL + Redis over SQLite's: ${scale.server_cpu_ratio_postgres_redis_to_sqlite}, Redis ${scale.redis_cpu_us_per_request} µs and PostgreSQL ${scale.postgres_cpu_us_per_request} µs per request.`
          : "."),
    );
  }
  const boundaries = results.boundary_import;
  if (boundaries?.import_seconds !== undefined) {
    const second = boundaries.second_quarter;
    lines.push(
      `Boundary file import (\`bench/boundaries-import.ts\`, ${boundaries.database ?? "sqlite"}, synthetic): first import of ${integer(boundaries.records ?? 0)} records ` +
        `${boundaries.import_seconds} s, peak RSS ${boundaries.peak_rss_mb} MB` +
        (second ? `; the next quarter over it (change report, switch, rollback copy kept) ${second.import_seconds} s, peak RSS ${second.peak_rss_mb} MB.` : "."),
    );
  }
  const targets = results.targets ?? [];
  if (targets.length > 0) {
    lines.push("", "| target | measured | verdict |", "|---|---|---|");
    for (const t of targets) lines.push(`| ${t.target} | ${t.measured} | ${t.pass ? "pass" : "**FAIL**"} |`);
  }
  const failed = failedBenches(results);
  if (failed.length > 0) lines.push("", `Benches that failed in this run: ${failed.map((name) => `\`${name}\``).join(", ")}.`);
  return lines.join("\n");
}

/** The document with the block between the markers replaced; the markers must be there, once each. */
export function withCurrentFigures(doc: string, block: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin < 0 || end < begin || doc.indexOf(BEGIN_MARKER, begin + 1) >= 0 || doc.indexOf(END_MARKER, end + 1) >= 0) {
    throw new Error("the current-figures markers are missing, out of order or repeated");
  }
  return `${doc.slice(0, begin + BEGIN_MARKER.length)}\n${block}\n${doc.slice(end)}`;
}

export function writeCurrentFigures(docPath: string, results: BenchResults): void {
  writeFileSync(docPath, withCurrentFigures(readFileSync(docPath, "utf8"), renderCurrentFigures(results)));
}
