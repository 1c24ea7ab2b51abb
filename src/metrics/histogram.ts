// A Prometheus histogram whose series are made once and then observed without allocating.
// prom-client's own Histogram builds and hashes a label object on every observation; on the request
// path that is garbage per request, so callers here keep a `Series` per label set and observe it.
// The registry (prom-client's) reads these through the same `get()` contract as its own metrics.
export type Labels = Readonly<Record<string, string>>;

export class Series {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && value > this.bounds[bucket]!) bucket++;
    this.counts[bucket]!++;
    this.sum += value;
    this.count++;
  }
}

/** A line as prom-client's registry reads it (`metricName` names the line). */
interface Line {
  metricName: string;
  labels: Readonly<Record<string, string | number>>;
  value: number;
}

/** What prom-client's `Registry.registerMetric` needs of a metric. */
export interface ExportedMetric {
  name: string;
  get(): Promise<{ name: string; help: string; type: "histogram" | "counter"; values: Line[]; aggregator: "sum" }>;
}

export class SeriesHistogram implements ExportedMetric {
  readonly #series: Series[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  /** A new series; the caller keeps it (creating the same label set twice exports it twice). */
  series(labels: Labels): Series {
    const series = new Series(labels, this.buckets);
    this.#series.push(series);
    return series;
  }

  /** Every series made so far. */
  all(): readonly Series[] {
    return this.#series;
  }

  async get() {
    const values: Line[] = [];
    for (const series of this.#series) {
      let cumulative = 0;
      for (let bucket = 0; bucket <= this.buckets.length; bucket++) {
        cumulative += series.counts[bucket]!;
        const le = bucket < this.buckets.length ? this.buckets[bucket]! : "+Inf";
        values.push({ metricName: `${this.name}_bucket`, labels: { ...series.labels, le }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: series.labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: series.labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: "histogram" as const, values, aggregator: "sum" as const };
  }
}

/** A counter read from a histogram's series counts at scrape time: the count costs nothing extra to keep. */
export class SeriesCounter implements ExportedMetric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly histogram: SeriesHistogram,
  ) {}

  async get() {
    const values = this.histogram.all().map((series): Line => ({ metricName: this.name, labels: series.labels, value: series.count }));
    return { name: this.name, help: this.help, type: "counter" as const, values, aggregator: "sum" as const };
  }
}
