/** RequestSeries scrapes exactly like prom-client's own Counter and Histogram fed the same requests. */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestSeries } from './request-series.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const NAMES = { counter: 'reqs_total', counterHelp: 'Requests.', histogram: 'latency_seconds', histogramHelp: 'Latency.' };

type Request = readonly [endpoint: string, method: string, status: number, seconds: number];

const CASES: readonly [string, readonly Request[]][] = [
  ['nothing counted', []],
  ['one request', [['sql:A', 'GET', 200, 0.004]]],
  [
    'several series, statuses, bucket edges and a value above every bound',
    [
      ['sql:A', 'GET', 200, 0.001],
      ['sql:A', 'GET', 404, 0.0100001],
      ['sql:A', 'POST', 201, 0.5],
      ['/api/*', 'GET', 404, 0],
      ['sql:A', 'GET', 200, 7],
      ['sql:B', 'GET', 200, 1],
    ],
  ],
];

function withPromClient(requests: readonly Request[]): Registry {
  const registry = new Registry();
  const counter = new Counter({ name: NAMES.counter, help: NAMES.counterHelp, labelNames: ['endpoint', 'method', 'status'], registers: [registry] });
  const histogram = new Histogram({ name: NAMES.histogram, help: NAMES.histogramHelp, labelNames: ['endpoint', 'method'], buckets: BOUNDS, registers: [registry] });
  for (const [endpoint, method, status, seconds] of requests) {
    counter.inc({ endpoint, method, status });
    histogram.observe({ endpoint, method }, seconds);
  }
  return registry;
}

describe('RequestSeries', () => {
  it.each(CASES)('%s', async (_name, requests) => {
    const registry = new Registry();
    const series = new RequestSeries(registry, NAMES, BOUNDS);
    for (const [endpoint, method, status, seconds] of requests) series.record(endpoint, method, status, seconds);
    const want = withPromClient(requests);
    expect(await registry.metrics()).toBe(await want.metrics());
    expect(await registry.getMetricsAsJSON()).toEqual(await want.getMetricsAsJSON());
    // a second scrape shows the same totals (the counter keeps what it was handed)
    expect(await registry.metrics()).toBe(await want.metrics());
  });
});
