/**
 * The documentation-site server and the sync health/dashboard listener, over a raw socket, with
 * requests no HTTP client library writes (serve/listener-basics.ts): the absolute form (RFC 9112
 * §3.2.2, a server must accept it) is answered like its origin form, the URL's host replacing
 * Host; the asterisk form with GET is a 400 (the docs server rendered its home page); a Host that
 * is missing or names no host is a 400 (the feed answered 500); malformed percent-encoding, Node's
 * parser errors, CONNECT and the sync listener's unknown routes get the spec's error body, not
 * fastify's own or none; every answer carries nosniff.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings } from '../../runtime/docs-site/settings.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { createFixture, type Fixture } from '../docs-site/fixture.js';
import { projectWith } from '../sync/sync-fixture.js';
import { rawExchange } from './raw-exchange.js';

let fixture: Fixture;
let docs: FastifyInstance;
let docsPort: number;
let health: RunningSync;
let dashboard: RunningSync;

const portOf = (url: string | null): number => Number(new URL(String(url)).port);

beforeAll(async () => {
  fixture = createFixture();
  // on loopback; the hosts these tests name are listed (Docs:AllowedHosts, Health:AllowedHosts; unlisted ones: dns-rebinding.test.ts)
  docs = await buildDocsServer({ site: await fixture.load(), settings: defaultDocsSettings({ themeDir: fixture.root, allowedHosts: ['other.test', 'docs.example'] }) });
  await docs.listen({ port: 0, host: '127.0.0.1' });
  const address = docs.server.address();
  docsPort = typeof address === 'object' && address ? address.port : 0;
  health = await startSync({ root: await projectWith({}, { Health: { Enabled: true, Port: 0, AllowedHosts: ['other.test'] } }), healthPort: 0, logLevel: 'silent' });
  dashboard = await startSync({ root: await projectWith({}, { Health: { Enabled: true, Port: 0, AllowedHosts: ['other.test'] }, WebHost: { Enabled: true } }), healthPort: 0, logLevel: 'silent' });
}, 60_000);

afterAll(async () => {
  await docs?.close();
  fixture?.cleanup();
  await Promise.all([health?.close(), dashboard?.close()]);
});

interface Exchange {
  status: string;
  headers: Record<string, string>;
  body: string;
}

/** One GET over a raw socket with the target as written. */
async function get(port: number, target: string, method = 'GET'): Promise<Exchange> {
  const text = await rawExchange(port, `${method} ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  const head = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return { status: head[0] ?? '', headers, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

/** The status line and JSON body of raw bytes sent as they are. */
async function raw(port: number, bytes: string): Promise<{ status: string; connection: string | undefined; body: unknown }> {
  const text = await rawExchange(port, bytes);
  const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n'))).split('\r\n');
  const connection = head.find((l) => /^connection:/i.test(l))?.slice('connection:'.length).trim();
  return { status: head[0] ?? '', connection, body: text.includes('\r\n\r\n') ? JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) : null };
}

/** What may differ between two answers to the same request: the date and the per-response CSP nonce. */
const stable = (e: Exchange) => ({ status: e.status, type: e.headers['content-type'], etag: e.headers['etag'], location: e.headers['location'], body: e.body.replace(/"timestamp":"[^"]*"/, '') });

describe('docs-site server', () => {
  it.each([
    ['http://localhost/guide/install', '/guide/install'],
    ['HTTP://other.test:81/raw/guide/install?view=true', '/raw/guide/install?view=true'],
    ['https://user:pw@localhost/api/search?q=install', '/api/search?q=install'],
    ['http://localhost', '/'],
  ])('%s is answered as %s', async (absolute, origin) => {
    const [a, b] = [await get(docsPort, absolute), await get(docsPort, origin)];
    expect(b.status).toBe('HTTP/1.1 200 OK');
    expect(stable(a)).toEqual(stable(b));
  });

  it("takes the absolute form's host for Host (robots.txt's Sitemap line)", async () => {
    const answer = await get(docsPort, 'http://docs.example:8080/robots.txt');
    expect(answer.body).toContain('Sitemap: http://docs.example:8080/sitemap.xml');
  });

  it.each(['GET', 'HEAD'])('refuses %s * with 400 and the spec body', async (method) => {
    const answer = await get(docsPort, '*', method);
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    if (method === 'GET') expect(JSON.parse(answer.body)).toEqual({ success: false, error: "Invalid request URL: '*' is only allowed as the target of OPTIONS (RFC 9112 section 3.2.4), not of GET." });
  });

  it.each(['/', '/guide/%zz', '*', '/raw/nowhere'])('%s carries X-Content-Type-Options: nosniff', async (target) => {
    expect((await get(docsPort, target)).headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers malformed percent-encoding with the spec body', async () => {
    const answer = await get(docsPort, '/guide/%zz');
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: 'Invalid request URL: malformed percent-encoding.' });
  });
});

describe('sync health and dashboard listener', () => {
  it.each([
    ['health', 'http://localhost/health/deadletters', '/health/deadletters'],
    ['health', 'HTTP://other.test:81/', '/'],
    ['dashboard', 'http://u:p@localhost/ui/api/session', '/ui/api/session'],
    ['dashboard', 'http://localhost/', '/'],
  ] as const)('%s: %s is answered as %s', async (which, absolute, origin) => {
    const port = portOf((which === 'health' ? health : dashboard).healthUrl);
    const [a, b] = [await get(port, absolute), await get(port, origin)];
    expect(b.status).toMatch(/^HTTP\/1\.1 (200 OK|302 Found)$/);
    expect(stable(a)).toEqual(stable(b));
  });

  it.each(['health', 'dashboard'] as const)('%s: refuses GET * with 400 and the spec body', async (which) => {
    const answer = await get(portOf((which === 'health' ? health : dashboard).healthUrl), '*');
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: "Invalid request URL: '*' is only allowed as the target of OPTIONS (RFC 9112 section 3.2.4), not of GET." });
  });

  it.each(['/health', '/health/state/%3Cb%3Enone', '/health/state/%zz', '/nowhere', '*'])('%s carries X-Content-Type-Options: nosniff', async (target) => {
    expect((await get(portOf(health.healthUrl), target)).headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['health', 'GET', '/nowhere'],
    ['dashboard', 'GET', '/health/nowhere'],
    ['dashboard', 'OPTIONS', '*'],
  ] as const)("%s: %s %s is 404 with the spec body (was: fastify's own)", async (which, method, target) => {
    const answer = await get(portOf((which === 'health' ? health : dashboard).healthUrl), target, method);
    expect(answer.status).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: `Route '${method} ${target}' not found` });
  });

  it('answers malformed percent-encoding with the spec body', async () => {
    const answer = await get(portOf(health.healthUrl), '/health/state/%zz');
    expect(answer.status).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(answer.body)).toEqual({ success: false, error: 'Invalid request URL: malformed percent-encoding.' });
  });
});

describe('requests Node refuses before fastify, on both servers', () => {
  const ports = (): [string, number][] => [
    ['docs', docsPort],
    ['sync', portOf(dashboard.healthUrl)],
  ];

  it('answers CONNECT with 400 and the spec body (was: the connection dropped without an answer)', async () => {
    for (const [name, port] of ports()) {
      const answer = await raw(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
      expect({ name, ...answer }).toEqual({ name, status: 'HTTP/1.1 400 Bad Request', connection: 'close', body: { success: false, error: 'CONNECT is not supported: this server is not a forward proxy.' } });
    }
  });

  it("answers a malformed request line with 400 and the spec body (was: fastify's own)", async () => {
    for (const [name, port] of ports()) {
      const answer = await raw(port, 'GET /a b c HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect({ name, ...answer }).toEqual({ name, status: 'HTTP/1.1 400 Bad Request', connection: 'close', body: { success: false, error: 'Malformed HTTP request: the request line is not valid HTTP/1.1.' } });
    }
  });
});

describe('the Host header (RFC 9112 section 3.2: an invalid value is a 400)', () => {
  const request = (host: string, target = '/feed.xml') => `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  const refused = {
    status: 'HTTP/1.1 400 Bad Request',
    connection: 'close',
    body: { success: false, error: 'Malformed HTTP request: the Host header is not a host name or address with an optional port.' },
  };

  // the feed built its links from the Host and answered 500 for the first four; the rest were taken as a host
  it.each(['x<y>&"z', 'a b', 'a%00', 'a%25', 'evil.example/path', 'user@docs.example', 'docs.example:99999', ''])('docs server: Host %j is refused', async (host) => {
    expect(await raw(docsPort, request(host))).toEqual(refused);
  });

  it.each(['', 'a b', 'x<y>'])('sync listener: Host %j is refused', async (host) => {
    expect(await raw(portOf(health.healthUrl), request(host, '/health/deadletters'))).toEqual(refused);
  });

  it('an HTTP/1.1 request without Host gets the spec body on both (was: Node\'s bare 400)', async () => {
    for (const port of [docsPort, portOf(health.healthUrl)]) {
      expect(await raw(port, 'GET / HTTP/1.1\r\n\r\n')).toEqual({ ...refused, body: { success: false, error: 'Malformed HTTP request: the Host header is missing (HTTP/1.1 requires it).' } });
    }
  });

  it.each([
    ['docs.example:8080', 'http://docs.example:8080/'],
    ['[::1]:4000', 'http://[::1]:4000/'],
    ['127.0.0.1', 'http://127.0.0.1/'],
  ])('docs server: Host %s makes the feed link %s', async (host, link) => {
    const text = await rawExchange(docsPort, request(host));
    expect(text.slice(0, text.indexOf('\r\n'))).toBe('HTTP/1.1 200 OK');
    expect(text).toContain(`<link>${link}</link>`);
  });
});
