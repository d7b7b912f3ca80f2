/**
 * HTTP destination against a real loopback HTTP server: each auth kind sends the right header,
 * custom headers pass, gzip bodies decode, non-2xx answers fail; and end to end from real
 * PostgreSQL: a receiver answering 503 for a while -> retries, dead letter, replay, nothing lost.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpAuth, HttpDestination } from '../../runtime/sync/config/model.js';
import type { Batch } from '../../runtime/sync/destinations/batch.js';
import { createHttpDestination } from '../../runtime/sync/destinations/http.js';
import { startSync } from '../../runtime/sync/run.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, until } from './sync-fixture.js';

interface Seen {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
let tokenCalls = 0;
let failBatches = false;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (req.url === '/token') {
        tokenCalls++;
        const form = new URLSearchParams(raw.toString());
        const ok = form.get('grant_type') === 'client_credentials' && form.get('client_id') === 'app' && form.get('client_secret') === 's3cret';
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { access_token: `tok-${tokenCalls}`, expires_in: 3600 } : { error: 'invalid_client' }));
        return;
      }
      const text = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
      seen.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) as Record<string, unknown> });
      if (req.url === '/redirect') res.writeHead(307, { location: `${base}/redirected` }).end();
      else if (req.url === '/fail' || (req.url === '/flaky' && failBatches)) res.writeHead(503).end();
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const batch: Batch = { environment: 'prod', object: 'Products', type: 'Diff', fromVersion: 4, toVersion: 6, records: [{ $operation: 'I', $version: 5, Id: 1 }, { $operation: 'D', $version: 6, Id: 2 }] };

function destination(auth: HttpAuth, extra: Partial<HttpDestination> = {}): HttpDestination {
  return { type: 'Http', key: 'h', url: `${base}/in`, auth, headers: {}, compression: false, timeoutSeconds: 5, ...extra };
}

describe('HTTP destination', () => {
  const cases: [string, HttpAuth, Record<string, string>][] = [
    ['Bearer', { type: 'Bearer', token: 'abc' }, { authorization: 'Bearer abc' }],
    ['Basic', { type: 'Basic', username: 'u', password: 'p:w' }, { authorization: `Basic ${Buffer.from('u:p:w').toString('base64')}` }],
    ['ApiKey', { type: 'ApiKey', header: 'X-Api-Key', key: 'k1' }, { 'x-api-key': 'k1' }],
    ['OAuth2 client credentials', { type: 'OAuth2ClientCredentials', tokenUrl: `http://127.0.0.1/token`, clientId: 'app', clientSecret: 's3cret', scope: 'sync' }, { authorization: 'Bearer tok-1' }],
  ];
  it.each(cases)('%s', async (_name, auth, want) => {
    const fixed = auth.type === 'OAuth2ClientCredentials' ? { ...auth, tokenUrl: `${base}/token` } : auth;
    const before = seen.length;
    const d = createHttpDestination(destination(fixed, { headers: { 'X-Tenant': 't1' } }));
    await d.deliver(batch);
    await d.deliver(batch);
    const requests = seen.slice(before);
    expect(requests).toHaveLength(2);
    for (const r of requests) {
      expect(r.headers).toMatchObject({ ...want, 'x-tenant': 't1', 'content-type': 'application/json', 'x-wharf-batch-id': 'prod/Products/4-6' });
      expect(r.body).toEqual({ environment: 'prod', object: 'Products', type: 'Diff', fromVersion: 4, version: 6, count: 2, records: batch.records });
    }
    if (auth.type === 'OAuth2ClientCredentials') expect(tokenCalls).toBe(1); // cached for the second delivery
  });

  it('gzip: Content-Encoding gzip and a body that decodes to the batch', async () => {
    const before = seen.length;
    await createHttpDestination(destination({ type: 'None' }, { compression: true })).deliver(batch);
    expect(seen[before]?.headers['content-encoding']).toBe('gzip');
    expect(seen[before]?.body).toMatchObject({ version: 6, count: 2 });
  });

  it('an environment folder named outside printable ASCII: the batch id header is percent-encoded (UTF-8), the body keeps the name', async () => {
    const before = seen.length;
    await createHttpDestination(destination({ type: 'None' })).deliver({ ...batch, environment: '生产 50%' });
    expect(seen[before]?.headers['x-wharf-batch-id']).toBe('%E7%94%9F%E4%BA%A7 50%25/Products/4-6');
    expect(seen[before]?.body['environment']).toBe('生产 50%');
  });

  it('a redirect is not followed (no request to where it points, credentials stay with the configured URL): it fails the delivery', async () => {
    const before = seen.length;
    await expect(createHttpDestination(destination({ type: 'Bearer', token: 'secret-token' }, { url: `${base}/redirect` })).deliver(batch)).rejects.toThrow(`HTTP 307 from ${new URL(base).host}`);
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/redirect']);
  });

  it('the parts of a Full export without versions: distinct batch ids and a part in the body, so a consumer de-duplicating on them keeps every part', async () => {
    const before = seen.length;
    const d = createHttpDestination(destination({ type: 'None' }));
    const full = { environment: 'prod', object: 'Products', type: 'Full', fromVersion: 0 } as const;
    await d.deliver({ ...full, toVersion: 0, part: 1, records: [{ Id: 1 }] });
    await d.deliver({ ...full, toVersion: 0, part: 2, records: [{ Id: 2 }] });
    await d.deliver({ ...full, toVersion: 9, records: [{ Id: 3 }] });
    const got = seen.slice(before);
    expect(got.map((r) => r.headers['x-wharf-batch-id'])).toEqual(['prod/Products/0-0.part1', 'prod/Products/0-0.part2', 'prod/Products/0-9']);
    expect(got.map((r) => r.body['part'])).toEqual([1, 2, undefined]);
  });

  it('a non-2xx answer is a failure naming the status and host only', async () => {
    await expect(createHttpDestination(destination({ type: 'Bearer', token: 'secret-token' }, { url: `${base}/fail` })).deliver(batch)).rejects.toThrow(
      `HTTP 503 from ${new URL(base).host}`,
    );
  });

  describe('a receiver that never finishes', () => {
    // Every wait has one deadline, TimeoutSeconds for the whole exchange: a receiver that trickles
    // its answer a byte at a time (each byte inside undici's idle timeouts) or never reads the
    // body must still fail the delivery, so the batch is retried and dead-lettered, never hung.
    let slow: Server;
    let slowBase: string;
    const timers = new Set<NodeJS.Timeout>();
    beforeAll(async () => {
      slow = createServer((req, res) => {
        if (req.url === '/stall') return; // never reads the body, never answers
        if (req.url === '/token-html') {
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html>session=leaked-secret-123</html>');
          return;
        }
        if (req.url === '/token-trickle' || req.url === '/trickle') {
          req.resume();
          req.on('end', () => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.write('{"access_token":"');
            const timer = setInterval(() => res.write('x'), 100);
            timers.add(timer);
            res.on('close', () => clearInterval(timer));
          });
        }
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      slowBase = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const timer of timers) clearInterval(timer);
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    });

    const bounded = (work: Promise<void>) =>
      Promise.race([work.then(() => 'delivered', (e: Error) => `failed: ${e.message}`), new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 8000))]);
    const big: Batch = { ...batch, records: Array.from({ length: 2000 }, (_, i) => ({ $operation: 'I', $version: i + 1, Text: 'x'.repeat(4000) })) };

    it.each([
      ['an answer trickled a byte at a time', '/trickle', batch, { type: 'None' } as HttpAuth],
      ['a receiver that never reads an 8 MB body', '/stall', big, { type: 'None' } as HttpAuth],
      ['a token endpoint that trickles its answer', '/in', batch, { type: 'OAuth2ClientCredentials', tokenUrl: '', clientId: 'a', clientSecret: 'b', scope: null } as HttpAuth],
    ])('%s fails after TimeoutSeconds', async (_name, where, body, auth) => {
      const fixed = auth.type === 'OAuth2ClientCredentials' ? { ...auth, tokenUrl: `${slowBase}/token-trickle` } : auth;
      const outcome = await bounded(createHttpDestination(destination(fixed, { url: `${slowBase}${where}`, timeoutSeconds: 1 })).deliver(body));
      expect(outcome).toMatch(/^failed: /);
    });

    it('a token endpoint answering no JSON: the error (logged, stored with the dead letter) quotes none of its answer', async () => {
      const auth: HttpAuth = { type: 'OAuth2ClientCredentials', tokenUrl: `${slowBase}/token-html`, clientId: 'a', clientSecret: 'b', scope: null };
      const outcome = await bounded(createHttpDestination(destination(auth, { url: `${slowBase}/in`, timeoutSeconds: 1 })).deliver(batch));
      expect(outcome).toBe('failed: OAuth2 token endpoint answered no JSON');
    });
  });

  describe('end to end from PostgreSQL', () => {
    let db: TestPostgres;
    beforeAll(async () => {
      db = await startPostgres();
      await installOutbox(db.url);
    });
    afterAll(async () => db?.stop());

    it('receiver down: retries, dead letter, replay when it is back; nothing lost or skipped', async () => {
      const root = await projectWith(
        { prod: pgEnvironment(db.url, [{ Type: 'Http', Key: 'crm', Url: `${base}/flaky`, Auth: { Type: 'Bearer', Token: 't' } }], { MaxRecordsPerBatch: 2, RetryCount: 2 }) },
        { Health: { Enabled: false }, DeadLetters: { BackoffBaseSeconds: 0.2, ReplayIntervalSeconds: 0.1 } },
      );
      const sync = await startSync({ root, logLevel: 'silent' });
      try {
        await until('initial state', () => sync.service.state.get('prod', 'Products'));
        failBatches = true;
        const before = seen.length;
        await insertProducts(db.url, 5, 'HTTP-');
        const letter = await until('dead letter', () => sync.service.deadLetters.list()[0]);
        expect(letter).toMatchObject({ sourceKey: 'prod/Products/crm', fromVersion: 0, toVersion: 2, error: `HTTP 503 from ${new URL(base).host}` });
        // 1 try + 2 retries of the first batch, nothing of a later batch.
        expect(seen.slice(before).map((s) => s.body['version'])).toEqual([2, 2, 2]);
        failBatches = false;
        await until('all delivered', () => sync.service.state.get('prod', 'Products')?.version === 5);
        const accepted = seen.slice(before + 3).map((s) => [s.body['fromVersion'], s.body['version']]);
        expect(accepted[0]).toEqual([0, 2]); // the replayed dead letter first
        expect(accepted.slice(1)).toEqual([[2, 4], [4, 5]]);
        expect(sync.service.deadLetters.summary().TotalCount).toBe(0);
      } finally {
        await sync.close();
      }
    });
  });
});
