/**
 * A real Prometheus (Debian's `prometheus` package, .ci/run installs it) for the tests: started on a
 * free loopback port with a temp config that scrapes one target every second, queried through its
 * HTTP API (/api/v1/query, PromQL) as an operator's dashboards and alerts would.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "./_http.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What a test says when Debian's Prometheus is not installed, instead of failing on an undefined output. */
function notInstalled(tool: string, error: Error): Error {
  return new Error(
    `${tool} could not be started (${error.message}): the metrics tests run Debian's real Prometheus and its promtool. ` +
      "Install them with `apt-get install prometheus`, as .ci/run does (README, \"Testing\").",
  );
}

/** Runs Prometheus's `promtool` with `args`; throws a clear error when it is not installed. */
export function runPromtool(args: string[]): SpawnSyncReturns<string> {
  const run = spawnSync("promtool", args, { encoding: "utf8" });
  if (run.error) throw notInstalled("promtool", run.error);
  return run;
}

export interface Prometheus {
  url: string;
  /** The instant query's samples: each series' labels and value. */
  query(promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>>;
  /** Polls `promql` until `holds` accepts its samples (scrapes come once a second); rejects with the last samples after `timeoutMs`. */
  until(promql: string, holds: (values: number[]) => boolean, timeoutMs?: number): Promise<number[]>;
  /** Every metric name Prometheus holds. */
  names(): Promise<string[]>;
  close(): Promise<void>;
}

/** `target`: the scraped /metrics URL, e.g. http://127.0.0.1:41234/metrics. */
export async function startPrometheus(target: string): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-prometheus-"));
  const scraped = new URL(target);
  writeFileSync(
    join(dir, "prometheus.yml"),
    [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 900ms",
      "scrape_configs:",
      "  - job_name: buckeye",
      `    metrics_path: ${scraped.pathname}`,
      "    static_configs:",
      `      - targets: ["${scraped.host}"]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    "prometheus",
    [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  // A binary that is not there never exits: it fails to start, with an "error" event and no "exit".
  let failedToStart: Error | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", resolve);
    child.once("error", (error) => {
      failedToStart = error;
      resolve(null);
    });
  });
  const close = async () => {
    if (child.exitCode === null && !failedToStart) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (failedToStart) {
      await close();
      throw notInstalled("prometheus", failedToStart);
    }
    if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/-/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`prometheus was not ready within 30 s: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const query = async (promql: string) => {
    const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await res.json()) as { status: string; error?: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
    if (body.status !== "success") throw new Error(`PromQL ${promql}: ${body.error}`);
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  return {
    url,
    query,
    async until(promql, holds, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const values = (await query(promql)).map((s) => s.value);
        if (holds(values)) return values;
        if (Date.now() > end) throw new Error(`${promql} never held within ${timeoutMs} ms; last: ${JSON.stringify(values)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    async names() {
      const res = await fetch(`${url}/api/v1/label/__name__/values`);
      return ((await res.json()) as { data: string[] }).data;
    },
    close,
  };
}
