/**
 * `wharf dev`: a saved change to an entity.json changes what the running server answers without a
 * restart; a broken save keeps the last good build serving; the server object never changes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Printer } from '../../compiler/cli/build-command.js';
import { banner, demoToken, startDev, type DevSession } from '../../compiler/cli/serve-command.js';
import { fixtureProject, type TempProject } from '../support/project.js';

const lines: string[] = [];
const print: Printer = { out: (l) => lines.push(l), err: (l) => lines.push(l) };

let project: TempProject;
let dev: DevSession;
let token: string;
const weather = () => path.join(project.root, 'endpoints/Proxy/Weather/entity.json');

async function status(url: string): Promise<number> {
  return (await call(url)).status;
}

function call(url: string): Promise<Response> {
  return fetch(url, { headers: { authorization: `Bearer ${token}` } });
}

/** Polls until the predicate holds (the watcher debounces and rebuilds in the background). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for: ${what}\n${lines.join('\n')}`);
}

beforeAll(async () => {
  project = await fixtureProject();
  // The polling below sends hundreds of requests: a budget far above it (through settings).
  const env = { RateLimiting__IpLimit: '100000', RateLimiting__TokenLimit: '100000' };
  dev = await startDev({ command: 'dev', rest: [], root: project.root, port: 0, host: '127.0.0.1', docs: false }, print, { logger: false, env });
  // A fresh project has no token: the first banner creates and shows the demo token once.
  const demo = await demoToken(dev.server);
  if (demo === null) throw new Error('expected a demo token on an empty store');
  token = demo;
  lines.push(...banner(dev.server, demo));
}, 60_000);

afterAll(async () => {
  await dev?.close();
  await project?.remove();
});

describe('wharf dev', () => {
  it('prints the demo token once, with a curl line that works; later banners say how to create one', async () => {
    const url = `${dev.server.url}/api/demo/Inventory/Products?$top=5`;
    expect(lines.some((l) => /^Embedded database for 'demo' ready in \d+\.\d s\.$/.test(l))).toBe(true);
    expect(lines).toContain(`  ${token}`);
    expect(lines).toContain(`  curl -H "Authorization: Bearer ${token}" '${url}'`);
    expect(token).toMatch(/^whf_/);
    expect((await fetch(url)).status).toBe(401);
    const demo = await call(url);
    expect(demo.status).toBe(200);
    const body = (await demo.json()) as { success: boolean; count: number; nextLink: string };
    expect([body.success, body.count]).toEqual([true, 5]);
    expect(body.nextLink).toBe('/api/demo/Inventory/Products?$top=5&$skip=5');
    expect(await demoToken(dev.server)).toBeNull();
    const later = banner(dev.server, null);
    expect(later.join('\n')).not.toContain(token);
    expect(later).toContain('  Every /api call needs a token: create one with npx wharf token create --username you');
  });

  it('serves, then picks up a saved change without a restart', async () => {
    const url = `${dev.server.url}/api/demo/Weather`;
    const app = dev.server.app;
    expect(await status(url)).toBe(502); // a Proxy without its demo upstream running
    const original = await readFile(weather(), 'utf8');
    await writeFile(weather(), original.replace('"Methods": ["GET"]', '"Enabled": false,\n  "Methods": ["GET"]'));
    await eventually(async () => (await status(url)) === 503, 'Weather disabled (503)');
    const disabled = await call(url);
    expect(disabled.headers.get('retry-after')).toBe('300');
    expect(dev.server.app).toBe(app);

    // A broken save: the build fails, the last good table keeps serving.
    const reloadsBefore = lines.filter((l) => l.startsWith('Reloaded:')).length;
    await writeFile(weather(), '{ "Url": ');
    await eventually(async () => lines.some((l) => l === 'Keeping the last good build serving.'), 'failed build reported');
    expect(lines.some((l) => l.includes('endpoints/Proxy/Weather/entity.json:1:10: error json-syntax'))).toBe(true);
    expect(await status(url)).toBe(503);
    expect(lines.filter((l) => l.startsWith('Reloaded:')).length).toBe(reloadsBefore);

    // Fixed again: served as before.
    await writeFile(weather(), original);
    await eventually(async () => (await status(url)) === 502, 'Weather enabled again');
  });

  it('a new endpoint folder becomes routable', async () => {
    const url = `${dev.server.url}/api/demo/Tides`;
    expect(await status(url)).toBe(404);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(path.join(project.root, 'endpoints/Proxy/Tides'));
    await writeFile(
      path.join(project.root, 'endpoints/Proxy/Tides/entity.json'),
      JSON.stringify({ Url: 'http://127.0.0.1:9100/tides', Methods: ['GET'] }),
    );
    await eventually(async () => (await status(url)) === 502, 'Tides routable');
  });
});
