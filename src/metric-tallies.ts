/**
 * Counters and histograms the request path adds to with plain arithmetic, read by Prometheus through
 * prom-client's registry like any other metric (docs/operations/metrics.md).
 *
 * Why not prom-client's own: its labelled children hash their labels on every `inc` and `observe`
 * (about 0.45 µs each here), and an answer counted and timed paid that twice, on a county lookup whose
 * own work is a few µs (docs/operations/benchmarks.md, "Middleware budget"). A cell here is bound to its
 * labels once; counting is `cell.value += 1`, and the text Prometheus reads is built at scrape time.
 * They are registered in prom-client's default registry, whose text format they follow.
 */
import { register, type Registry } from "prom-client";

type Labels = Record<string, string>;

interface Sample {
  labels: Labels;
  value: number;
  metricName?: string;
}

/** What prom-client's registry reads from a metric (`Registry.getMetricsAsString`). */
interface RegistryMetric {
  name: string;
  help: string;
  type: "counter" | "histogram";
}

export interface CounterCell {
  value: number;
}

/** One cell per label set, however often it is asked for: a series twice in one scrape is refused by Prometheus. */
class Cells<C> {
  readonly #byKey = new Map<string, { labels: Labels; cell: C }>();

  for(labels: Labels, make: () => C): C {
    const key = Object.values(labels).join("\u0000");
    let entry = this.#byKey.get(key);
    if (!entry) this.#byKey.set(key, (entry = { labels, cell: make() }));
    return entry.cell;
  }

  get all(): Iterable<{ labels: Labels; cell: C }> {
    return this.#byKey.values();
  }
}

export class TalliedCounter implements RegistryMetric {
  readonly type = "counter";
  readonly #cells = new Cells<CounterCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry = register,
  ) {
    registry.registerMetric(this as never);
  }

  /** The cell counting `labels`; a caller on the request path keeps it, so the labels are looked up once. */
  cell(labels: Labels): CounterCell {
    return this.#cells.for(labels, () => ({ value: 0 }));
  }

  /** Adds one to `labels`' cell, for callers off the request path. */
  inc(labels: Labels): void {
    this.cell(labels).value += 1;
  }

  get(): { name: string; help: string; type: string; values: Sample[]; aggregator: string } {
    return { name: this.name, help: this.help, type: this.type, aggregator: "sum", values: [...this.#cells.all].map(({ labels, cell }) => ({ labels, value: cell.value })) };
  }

  reset(): void {
    for (const { cell } of this.#cells.all) cell.value = 0;
  }
}

export class HistogramCell {
  /** counts[i]: observations at most buckets[i] and above buckets[i - 1]. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly buckets: readonly number[]) {
    this.counts = new Float64Array(buckets.length);
  }

  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    const { buckets } = this;
    for (let i = 0; i < buckets.length; i++) {
      if (value <= buckets[i]!) {
        this.counts[i]! += 1;
        return;
      }
    }
  }
}

export class TalliedHistogram implements RegistryMetric {
  readonly type = "histogram";
  readonly #cells = new Cells<HistogramCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
    registry: Registry = register,
  ) {
    registry.registerMetric(this as never);
  }

  cell(labels: Labels): HistogramCell {
    return this.#cells.for(labels, () => new HistogramCell(this.buckets));
  }

  /** The samples in prom-client's order: each bucket cumulatively, `+Inf`, then `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; values: Sample[]; aggregator: string } {
    const values: Sample[] = [];
    for (const { labels, cell } of this.#cells.all) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += cell.counts[i]!;
        values.push({ labels: { ...labels, le: String(le) }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { ...labels, le: "+Inf" }, value: cell.count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: cell.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: "sum", values };
  }

  reset(): void {
    for (const { cell } of this.#cells.all) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }
}
