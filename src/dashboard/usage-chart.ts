/**
 * Server-rendered SVG charts of requests per day: a stacked bar chart (one colour per key) and a
 * per-key sparkline. Pure functions of the counts; colours are presentation attributes, since
 * the dashboard's CSP allows no inline styles.
 */
import { html, type SafeHtml } from "./html.ts";

export const SERIES_COLOURS = ["#0b6e4f", "#2563eb", "#c2410c", "#7c3aed", "#be185d", "#0e7490", "#4d7c0f", "#b91c1c"];

export interface Series {
  name: string;
  colour: string;
  /** One count per day, aligned with the chart's days. */
  counts: number[];
}

/** "2026-11-03" → "Nov 3" */
export function dayLabel(day: string): string {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
}

/** A round axis maximum at or above `max`: 1, 2, 5 × a power of ten. */
export function niceCeiling(max: number): number {
  if (max <= 4) return 4;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const WIDTH = 720;
const HEIGHT = 260;
const LEFT = 52;
const RIGHT = 8;
const TOP = 12;
const BOTTOM = 30;

export function stackedDailyChart(days: readonly string[], series: readonly Series[], description: string): SafeHtml {
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0));
  const top = niceCeiling(Math.max(0, ...totals));
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const band = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, band * 0.72);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(top * f));
  const labelEvery = Math.ceil(days.length / 6);

  const bars = days.map((day, i) => {
    let base = 0;
    const x = LEFT + i * band + (band - barWidth) / 2;
    return series.map((s) => {
      const count = s.counts[i] ?? 0;
      if (count === 0) return "";
      const y0 = y(base);
      base += count;
      const y1 = y(base);
      return html`<rect x="${x.toFixed(1)}" y="${y1.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(1, y0 - y1).toFixed(1)}" fill="${s.colour}"><title>${dayLabel(day)} · ${s.name}: ${count.toLocaleString("en-US")} requests</title></rect>`;
    });
  });

  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMidYMid meet">
  <title id="chart-title">Requests per day, last ${days.length} days</title>
  <desc id="chart-desc">${description}</desc>
  <g class="chart-grid">
    ${ticks.map(
      (t) => html`<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"></line><text x="${LEFT - 8}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${t.toLocaleString("en-US")}</text>`,
    )}
  </g>
  <g class="chart-bars">${bars}</g>
  <g class="chart-axis">
    ${days.map((day, i) =>
      i % labelEvery === 0 || i === days.length - 1
        ? html`<text x="${(LEFT + i * band + band / 2).toFixed(1)}" y="${HEIGHT - 10}" text-anchor="middle">${dayLabel(day)}</text>`
        : "",
    )}
  </g>
</svg>`;
}

/** A small bar chart of one key's days, decorative next to its numbers (hidden from screen readers). */
export function sparkline(counts: readonly number[], colour: string): SafeHtml {
  const width = 150;
  const height = 32;
  const top = Math.max(1, ...counts);
  const band = width / Math.max(1, counts.length);
  return html`<svg class="sparkline" viewBox="0 0 ${width} ${height}" aria-hidden="true" focusable="false"><line x1="0" x2="${width}" y1="${height - 0.5}" y2="${height - 0.5}" stroke="#d6dbe1"></line>${counts.map((c, i) => {
    if (c === 0) return "";
    const h = Math.max(1.5, (c / top) * (height - 2));
    return html`<rect x="${(i * band + band * 0.15).toFixed(1)}" y="${(height - h).toFixed(1)}" width="${(band * 0.7).toFixed(1)}" height="${h.toFixed(1)}" fill="${colour}"></rect>`;
  })}</svg>`;
}

/** A colour swatch for legends (an SVG, since inline styles are not allowed). */
export function swatch(colour: string): SafeHtml {
  return html`<svg class="swatch" viewBox="0 0 12 12" aria-hidden="true" focusable="false"><rect width="12" height="12" rx="3" fill="${colour}"></rect></svg>`;
}
