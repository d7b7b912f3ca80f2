/**
 * DNS rebinding against the two servers that rely on "bound to loopback" (serve/allowed-hosts.ts):
 * a web page rebinds its own name (`evil.example`) to 127.0.0.1 and reads, same-origin, what the
 * docs server or the sync health/dashboard listener answers; the browser sends its own name as
 * Host. Both answered any Host. Now, on a loopback listener with the default (empty)
 * `Docs:AllowedHosts` / `Health:AllowedHosts`, only loopback names, IP literals and the docs
 * server's public host are answered; anything else is 400 REQUEST_HOST_NOT_ALLOWED naming the
 * setting, with Connection: close. A listed host is answered, `*` answers any, and a server
 * listening on 0.0.0.0 with the default answers any Host as before. Real listeners, raw sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildDocsServer } from '../../runtime/docs-site/server.js';
import { defaultDocsSettings, type DocsSettings } from '../../runtime/docs-site/settings.js';
import { runDocsCommand } from '../../compiler/docs-site/cli.js';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { createFixture, FIXTURE_FILES, type Fixture } from '../docs-site/fixture.js';
import { projectWith } from '../sync/sync-fixture.js';
import { rawExchange } from './raw-exchange.js';

let fixture: Fixture;
const docsServers: FastifyInstance[] = [];
const syncs: RunningSync[] = [];

const portOf = (url: string | null): number => Number(new URL(String(url)).port);

async function docsOn(listenHost: string, settings: Partial<DocsSettings> = {}, passListenHost = true): Promise<number> {
  const app = await buildDocsServer({
    site: await fixture.load(),
    settings: defaultDocsSettings({ themeDir: fixture.root, ...settings }),
    ...(passListenHost ? { listenHost } : {}),
  });
  docsServers.push(app);
  await app.listen({ port: 0, host: listenHost });
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function syncOn(health: Record<string, unknown>): Promise<number> {
  const running = await startSync({ root: await projectWith({}, { Health: { Enabled: true, Port: 0, ...health }, WebHost: { Enabled: true } }), healthPort: 0, logLevel: 'silent' });
  syncs.push(running);
  return portOf(running.healthUrl);
}

interface Answer {
  status: string;
  connection: string | undefined;
  body: string;
}

/** GET `target` with `Host: host` over a raw socket to 127.0.0.1:port. */
async function get(port: number, host: string, target: string): Promise<Answer> {
  const text = await rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  const head = text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n');
  const connection = head.find((line) => line.toLowerCase().startsWith('connection:'))?.slice('connection:'.length).trim();
  return { status: head[0] ?? '', connection, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

const refusal = (setting: string) => ({
  status: 'HTTP/1.1 400 Bad Request',
  connection: 'close',
  body: JSON.stringify({ success: false, error: `This server does not answer for the host named in the Host header (protection against DNS rebinding): add it to ${setting} to allow it.` }),
});

const served = async (answer: Promise<Answer>): Promise<string> => (await answer).status;
const OK = 'HTTP/1.1 200 OK';

let docsLoopback: number;
let docsUnset: number;
let docsPublic: number;
let docsListed: number;
let docsAny: number;
let docsEverywhere: number;
let syncLoopback: number;
let syncListed: number;
let syncEverywhere: number;

beforeAll(async () => {
  fixture = createFixture();
  docsLoopback = await docsOn('127.0.0.1');
  docsUnset = await docsOn('127.0.0.1', {}, false);
  docsPublic = await docsOn('127.0.0.1', { baseUrl: 'https://docs.example.com' });
  docsListed = await docsOn('127.0.0.1', { allowedHosts: ['docs.example.com', '*.intranet.example:8443'] });
  docsAny = await docsOn('127.0.0.1', { allowedHosts: ['*'] });
  docsEverywhere = await docsOn('0.0.0.0');
  syncLoopback = await syncOn({});
  syncListed = await syncOn({ AllowedHosts: ['sync.example.com'] });
  syncEverywhere = await syncOn({ Host: '0.0.0.0' });
}, 60_000);

afterAll(async () => {
  await Promise.all(docsServers.map((app) => app.close()));
  await Promise.all(syncs.map((running) => running.close()));
  fixture?.cleanup();
});

describe('docs server (Docs:AllowedHosts)', () => {
  it('on loopback, a rebound name is refused 400 REQUEST_HOST_NOT_ALLOWED, on every route', async () => {
    for (const target of ['/', '/api/pages', '/raw/zebra', '/feed.xml', '/nope']) {
      expect({ target, ...(await get(docsLoopback, 'evil.example', target)) }).toEqual({ target, ...refusal('Docs:AllowedHosts') });
    }
    expect(await get(docsLoopback, 'evil.example:5080', '/')).toEqual(refusal('Docs:AllowedHosts'));
    expect(await get(docsUnset, 'evil.example', '/')).toEqual(refusal('Docs:AllowedHosts'));
  });

  it('the absolute form is judged by its authority, which replaces Host', async () => {
    expect(await get(docsLoopback, 'localhost', 'http://evil.example/api/pages')).toEqual(refusal('Docs:AllowedHosts'));
  });

  it.each(['localhost:PORT', 'LOCALHOST.', 'app.localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', '192.0.2.7'])('on loopback, Host %s is served', async (host) => {
    expect(await served(get(docsLoopback, host.replace('PORT', String(docsLoopback)), '/api/pages'))).toBe(OK);
  });

  it('the host of Docs:PublicBaseUrl is served; other names are not', async () => {
    expect(await served(get(docsPublic, 'docs.example.com', '/api/pages'))).toBe(OK);
    expect(await served(get(docsPublic, 'Docs.Example.com:443', '/api/pages'))).toBe(OK);
    expect(await get(docsPublic, 'evil.example', '/api/pages')).toEqual(refusal('Docs:AllowedHosts'));
  });

  it("the host of the site file's baseUrl is served when no PublicBaseUrl is set", async () => {
    const site = createFixture({ ...FIXTURE_FILES, 'config.json': JSON.stringify({ title: 'B', baseUrl: 'https://from-config.example/' }) });
    try {
      const app = await buildDocsServer({ site: await site.load(), settings: defaultDocsSettings({ themeDir: site.root }), listenHost: '127.0.0.1' });
      docsServers.push(app);
      expect((await app.inject({ url: '/api/pages', headers: { host: 'from-config.example' } })).statusCode).toBe(200);
      expect((await app.inject({ url: '/api/pages', headers: { host: 'evil.example' } })).statusCode).toBe(400);
    } finally {
      site.cleanup();
    }
  });

  it('a listed host is served, an unlisted one refused; a port in the item must match', async () => {
    expect(await served(get(docsListed, 'docs.example.com:5080', '/api/pages'))).toBe(OK);
    expect(await served(get(docsListed, 'a.intranet.example:8443', '/api/pages'))).toBe(OK);
    expect(await served(get(docsListed, 'localhost', '/api/pages'))).toBe(OK);
    expect(await get(docsListed, 'a.intranet.example:8080', '/api/pages')).toEqual(refusal('Docs:AllowedHosts'));
    expect(await get(docsListed, 'evil.example', '/api/pages')).toEqual(refusal('Docs:AllowedHosts'));
  });

  it('`*` answers any Host', async () => {
    expect(await served(get(docsAny, 'evil.example', '/api/pages'))).toBe(OK);
  });

  it('listening on 0.0.0.0 with the default answers any Host, as before', async () => {
    expect(await served(get(docsEverywhere, 'evil.example', '/api/pages'))).toBe(OK);
  });

  it('wharf docs serve: the listen address of --host decides, Docs__AllowedHosts adds names', async () => {
    const serve = async (argv: string[], env: NodeJS.ProcessEnv, host: string): Promise<string> => {
      let stop = (): void => undefined;
      const stopped = new Promise<void>((r) => (stop = r));
      const out: string[] = [];
      const running = runDocsCommand(['serve', '--port', '0', ...argv], { out: (l) => out.push(l), err: () => undefined, cwd: fixture.root, env: { Docs__EnableHotReload: 'false', ...env }, stopSignal: stopped });
      try {
        const end = Date.now() + 20_000;
        while (!out[0] && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
        const port = Number(/:(\d+)\/ ?/.exec(out[0] ?? '')?.[1]);
        return (await get(port, host, '/api/pages')).status;
      } finally {
        stop();
        expect(await running).toBe(0);
      }
    };
    expect(await serve([], {}, 'evil.example')).toBe('HTTP/1.1 400 Bad Request');
    expect(await serve([], { Docs__AllowedHosts: 'evil.example' }, 'evil.example')).toBe(OK);
    expect(await serve(['--host', '0.0.0.0'], {}, 'evil.example')).toBe(OK);
  }, 60_000);
});

describe('sync health and dashboard listener (Health:AllowedHosts)', () => {
  it('on loopback (the default Health:Host), a rebound name is refused on the health routes and the unauthenticated dashboard API', async () => {
    for (const target of ['/health/deadletters', '/health/state', '/ui/api/overview', '/ui', '/']) {
      expect({ target, ...(await get(syncLoopback, 'evil.example', target)) }).toEqual({ target, ...refusal('Health:AllowedHosts') });
    }
  });

  it.each(['localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT'])('on loopback, Host %s is served', async (host) => {
    expect(await served(get(syncLoopback, host.replace('PORT', String(syncLoopback)), '/ui/api/overview'))).toBe(OK);
  });

  it('a listed host is served, an unlisted one refused', async () => {
    expect(await served(get(syncListed, 'sync.example.com', '/health/deadletters'))).toBe(OK);
    expect(await get(syncListed, 'evil.example', '/health/deadletters')).toEqual(refusal('Health:AllowedHosts'));
  });

  it('Health:Host 0.0.0.0 with the default answers any Host, as before', async () => {
    expect(await served(get(syncEverywhere, 'evil.example', '/ui/api/overview'))).toBe(OK);
  });
});
