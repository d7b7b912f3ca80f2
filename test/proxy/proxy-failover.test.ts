/** Retry, failover, timeouts, circuit breaker and the network policy through the running server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxy, proxyServer } from './proxy-server.js';
import { startUpstream } from './upstream-server.js';
import type { Upstream } from './upstream-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';
import { freePort } from '../setup/free-port.js';
import { parsePrometheusText, sampleValue } from '../operations/prometheus-text.js';

let upstream: Upstream;
let server: TestServer;
let dead: string;

beforeAll(async () => {
  upstream = await startUpstream();
  dead = `http://127.0.0.1:${await freePort()}`; // nothing listens: connection refused
  const o = upstream.origin;
  server = await proxyServer(
    [
      proxy('Once', { url: `${o}/flaky/once?fail=1` }, ['GET']),
      proxy('Retried', { url: `${o}/flaky/retried?fail=2`, retry: { attempts: 3, delayMs: 10 } }, ['GET', 'POST']),
      proxy('RetryTooFew', { url: `${o}/flaky/few?fail=5`, retry: { attempts: 2, delayMs: 1 } }, ['GET']),
      proxy('NotTransient', { url: `${o}/flaky/nt?fail=1&status=500`, retry: { attempts: 3, delayMs: 1 } }, ['GET']),
      proxy('Fallback', { url: `${dead}/x`, fallbackUrls: [`${o}/echo/fallback`] }, ['GET', 'POST']),
      proxy('AllDead', { url: `${dead}/x`, fallbackUrls: [`${o}/status/503`], retry: { attempts: 2, delayMs: 1 } }, ['GET']),
      proxy('Hang', { url: `${o}/hang` }, ['GET']),
      proxy('SlowDefault', { url: `${o}/slow?ms=2000` }, ['GET']),
      proxy('SlowLonger', { url: `${o}/slow?ms=2000`, timeoutMs: 6000 }, ['GET']),
      proxy('HangThenOk', { url: `${o}/hang`, fallbackUrls: [`${o}/echo/after-hang`] }, ['GET']),
      proxy('Reset', { url: `${o}/reset`, retry: { attempts: 2, delayMs: 1 } }, ['GET']),
      proxy('Metadata', { url: 'http://169.254.169.254/latest/meta-data' }, ['GET']),
      proxy('MetadataThenOk', { url: 'http://169.254.169.254/x', fallbackUrls: [`${o}/echo/safe`] }, ['GET']),
      proxy('CountedRetry', { url: `${o}/flaky/counted?fail=1`, fallbackUrls: [`${dead}/y`], retry: { attempts: 2, delayMs: 1 } }, ['GET']),
      proxy('CountedAllFail', { url: `${dead}/z`, fallbackUrls: ['http://169.254.169.254/z'], retry: { attempts: 2, delayMs: 1 } }, ['GET']),
    ],
    { ReplayBodyLimitBytes: 16, CircuitBreaker: { ConsecutiveFailures: 0 } },
  );
});

afterAll(async () => {
  await server.close();
  await upstream.close();
});

function failures(traceId: string): unknown[] {
  const line = server.logs.lines().find((l) => l['traceId'] === traceId && l['event'] === 'proxy.attempts_failed');
  return (line?.['failures'] as unknown[]) ?? [];
}

describe('retry and failover (spec rules 1-3)', () => {
  it('without Retry or FallbackUrls makes exactly one attempt; a 503 becomes 502 with traceId', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Once' });
    expect(res.statusCode).toBe(502);
    const body = res.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: 'The upstream service is unavailable.', traceId: body.traceId });
    expect(upstream.hits.get('/flaky/once')).toBe(1);
    expect(failures(body.traceId)).toEqual([{ url: `${upstream.origin}/flaky/once?fail=1`, kind: 'status', status: 503, detail: 'upstream answered 503' }]);
    expect(res.body).not.toContain(upstream.origin);
  });

  it('retries a URL Attempts times, then succeeds', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Retried' });
    expect(res.statusCode).toBe(200);
    expect(upstream.hits.get('/flaky/retried')).toBe(3);
  });

  it('gives up after Attempts tries', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/RetryTooFew' });
    expect(res.statusCode).toBe(502);
    expect(upstream.hits.get('/flaky/few')).toBe(2);
  });

  it('passes any other status through without another attempt', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/NotTransient' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ failed: 1 });
    expect(upstream.hits.get('/flaky/nt')).toBe(1);
  });

  it('fails over to the fallback URL when the primary refuses connections, replaying the body', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/demo/Fallback/sub?q=1', headers: { 'content-type': 'application/json' }, payload: '{"small":1}' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ path: '/echo/fallback/sub', query: '?q=1', body: '{"small":1}' });
  });

  it('makes one attempt in total when the body is larger than the replay bound', async () => {
    const res = await server.inject({ method: 'POST', url: '/api/demo/Fallback', headers: { 'content-type': 'application/json' }, payload: '{"big":"0123456789abcdef"}' });
    expect(res.statusCode).toBe(502);
    expect(upstream.hits.get('/echo/fallback')).toBeUndefined(); // the fallback URL was never tried
    expect(failures((res.json() as { traceId: string }).traceId)).toHaveLength(1);
  });

  it('answers 502 when every URL failed; 504 when the last failure was a timeout', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/AllDead' });
    expect(res.statusCode).toBe(502);
    const kinds = failures((res.json() as { traceId: string }).traceId).map((f) => (f as { kind: string }).kind);
    expect(kinds).toEqual(['connection', 'connection', 'status', 'status']);
    const hang = await server.inject({ method: 'GET', url: '/api/demo/Hang' });
    expect(hang.statusCode).toBe(504);
    const body = hang.json() as { traceId: string };
    expect(body).toEqual({ success: false, error: 'The upstream service did not answer in time.', traceId: body.traceId });
  });

  it('treats a header timeout as a failure and moves on to the fallback', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/HangThenOk' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ path: '/echo/after-hang' });
  });

  it('a per-endpoint TimeoutMs replaces the server setting', async () => {
    // the upstream answers after 2000 ms: beyond the server's 400 ms (undici's timers are coarse, ~1 s), within the endpoint's 6000 ms
    const short = await server.inject({ method: 'GET', url: '/api/demo/SlowDefault' });
    expect(short.statusCode).toBe(504);
    const long = await server.inject({ method: 'GET', url: '/api/demo/SlowLonger' });
    expect(long.statusCode).toBe(200);
    expect(long.json()).toMatchObject({ path: '/slow' });
  });

  it('treats a reset connection as a failure and retries it', async () => {
    const before = upstream.hits.get('/reset') ?? 0;
    const res = await server.inject({ method: 'GET', url: '/api/demo/Reset' });
    expect(res.statusCode).toBe(502);
    expect((upstream.hits.get('/reset') ?? 0) - before).toBe(2);
  });

  it('opens the circuit of an origin after repeated failures and skips it', async () => {
    const breaker = await proxyServer(
      [proxy('Breaker', { url: `${dead}/b`, fallbackUrls: [`${upstream.origin}/echo/breaker`] }, ['GET'])],
      { CircuitBreaker: { ConsecutiveFailures: 3, OpenMs: 60_000 } },
    );
    try {
      for (let i = 0; i < 4; i++) expect((await breaker.inject({ method: 'GET', url: '/api/demo/Breaker' })).statusCode).toBe(200);
      const kinds = breaker.logs
        .lines()
        .filter((l) => l['event'] === 'proxy.attempts_failed')
        .map((l) => (l['failures'] as { kind: string }[]).map((f) => f.kind).join());
      expect(kinds).toEqual(['connection', 'connection', 'connection', 'circuit-open']);
    } finally {
      await breaker.close();
    }
  });
});

describe('circuit breaker: one caller cannot take other endpoints down', () => {
  it('5xx answers a caller provokes open no circuit; timeouts open only that endpoint\'s own circuit', async () => {
    const o = upstream.origin;
    const breaker = await proxyServer(
      [
        proxy('Chosen', { url: `${o}/status` }, ['GET']), // the caller picks the status: /Chosen/503
        proxy('SlowChosen', { url: `${o}/slow`, timeoutMs: 100 }, ['GET']), // the caller picks the delay: ?ms= (undici's timers fire within about 1 s)
        proxy('Other', { url: `${o}/echo/other` }, ['GET']), // same origin
      ],
      { CircuitBreaker: { ConsecutiveFailures: 3, OpenMs: 60_000 } },
    );
    const get = async (url: string) => (await breaker.inject({ method: 'GET', url: `/api/demo/${url}` })).statusCode;
    try {
      for (let i = 0; i < 4; i++) expect(await get('Chosen/503')).toBe(502);
      expect(await get('Chosen/200')).toBe(200);
      expect(await get('Other')).toBe(200);
      for (let i = 0; i < 3; i++) expect(await get('SlowChosen?ms=2000')).toBe(504);
      const before = upstream.hits.get('/slow') ?? 0;
      expect(await get('SlowChosen?ms=0')).toBe(502); // its own circuit is open: not called
      expect(upstream.hits.get('/slow') ?? 0).toBe(before);
      expect(await get('Other')).toBe(200);
      expect(await get('Chosen/200')).toBe(200);
    } finally {
      await breaker.close();
    }
  });
});

describe('network access policy', () => {
  it('blocks cloud metadata addresses by default with 403', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/Metadata' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, error: 'Request blocked due to security restrictions' });
  });

  it('skips a blocked URL and uses the next one', async () => {
    const res = await server.inject({ method: 'GET', url: '/api/demo/MetadataThenOk' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ path: '/echo/safe' });
  });
});

describe('metrics of upstream attempts', () => {
  it('counts failed attempts by kind and the retries they led to, per endpoint', async () => {
    expect((await server.inject({ method: 'GET', url: '/api/demo/CountedRetry' })).statusCode).toBe(200);
    expect((await server.inject({ method: 'GET', url: '/api/demo/CountedAllFail' })).statusCode).toBe(502);
    const families = parsePrometheusText((await server.inject({ method: 'GET', url: '/metrics' })).body);
    const failed = (endpoint: string, kind: string): number | undefined => sampleValue(families, 'wharf_upstream_failed_attempts_total', { endpoint, kind });
    const retries = (endpoint: string): number | undefined => sampleValue(families, 'wharf_upstream_retries_total', { endpoint });
    // one 503, then the retry answered: two requests sent, one retry
    expect(failed('proxy:CountedRetry', 'status')).toBe(1);
    expect(retries('proxy:CountedRetry')).toBe(1);
    // two refused connections, then a blocked fallback that is never sent: one retry
    expect(failed('proxy:CountedAllFail', 'connection')).toBe(2);
    expect(failed('proxy:CountedAllFail', 'blocked')).toBe(1);
    expect(retries('proxy:CountedAllFail')).toBe(1);
  });
});
