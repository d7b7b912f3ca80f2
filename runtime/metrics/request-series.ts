/**
 * Requests by endpoint, method and status and their latency histogram, counted on the request
 * path with no label objects, hashing or validation per request (prom-client's per-call work):
 * each (endpoint, method) pair is looked up in two Maps and its numbers are bumped in place. The
 * scrape reads them as prom-client metrics: the counter is brought up to date in its collect(),
 * the histogram is a metric object of its own, rendered exactly as prom-client renders one.
 */
import { Counter, type Registry } from 'prom-client';

interface Series {
  readonly labels: { readonly endpoint: string; readonly method: string };
  /** status -> requests not yet handed to the prom-client counter. */
  readonly pending: Map<number, number>;
  /** Per bucket (not cumulative), the last one is +Inf only. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

interface SampleValue {
  readonly value: number;
  readonly labels: Record<string, string | number>;
  readonly sharedLabels?: Record<string, string>;
  readonly metricName: string;
  /** prom-client's buckets carry `exemplar: null` (exemplars are off). */
  readonly exemplar?: null;
}

interface HistogramData {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram';
  readonly values: SampleValue[];
  readonly aggregator: 'sum';
}

export class RequestSeries {
  readonly #byEndpoint = new Map<string, Map<string, Series>>();
  readonly #all: Series[] = [];
  /** prom-client's metric interface for the histogram (Registry.registerMetric). */
  readonly histogram: {
    readonly name: string;
    readonly help: string;
    readonly type: 'histogram';
    readonly aggregator: 'sum';
    /** Samples with the series labels apart (what Registry renders as text). */
    getForPromString(): Promise<HistogramData>;
    /** Samples with every label in `labels` (getMetricsAsJSON). */
    get(): Promise<HistogramData>;
    reset(): void;
  };

  constructor(
    registry: Registry,
    names: { readonly counter: string; readonly counterHelp: string; readonly histogram: string; readonly histogramHelp: string },
    readonly bounds: readonly number[],
  ) {
    const all = this.#all;
    new Counter({
      name: names.counter,
      help: names.counterHelp,
      labelNames: ['endpoint', 'method', 'status'] as const,
      registers: [registry],
      collect() {
        for (const series of all) {
          for (const [status, n] of series.pending) this.inc({ ...series.labels, status }, n);
          series.pending.clear();
        }
      },
    });
    const name = names.histogram;
    this.histogram = {
      name,
      help: names.histogramHelp,
      type: 'histogram',
      aggregator: 'sum',
      getForPromString: async () => ({ name, help: names.histogramHelp, type: 'histogram', values: this.#histogramValues(name), aggregator: 'sum' }),
      get: async () => ({
        name,
        help: names.histogramHelp,
        type: 'histogram',
        values: this.#histogramValues(name).map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })),
        aggregator: 'sum',
      }),
      reset: () => {
        for (const series of all) {
          series.buckets.fill(0);
          series.sum = 0;
          series.count = 0;
        }
      },
    };
    registry.registerMetric(this.histogram as never);
  }

  /** One answered request. */
  record(endpoint: string, method: string, status: number, seconds: number): void {
    let byMethod = this.#byEndpoint.get(endpoint);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#byEndpoint.set(endpoint, byMethod);
    }
    let series = byMethod.get(method);
    if (series === undefined) {
      series = { labels: { endpoint, method }, pending: new Map(), buckets: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
      byMethod.set(method, series);
      this.#all.push(series);
    }
    series.pending.set(status, (series.pending.get(status) ?? 0) + 1);
    const bounds = this.bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > (bounds[bucket] as number)) bucket += 1;
    series.buckets[bucket] = (series.buckets[bucket] as number) + 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** The samples prom-client's Histogram gives: cumulative buckets, +Inf, _sum, _count per series. */
  #histogramValues(name: string): SampleValue[] {
    const values: SampleValue[] = [];
    for (const series of this.#all) {
      const shared = series.labels;
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.buckets[i] as number;
        values.push({ value: cumulative, labels: { le }, sharedLabels: shared, metricName: `${name}_bucket`, exemplar: null });
      });
      values.push({ value: series.count, labels: { le: '+Inf' }, sharedLabels: shared, metricName: `${name}_bucket`, exemplar: null });
      values.push({ value: series.sum, labels: {}, sharedLabels: shared, metricName: `${name}_sum` });
      values.push({ value: series.count, labels: {}, sharedLabels: shared, metricName: `${name}_count` });
    }
    return values;
  }
}
