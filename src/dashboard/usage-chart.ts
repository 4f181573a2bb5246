/**
 * Server-rendered SVG charts of requests per day: a stacked bar chart (one colour per key) and a
 * per-key sparkline. Pure functions of the counts; colours are presentation attributes, since
 * the dashboard's CSP allows no inline styles. The axis, label and colour rules are in
 * docs/guides/dashboard.md ("Usage chart").
 */
import { html, type SafeHtml } from "./html.ts";

/**
 * Eight hues far apart from one another, each at least 4.5:1 against the white card, so a bar
 * stands out from its background (WCAG 1.4.11 asks 3:1) and a legend swatch reads as a colour,
 * not a shade of the one before it. Segments of a stacked bar are also parted by a white gap.
 */
export const SERIES_COLOURS = ["#1d4ed8", "#c2410c", "#0b7a5a", "#7c3aed", "#a16207", "#be185d", "#0e7490", "#57534e"] as const;

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

/** The WCAG relative luminance of a #rrggbb colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two #rrggbb colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Axis ticks for values up to `max`: evenly spaced by 1, 2 or 5 times a power of ten, from 0 to
 * the first tick at or above `max`, with at most `most` intervals. 29 → 0, 10, 20, 30.
 */
export function niceTicks(max: number, most = 5): number[] {
  const top = Math.max(1, Math.ceil(max));
  let power = 1;
  for (;;) {
    for (const multiple of [1, 2, 5]) {
      const step = multiple * power;
      const intervals = Math.ceil(top / step);
      if (intervals <= most) return Array.from({ length: intervals + 1 }, (_, i) => i * step);
    }
    power *= 10;
  }
}

/**
 * Which of `count` days get a date under the axis: the first and the last always, and between
 * them every `every`-th day that leaves at least three quarters of a step before the last (which
 * ends at the right edge), so two labels never run into each other.
 */
export function labelledDays(count: number, most: number): number[] {
  if (count <= 0) return [];
  if (count === 1) return [0];
  const every = Math.max(1, Math.ceil((count - 1) / Math.max(1, most - 1)));
  const shown: number[] = [];
  for (let i = 0; i < count - 1; i += every) if (i === 0 || count - 1 - i >= every * 0.75) shown.push(i);
  shown.push(count - 1);
  return shown;
}

/** The shape of one rendering: a wide one for desktops, a narrow one for phones. */
export interface ChartSize {
  width: number;
  height: number;
  /** Text size in the drawing's units, which are about CSS pixels at the size it is shown. */
  fontSize: number;
  /** How many dates fit under the axis. */
  dateLabels: number;
}

export const WIDE: ChartSize = { width: 860, height: 240, fontSize: 13, dateLabels: 8 };
export const NARROW: ChartSize = { width: 340, height: 220, fontSize: 12, dateLabels: 4 };

const TOP = 12;
const RIGHT = 6;

export interface ChartText {
  id: string;
  title: string;
  description: string;
  className?: string;
}

export function stackedDailyChart(days: readonly string[], series: readonly Series[], size: ChartSize, text: ChartText): SafeHtml {
  const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks[ticks.length - 1]!;
  const tickText = ticks.map((t) => t.toLocaleString("en-US"));
  // Room for the longest tick label (digits are about 0.6 em wide), so "1,000" is never cut to ",000".
  const left = Math.ceil(Math.max(...tickText.map((t) => t.length)) * size.fontSize * 0.62) + 10;
  const bottom = Math.ceil(size.fontSize * 2.2);
  const plotWidth = size.width - left - RIGHT;
  const plotHeight = size.height - TOP - bottom;
  const band = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, band * 0.72);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;

  const bars = days.map((day, i) => {
    let base = 0;
    const x = left + i * band + (band - barWidth) / 2;
    return series.map((s) => {
      const count = s.counts[i] ?? 0;
      if (count === 0) return "";
      const y0 = y(base);
      base += count;
      const y1 = y(base);
      return html`<rect x="${x.toFixed(1)}" y="${y1.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${Math.max(1, y0 - y1).toFixed(1)}" fill="${s.colour}"><title>${dayLabel(day)} · ${s.name}: ${count.toLocaleString("en-US")} requests</title></rect>`;
    });
  });

  const last = days.length - 1;
  const dateLabel = (i: number) => {
    // The first date starts at the plot's left edge and the last ends at its right, so neither is cut off.
    const [x, anchor] = i === 0 && last > 0 ? [left, "start"] : i === last && last > 0 ? [size.width - RIGHT, "end"] : [left + i * band + band / 2, "middle"];
    return html`<text x="${x.toFixed(1)}" y="${size.height - size.fontSize * 0.6}" text-anchor="${anchor}">${dayLabel(days[i]!)}</text>`;
  };

  return html`<svg class="chart${text.className ? ` ${text.className}` : ""}" viewBox="0 0 ${size.width} ${size.height}" role="img" aria-labelledby="${text.id}-title ${text.id}-desc" font-size="${size.fontSize}">
  <title id="${text.id}-title">${text.title}</title>
  <desc id="${text.id}-desc">${text.description}</desc>
  <g class="chart-grid">
    ${ticks.map(
      (t, i) => html`<line x1="${left}" x2="${size.width - RIGHT}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"></line><text x="${left - 8}" y="${(y(t) + size.fontSize * 0.35).toFixed(1)}" text-anchor="end">${tickText[i]}</text>`,
    )}
  </g>
  <g class="chart-bars">${bars}</g>
  <g class="chart-axis">${labelledDays(days.length, size.dateLabels).map(dateLabel)}</g>
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
