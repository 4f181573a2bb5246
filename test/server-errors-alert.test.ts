/**
 * What the page alert for server errors (docs/operations/prometheus-alerts.yml, BuckeyeServerErrors)
 * counts, checked by Prometheus's own rule tester (`promtool test rules`) over synthetic series: 5xx
 * answers that are faults page; 503 `batch-uploads-busy`, an upload refused for lack of room, does not.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runPromtool } from "./_prometheus.ts";

const RULES = resolve("docs/operations/prometheus-alerts.yml");

/** A rule test over 20 minutes of synthetic series: 100 answers a minute, `failing` of them 503s, each counted as problem `type`. */
function ruleTest(type: string, firing: boolean): string {
  const alert = firing
    ? `        exp_alerts:\n          - exp_labels: { severity: page }\n            exp_annotations: { summary: "More than 1% of answers are 5xx (5%); see buckeye_problems_total by type" }\n`
    : "        exp_alerts: []\n";
  return [
    `rule_files: ["${RULES}"]`,
    "evaluation_interval: 1m",
    "tests:",
    "  - interval: 1m",
    "    input_series:",
    `      - series: 'buckeye_http_requests_total{route="/api/v1/rates",method="GET",status="200"}'`,
    "        values: '0+95x20'",
    `      - series: 'buckeye_http_requests_total{route="/api/v1/batches",method="POST",status="503"}'`,
    "        values: '0+5x20'",
    `      - series: 'buckeye_problems_total{type="${type}"}'`,
    "        values: '0+5x20'",
    "    alert_rule_test:",
    "      - eval_time: 15m",
    "        alertname: BuckeyeServerErrors",
    alert,
  ].join("\n");
}

function promtool(test: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), "buckeye-alerts-"));
  try {
    const file = join(dir, "test.yml");
    writeFileSync(file, test);
    const run = runPromtool(["test", "rules", file]);
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("BuckeyeServerErrors pages on faults, not on uploads refused for room", () => {
  it("5% of answers 503 geocoder-unavailable (a fault upstream): the alert fires", () => {
    const run = promtool(ruleTest("geocoder-unavailable", true));
    expect(run.output).toContain("SUCCESS");
    expect(run.status).toBe(0);
  });

  it("5% of answers 503 batch-uploads-busy (an upload refused for lack of room): the alert stays quiet", () => {
    const run = promtool(ruleTest("batch-uploads-busy", false));
    expect(run.output).toContain("SUCCESS");
    expect(run.status).toBe(0);
  });
});
