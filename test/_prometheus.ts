/**
 * A real Prometheus (Debian's `prometheus` package, .ci/run installs it) for the tests: started on a
 * free loopback port with a temp config that scrapes one target every second, queried through its
 * HTTP API (/api/v1/query, PromQL) as an operator's dashboards and alerts would.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { freePort } from "./_http.ts";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const close = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
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
