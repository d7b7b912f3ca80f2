/**
 * `wharf dev`: a saved change to an entity.json changes what the running server answers without a
 * restart; a broken save keeps the last good build serving; the server object never changes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Printer } from '../../compiler/cli/build-command.js';
import { startDev, type DevSession } from '../../compiler/cli/serve-command.js';
import { copyProject, type TempProject } from '../support/project.js';

const lines: string[] = [];
const print: Printer = { out: (l) => lines.push(l), err: (l) => lines.push(l) };

let project: TempProject;
let dev: DevSession;
const weather = () => path.join(project.root, 'endpoints/Proxy/Weather/entity.json');

async function status(url: string): Promise<number> {
  return (await fetch(url)).status;
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
  project = await copyProject();
  dev = await startDev({ command: 'dev', rest: [], root: project.root, port: 0, host: '127.0.0.1', docs: false }, print, { logger: false });
}, 60_000);

afterAll(async () => {
  await dev?.close();
  await project?.remove();
});

describe('wharf dev', () => {
  it('serves, then picks up a saved change without a restart', async () => {
    const url = `${dev.server.url}/api/demo/Weather`;
    const app = dev.server.app;
    expect(await status(url)).toBe(501);
    const original = await readFile(weather(), 'utf8');
    await writeFile(weather(), original.replace('"Methods": ["GET"]', '"Enabled": false,\n  "Methods": ["GET"]'));
    await eventually(async () => (await status(url)) === 503, 'Weather disabled (503)');
    const disabled = await fetch(url);
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
    await eventually(async () => (await status(url)) === 501, 'Weather enabled again');
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
    await eventually(async () => (await status(url)) === 501, 'Tides routable');
  });
});
