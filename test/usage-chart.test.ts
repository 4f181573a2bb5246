/**
 * The usage page's chart math and wording (src/dashboard/usage-chart.ts,
 * src/dashboard/rate-limit-text.ts): pure functions, tested without a browser.
 */
import { describe, expect, it } from "vitest";
import { addDays } from "../src/rates/calendar.ts";
import { organizationLimitLabel, rateLimitSentence } from "../src/dashboard/rate-limit-text.ts";
import { contrastRatio, labelledDays, NARROW, niceTicks, SERIES_COLOURS, stackedDailyChart, WIDE } from "../src/dashboard/usage-chart.ts";

/** CIE L*a*b* of a #rrggbb colour (D65), to measure how far apart two colours look. */
function lab(hex: string): [number, number, number] {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  const xyz = [(0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883];
  const [fx, fy, fz] = xyz.map((t) => (t > 216 / 24389 ? Math.cbrt(t) : (t * 24389) / 27 + 16) / (t > 216 / 24389 ? 1 : 116)) as [number, number, number];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
const distance = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]!));

describe("axis ticks: steps of 1, 2 or 5 times a power of ten, from 0 to at or above the highest day", () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [7, [0, 2, 4, 6, 8]],
    [29, [0, 10, 20, 30]],
    [50, [0, 10, 20, 30, 40, 50]],
    [51, [0, 20, 40, 60]],
    [999, [0, 200, 400, 600, 800, 1000]],
    [12_345, [0, 5000, 10_000, 15_000]],
  ])("a highest day of %d requests gives ticks %j", (max, ticks) => {
    expect(niceTicks(max)).toEqual(ticks);
  });

  it("every step is 1, 2 or 5 times a power of ten, and there are at most 5 intervals", () => {
    for (let max = 0; max <= 100_000; max += 37) {
      const ticks = niceTicks(max);
      const step = ticks[1]! - ticks[0]!;
      const power = 10 ** Math.floor(Math.log10(step));
      expect([1, 2, 5]).toContain(step / power);
      expect(ticks.length - 1).toBeLessThanOrEqual(5);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-2)!).toBeLessThan(Math.max(1, max));
    }
  });
});

describe("date labels under the axis: the first and last day always, none crowding the last", () => {
  it("30 days in 8 labels on a desktop, 4 on a phone", () => {
    expect(labelledDays(30, 8)).toEqual([0, 5, 10, 15, 20, 25, 29]);
    expect(labelledDays(30, 4)).toEqual([0, 10, 20, 29]);
  });

  it("drops a label that would sit less than three quarters of a step before the last", () => {
    expect(labelledDays(6, 4)).toEqual([0, 2, 5]);
  });

  it("one day is labelled once; none for no days", () => {
    expect(labelledDays(1, 4)).toEqual([0]);
    expect(labelledDays(0, 4)).toEqual([]);
  });
});

describe("series colours: distinct from one another and visible on the white card", () => {
  it("each has at least 4.5:1 contrast against white (WCAG 1.4.11 asks 3:1 for graphics)", () => {
    for (const colour of SERIES_COLOURS) expect(contrastRatio(colour, "#ffffff"), colour).toBeGreaterThanOrEqual(4.5);
  });

  it("any two are at least 20 apart in CIELAB (clearly different colours, not shades of one)", () => {
    for (const [i, a] of SERIES_COLOURS.entries()) {
      for (const b of SERIES_COLOURS.slice(i + 1)) expect(distance(a, b), `${a} vs ${b}`).toBeGreaterThanOrEqual(20);
    }
  });

  it("the contrast ratio is WCAG's: black on white is 21, a colour on itself 1", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#1d4ed8", "#1d4ed8")).toBe(1);
  });
});

describe("the chart drawing", () => {
  const days = Array.from({ length: 30 }, (_, i) => addDays("2026-10-29", i));
  const counts = Array.from({ length: 30 }, (_, i) => (i === 29 ? 1234 : i % 3));

  it("leaves room for the widest tick label and ends the last date at the right edge, in both sizes", () => {
    for (const size of [WIDE, NARROW]) {
      const svg = stackedDailyChart(days, [{ name: "k", colour: SERIES_COLOURS[0], counts }], size, { id: "c", title: "t", description: "d" }).markup;
      const tick = svg.match(/<text x="([\d.]+)" y="[\d.]+" text-anchor="end">1,500<\/text>/);
      expect(tick, "the top tick is 1,500").not.toBeNull();
      // "1,500" is 5 characters of about 0.62 em; its right edge is at x, so it starts at or after 0.
      expect(Number(tick![1]) - 5 * size.fontSize * 0.62).toBeGreaterThanOrEqual(0);
      expect(svg).toContain(`<text x="${(size.width - 6).toFixed(1)}" y="${size.height - size.fontSize * 0.6}" text-anchor="end">Nov 27</text>`);
      expect(svg).toMatch(/text-anchor="start">Oct 29<\/text>/);
    }
  });
});

describe("the rate limit sentence", () => {
  it("an organization without keys is told what all its keys together may make, not that it can make 0", () => {
    expect(rateLimitSentence(0, 10, 50)).toBe("Your organization has no active keys yet; once it has some, all of them together may make up to 50 requests per second.");
  });

  it("with fewer keys than the organization's limit needs, more keys raise the total up to that limit", () => {
    expect(rateLimitSentence(1, 10, 50)).toBe("With 1 active key, your organization can make up to 10 requests per second in all (10 per key). More keys raise that, up to the organization's limit of 50.");
  });

  it("an organization in trial is told it shares one rate with every organization in trial, never that the rate is its own", () => {
    expect(rateLimitSentence(2, 10, 50, true)).toBe(
      "Your organization is in trial: until Buckeye verifies it, its keys and those of every other organization in trial share 50 requests per second, so yours may get fewer when others are busy.",
    );
    expect(organizationLimitLabel(true)).toBe("requests per second, shared by every organization in trial, yours included");
    expect(organizationLimitLabel(false)).toBe("requests per second, for your organization across all its keys");
  });

  it("with enough keys, the organization's limit is the total and more keys do not raise it", () => {
    expect(rateLimitSentence(7, 10, 50)).toBe("With 7 active keys, your organization can make up to 50 requests per second in all, the organization's limit; more keys do not raise it.");
  });
});
