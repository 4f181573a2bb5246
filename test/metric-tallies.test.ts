import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { TalliedCounter, TalliedHistogram } from "../src/metric-tallies.ts";
import { REQUEST_SECONDS_BUCKETS } from "../src/metrics.ts";

/** Each sample line as name, sorted labels and value: the label order within braces means nothing to Prometheus. */
function samples(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = (match[2] ?? "").split(/,(?=\w+=")/).filter(Boolean).sort().join(",");
      return `${match[1]}{${labels}} ${match[3]}`;
    })
    .sort();
}

describe("tallied metrics read as prom-client's own", () => {
  it("a tallied histogram's text equals prom-client's histogram given the same observations", async () => {
    const [ours, theirs] = [new Registry(), new Registry()];
    const tallied = new TalliedHistogram("t_seconds", "help", REQUEST_SECONDS_BUCKETS, ours);
    const reference = new Histogram({ name: "t_seconds", help: "help", labelNames: ["route", "method"], buckets: REQUEST_SECONDS_BUCKETS, registers: [theirs] });
    const observations: Array<[string, string, number]> = [
      ["/api/v1/rates", "GET", 0.0001], ["/api/v1/rates", "GET", 0.00025], ["/api/v1/rates", "GET", 0.004],
      ["/api/v1/rates", "POST", 12], ["unmatched", "GET", 0.3], ["/api/v1/rates", "GET", 10],
    ];
    for (const [route, method, seconds] of observations) {
      tallied.cell({ route, method }).observe(seconds);
      reference.observe({ route, method }, seconds);
    }
    expect(samples(await ours.metrics())).toEqual(samples(await theirs.metrics()));
    expect(samples(await ours.metrics())).toContain('t_seconds_bucket{le="+Inf",method="POST",route="/api/v1/rates"} 1');
  });

  it("a tallied counter's text equals prom-client's counter, and a label set asked for twice is one series", async () => {
    const [ours, theirs] = [new Registry(), new Registry()];
    const tallied = new TalliedCounter("t_total", "help", ours);
    const reference = new Counter({ name: "t_total", help: "help", labelNames: ["route", "status"], registers: [theirs] });
    for (const [route, status] of [["/a", "200"], ["/a", "200"], ["/a", "404"], ["/b", "200"]] as const) {
      tallied.cell({ route, status }).value += 1;
      reference.inc({ route, status });
    }
    tallied.inc({ route: "/b", status: "200" });
    reference.inc({ route: "/b", status: "200" });
    expect(samples(await ours.metrics())).toEqual(samples(await theirs.metrics()));
    expect(samples(await ours.metrics())).toEqual(['t_total{route="/a",status="200"} 2', 't_total{route="/a",status="404"} 1', 't_total{route="/b",status="200"} 2']);
  });

  it("a reset empties every cell, as prom-client's resetMetrics does", async () => {
    const registry = new Registry();
    const tallied = new TalliedHistogram("r_seconds", "help", [1], registry);
    tallied.cell({ route: "/a" }).observe(0.5);
    registry.resetMetrics();
    expect(samples(await registry.metrics())).toEqual(['r_seconds_bucket{le="+Inf",route="/a"} 0', 'r_seconds_bucket{le="1",route="/a"} 0', 'r_seconds_count{route="/a"} 0', 'r_seconds_sum{route="/a"} 0']);
  });
});
