/**
 * A second baseline of the proxy bench, for comparison only (the target is against the bare
 * forwarder, bench/bare-forwarder.ts): a hand-written fastify + undici forwarder that does the
 * per-request duties Wharf does for the bench's small proxied GET, written the short way a developer
 * would, so the ratio against it is the cost of Wharf's generality rather than of the duties:
 * - a Bearer token checked by its SHA-256 against a set of hashes (401 otherwise);
 * - fixed-window rate limits per token and per client address, with the three `X-RateLimit-*` headers;
 * - a request id (random UUID), and one JSON log line per request at `info` (pino, into /dev/null);
 * - request headers: hop-by-hop ones, Host, Authorization, Cookie and client forwarding headers
 *   dropped; `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Request-Id` added;
 * - upstream deadlines (headers and body timeouts on the pool);
 * - the response read whole, its hop-by-hop headers dropped, an `ETag` (SHA-256 of the body, hex) added;
 * - a request count and latency sum per route (what a metrics endpoint would read).
 * Not done here, though Wharf does them: environments and namespaces, circuit breaker, retries,
 * URL rewriting, cookie rules, If-None-Match, client-gone aborts, admission and shutdown gates.
 *
 *   node --import tsx bench/duty-forwarder.ts http://127.0.0.1:PORT TOKEN   (prints its URL; SIGTERM stops it)
 * DUTY_OFF=auth,ratelimit,log,reqid,headers,etag,metrics leaves those duties out (bench/duty-breakdown.ts
 * measures what each costs); `log` off also starts fastify without a logger.
 */
import { hash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import Fastify, { LogController } from 'fastify';
import { Pool } from 'undici';

export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade', 'proxy-connection']);
export const WITHHELD = new Set(['host', 'content-length', 'authorization', 'cookie', 'forwarded', 'x-real-ip', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']);
export const LIMIT = 1_000_000;
const WINDOW_MS = 1000;
const OFF = new Set((process.env['DUTY_OFF'] ?? '').split(',').filter(Boolean));
const on = (duty: string): boolean => !OFF.has(duty);

export interface Window {
  count: number;
  resetAt: number;
}

/** Fixed one-second windows by key: `take(key, now)` counts a request and returns its window (also bench/lean-duty-forwarder.ts). */
export function fixedWindows(): (key: string, now: number) => Window {
  const windows = new Map<string, Window>();
  return (key, now) => {
    let window = windows.get(key);
    if (window === undefined || window.resetAt <= now) windows.set(key, (window = { count: 0, resetAt: now + WINDOW_MS }));
    window.count++;
    return window;
  };
}

export async function dutyForwarder(origin: string, token: string) {
  const pool = new Pool(origin, { connections: 64, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const tokenHashes = new Set([hash('sha256', token, 'hex')]);
  const metrics = new Map<string, { count: number; totalMs: number }>();
  let sequence = 0;
  const app = Fastify({
    logger: on('log') ? { level: 'info', stream: createWriteStream('/dev/null') } : false,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: on('reqid') ? () => randomUUID() : () => String(++sequence),
  });
  const take = fixedWindows();

  if (on('auth') || on('ratelimit')) app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization;
    const presented = header?.startsWith('Bearer ') ? header.slice(7) : '';
    const tokenHash = on('auth') ? hash('sha256', presented, 'hex') : presented;
    if (on('auth') && !tokenHashes.has(tokenHash)) return reply.code(401).send({ success: false, error: 'Invalid or missing token' });
    if (!on('ratelimit')) return;
    const now = Date.now();
    const byIp = take(`ip:${request.ip}`, now);
    const byToken = take(`token:${tokenHash}`, now);
    if (byIp.count > LIMIT || byToken.count > LIMIT) return reply.code(429).header('retry-after', '1').send({ success: false, error: 'Rate limit exceeded' });
    reply.header('x-ratelimit-limit', String(LIMIT));
    reply.header('x-ratelimit-remaining', String(LIMIT - byToken.count));
    reply.header('x-ratelimit-reset', String(Math.ceil(byToken.resetAt / 1000)));
  });

  if (on('metrics') || on('log')) app.addHook('onResponse', async (request, reply) => {
    if (on('metrics')) {
      const route = request.routeOptions.url ?? '';
      const entry = metrics.get(route) ?? { count: 0, totalMs: 0 };
      entry.count++;
      entry.totalMs += reply.elapsedTime;
      metrics.set(route, entry);
    }
    if (on('log')) app.log.info({ reqId: request.id, method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }, 'request completed');
  });

  app.get('/*', async (request, reply) => {
    if (!on('headers')) {
      const response = await pool.request({ path: request.url, method: 'GET', headers: { accept: 'application/json' } });
      const body = Buffer.from(await response.body.arrayBuffer());
      reply.code(response.statusCode).header('content-type', response.headers['content-type']);
      if (on('etag')) reply.header('etag', `"${hash('sha256', body, 'hex')}"`);
      return reply.send(body);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || WITHHELD.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    headers['x-forwarded-for'] = request.ip;
    headers['x-forwarded-proto'] = request.protocol;
    headers['x-request-id'] = String(request.id);
    const response = await pool.request({ path: request.url, method: 'GET', headers });
    const body = Buffer.from(await response.body.arrayBuffer());
    reply.code(response.statusCode);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') reply.header(name, value);
    }
    if (on('etag')) reply.header('etag', `"${hash('sha256', body, 'hex')}"`);
    return reply.send(body);
  });

  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => { await app.close(); await pool.close(); } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [origin, token] = process.argv.slice(2);
  if (!origin || !token) throw new Error('usage: duty-forwarder.ts <upstream origin> <token>');
  const forwarder = await dutyForwarder(origin, token);
  process.stdout.write(`${forwarder.url}\n`);
  process.once('SIGTERM', () => {
    void forwarder.close().then(() => process.exit(0));
  });
}
