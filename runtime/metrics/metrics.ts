/**
 * Prometheus metrics (prom-client), one registry per server: requests by endpoint, method and
 * status; latency histograms; requests in flight; database pool usage per environment; response
 * cache hits and misses; rate-limit rejections; upstream failed attempts and retries; and Node's
 * process metrics. Counting happens in the gateway's one synchronous onResponse hook (lifecycle/response-observers.ts) from facts the request
 * already carries (resolved endpoint id, X-Cache, X-RateLimit-Resource), so the hot path gains no
 * await; requests and latency are counted in place per series (request-series.ts) and handed to
 * prom-client when scraped. The same hook feeds the console's last hour of traffic
 * (traffic-history.ts, `WharfMetrics.traffic`). What it counts from outside the request is handed in
 * (MetricsSources): requests in flight and the SQL pools.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { observeResponses } from '../lifecycle/response-observers.js';
import { RequestSeries } from './request-series.js';
import { TrafficHistory } from './traffic-history.js';
import type { PoolStats } from '../sql/drivers/driver.js';

/** Seconds; the pipeline answers in well under a millisecond, the database decides the rest. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface WharfMetrics {
  readonly registry: Registry;
  /** The last hour of traffic, for the console's charts. */
  readonly traffic: TrafficHistory;
  /** An upstream exchange with failed attempts: each failed attempt by kind; `sent` requests, of which all but the first were retries. */
  upstreamFailures(endpoint: string, failures: readonly { readonly kind: string }[], sent: number): void;
}

/** What the gauges read when scraped. */
export interface MetricsSources {
  /** Requests in flight (the request gate). */
  inFlight(): number;
  /** Pool usage per environment (the SQL drivers; none when a test brought its own SQL handler). */
  poolStats(): readonly { readonly environment: string; readonly provider: string; readonly stats: PoolStats }[];
}

export function installMetrics(app: FastifyInstance, sources: MetricsSources): WharfMetrics {
  const registry = new Registry();
  const history = new TrafficHistory(LATENCY_BUCKETS);
  collectDefaultMetrics({ register: registry });
  const requests = new RequestSeries(
    registry,
    {
      counter: 'wharf_http_requests_total',
      counterHelp: 'HTTP requests answered, by endpoint, method and status.',
      histogram: 'wharf_http_request_duration_seconds',
      histogramHelp: 'Time from receiving a request to the end of its response, by endpoint and method.',
    },
    LATENCY_BUCKETS,
  );
  const cache = new Counter({
    name: 'wharf_cache_lookups_total',
    help: 'Response cache lookups of cacheable reads, by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'wharf_rate_limit_rejections_total',
    help: 'Requests refused with 429, by limited resource (ip or token).',
    labelNames: ['resource'] as const,
    registers: [registry],
  });
  const upstreamFailed = new Counter({
    name: 'wharf_upstream_failed_attempts_total',
    help: 'Proxy and Composite upstream attempts that failed, by endpoint and kind (connection, timeout, status, blocked, circuit-open).',
    labelNames: ['endpoint', 'kind'] as const,
    registers: [registry],
  });
  const upstreamRetries = new Counter({
    name: 'wharf_upstream_retries_total',
    help: 'Upstream requests sent after the first of an exchange (a retry or a fallback URL), by endpoint.',
    labelNames: ['endpoint'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'wharf_http_requests_in_flight',
    help: 'Requests being processed now.',
    registers: [registry],
    collect() {
      this.set(sources.inFlight());
    },
  });
  new Gauge({
    name: 'wharf_db_pool_connections',
    help: 'Database pool connections per environment: open (total), idle, and callers waiting for one.',
    labelNames: ['environment', 'provider', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { environment, provider, stats } of sources.poolStats()) {
        this.set({ environment, provider, state: 'total' }, stats.total);
        this.set({ environment, provider, state: 'idle' }, stats.idle);
        this.set({ environment, provider, state: 'waiting' }, stats.waiting);
      }
    },
  });

  observeResponses(app, (request, reply) => {
    // the endpoint label: the resolved endpoint id for /api, else the route pattern (`/api/*` before
    // resolution), `none` without a route; routeOptions builds an object on every read, so it is
    // only asked when the request resolved no endpoint
    const endpoint = request.wharfApi?.match?.endpoint.id ?? request.routeOptions.url ?? 'none';
    const status = reply.statusCode;
    requests.record(endpoint, request.method, status, reply.elapsedTime / 1000);
    const hit = reply.getHeader('x-cache');
    if (hit === 'HIT') cache.inc({ result: 'hit' });
    else if (hit === 'MISS') cache.inc({ result: 'miss' });
    // the console's own requests stay out of the charts it draws
    if (!endpoint.startsWith('/ui')) history.record(endpoint, status, reply.elapsedTime / 1000, hit === 'HIT' ? 'hit' : hit === 'MISS' ? 'miss' : null);
    if (status === 429) rateLimited.inc({ resource: String(reply.getHeader('x-ratelimit-resource') ?? 'unknown') });
  });
  return {
    registry,
    traffic: history,
    upstreamFailures(endpoint, failures, sent) {
      for (const failure of failures) upstreamFailed.inc({ endpoint, kind: failure.kind });
      if (sent > 1) upstreamRetries.inc({ endpoint }, sent - 1);
    },
  };
}
