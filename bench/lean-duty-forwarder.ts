/**
 * The duties of bench/duty-forwarder.ts written for the least CPU a developer could reasonably get
 * from fastify + undici, to estimate the floor of what the duties cost (bench/duty-breakdown.ts):
 * - no hooks: the token check, rate limits, forwarding, metrics and the log line all run in the one
 *   route handler (no promise per hook, no fastify request logger);
 * - the log line is pino's `info` line written by hand (a template, only the URL through
 *   `JSON.stringify`), collected and written to /dev/null once per event-loop turn;
 * - the response body read through undici's `body.arrayBuffer()` as in the other forwarders.
 * Same answers as the duty forwarder for the bench's small GET (headers, ETag, rate-limit headers).
 *
 *   node --import tsx bench/lean-duty-forwarder.ts http://127.0.0.1:PORT TOKEN   (prints its URL; SIGTERM stops it)
 */
import { hash, randomUUID } from 'node:crypto';
import { closeSync, openSync, write } from 'node:fs';
import { hostname } from 'node:os';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { fixedWindows, HOP_BY_HOP, LIMIT, WITHHELD } from './duty-forwarder.js';


export async function leanDutyForwarder(origin: string, token: string) {
  const pool = new Pool(origin, { connections: 64, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const tokenHashes = new Set([hash('sha256', token, 'hex')]);
  const metrics = new Map<string, { count: number; totalMs: number }>();
  const fd = openSync('/dev/null', 'w');
  const pidHost = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  let pending: string[] = [];
  const flush = (): void => {
    const text = pending.join('');
    pending = [];
    write(fd, text, () => undefined);
  };
  const log = (line: string): void => {
    if (pending.push(line) === 1) setImmediate(flush);
  };
  const take = fixedWindows();
  const app = Fastify({ logger: false });

  app.get('/*', (request, reply) => {
    const started = performance.now();
    const header = request.headers.authorization;
    const tokenHash = hash('sha256', header?.startsWith('Bearer ') ? header.slice(7) : '', 'hex');
    if (!tokenHashes.has(tokenHash)) return reply.code(401).send({ success: false, error: 'Invalid or missing token' });
    const now = Date.now();
    const byIp = take(`ip:${request.ip}`, now);
    const byToken = take(`token:${tokenHash}`, now);
    if (byIp.count > LIMIT || byToken.count > LIMIT) return reply.code(429).header('retry-after', '1').send({ success: false, error: 'Rate limit exceeded' });
    const id = randomUUID();
    const headers: Record<string, string> = {};
    const incoming = request.headers;
    for (const name in incoming) {
      const value = incoming[name];
      if (value === undefined || HOP_BY_HOP.has(name) || WITHHELD.has(name)) continue;
      headers[name] = typeof value === 'string' ? value : value.join(', ');
    }
    headers['x-forwarded-for'] = request.ip;
    headers['x-forwarded-proto'] = request.protocol;
    headers['x-request-id'] = id;
    return pool.request({ path: request.url, method: 'GET', headers }).then(async (response) => {
      const body = Buffer.from(await response.body.arrayBuffer());
      const out: Record<string, string | string[]> = {
        'x-ratelimit-limit': String(LIMIT),
        'x-ratelimit-remaining': String(LIMIT - byToken.count),
        'x-ratelimit-reset': String(Math.ceil(byToken.resetAt / 1000)),
      };
      const upstream = response.headers;
      for (const name in upstream) {
        const value = upstream[name];
        if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'content-length') out[name] = value;
      }
      out['etag'] = `"${hash('sha256', body, 'hex')}"`;
      reply.code(response.statusCode).headers(out).send(body);
      const ms = performance.now() - started;
      const entry = metrics.get('/*');
      if (entry === undefined) metrics.set('/*', { count: 1, totalMs: ms });
      else {
        entry.count++;
        entry.totalMs += ms;
      }
      log(`{"level":30,"time":${Date.now()}${pidHost},"reqId":"${id}","method":"GET","url":${JSON.stringify(request.url)},"statusCode":${response.statusCode},"responseTime":${ms},"msg":"request completed"}\n`);
      return reply;
    });
  });

  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    close: async () => {
      await app.close();
      await pool.close();
      closeSync(fd);
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [origin, token] = process.argv.slice(2);
  if (!origin || !token) throw new Error('usage: lean-duty-forwarder.ts <upstream origin> <token>');
  const forwarder = await leanDutyForwarder(origin, token);
  process.stdout.write(`${forwarder.url}\n`);
  process.once('SIGTERM', () => {
    void forwarder.close().then(() => process.exit(0));
  });
}
