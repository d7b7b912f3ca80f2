/**
 * `npm start` is the whole demo: it runs the sample upstream of the Proxy endpoints in its own
 * process (scripts/demo-upstream.mjs through `wharf start --demo-upstream`), so every sample endpoint
 * answers and /health is Healthy on the first start; the upstream stops with the server on SIGTERM
 * and SIGINT sent to the npm process; a taken upstream port is reported and the server starts anyway.
 * The banner prints the first administrator's one-time password as a plain block, like the demo
 * token, also when the output is a pipe (a file, a process manager). A fixture project whose Proxy
 * endpoint points at free ports (DEMO_UPSTREAM_PORTS moves the upstream there). Also: QUERY on a compiled
 * Static endpoint without EnableFiltering answers like its GET.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, connect, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { fixtureProject, REPO_ROOT, type TempProject } from '../support/project.js';

interface NpmStart {
  readonly child: ChildProcess;
  readonly url: string;
  readonly out: () => string;
  readonly exited: Promise<number | null>;
}

const projects: TempProject[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const project of projects) await project.remove();
});

async function project(primary: number, standby: number): Promise<TempProject> {
  const created = await fixtureProject({
    'Proxy/Weather/entity.json': { Url: `http://127.0.0.1:${primary}/weather`, Methods: ['GET'], FallbackUrls: [`http://127.0.0.1:${standby}/weather`] },
    'Static/Reference/Units/entity.json': { ContentFile: './units.csv' },
    'Static/Reference/Units/units.csv': 'code,name\nkg,Kilogram\n',
  });
  projects.push(created);
  return created;
}

function npmStart(root: string, ports: readonly [number, number]): Promise<NpmStart> {
  const child = spawn('npm', ['start', '--silent', '--', '--root', root, '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DEMO_UPSTREAM_PORTS: ports.join(','), PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${out}`)), 120_000);
    const poll = setInterval(() => {
      const match = /Wharf is serving \d+ endpoints on (http:\/\/\S+)/.exec(out);
      if (match && /Every \/api call|Try it:/.test(out)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, url: match[1] as string, out: () => out, exited });
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopsWith(started: NpmStart, signal: NodeJS.Signals): Promise<number | null> {
  started.child.kill(signal);
  const deadline = new Promise<'lingers'>((resolve) => setTimeout(() => resolve('lingers'), 20_000).unref());
  return (await Promise.race([started.exited, deadline])) as number | null;
}

describe('npm start', () => {
  it('runs the sample upstream: Healthy at once, the Proxy endpoint answers, the admin password is a plain block; SIGTERM stops both', async () => {
    const ports = [await freePort(), await freePort()] as const;
    const { root } = await project(...ports);
    const started = await npmStart(root, ports);
    const out = started.out();
    expect(out).toContain(`demo upstream primary on http://127.0.0.1:${ports[0]}`);
    expect(out).toContain(`demo upstream standby on http://127.0.0.1:${ports[1]}`);

    const token = /^ {2}(whf_\S+)$/m.exec(out)?.[1];
    expect(token).toMatch(/^whf_/);
    const block = /^Created the first console administrator \(shown once; the password must be changed at the first sign-in\):\n {2}user {7}(\S+)\n {2}password {3}(\S+)\n {2}sign in {4}(\S+)$/m.exec(out);
    expect(block, out).not.toBeNull();
    const [, user, password, signIn] = block as unknown as [string, string, string, string];
    expect(signIn).toBe(`${started.url}/ui/`);
    // the same account and password the log line names
    expect(out).toContain(`Created the first console administrator '${user}' with the one-time password ${password} `);

    const auth = { authorization: `Bearer ${token}` };
    const health = await fetch(`${started.url}/health`, { headers: auth });
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('Healthy');
    const weather = await fetch(`${started.url}/api/demo/Weather?city=Delft`, { headers: auth });
    expect(weather.status).toBe(200);
    expect(await weather.json()).toMatchObject({ servedBy: 'primary', city: 'Delft' });

    // a Static endpoint without EnableFiltering, built by the compiler: QUERY answers like the GET (spec method matrix)
    const units = await fetch(`${started.url}/api/demo/Reference/Units`, { method: 'QUERY', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' });
    expect(units.status).toBe(200);
    expect(await units.text()).toBe('code,name\nkg,Kilogram\n');
    expect(units.headers.get('content-location')).toBe('/api/demo/Reference/Units');

    expect(await stopsWith(started, 'SIGTERM')).toBe(0);
    expect(await listening(ports[0])).toBe(false);
    expect(await listening(ports[1])).toBe(false);
    expect(await listening(Number(new URL(started.url).port))).toBe(false);
  }, 180_000);

  it('says so when an upstream port is taken and serves anyway; Ctrl-C (SIGINT) stops it', async () => {
    const ports = [await freePort(), await freePort()] as const;
    const { root } = await project(...ports);
    const taken: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => taken.listen(ports[1], '127.0.0.1', resolve));
    try {
      const started = await npmStart(root, ports);
      expect(started.out()).toContain(`demo upstream standby: port ${ports[1]} on 127.0.0.1 is already in use; not starting it`);
      expect(started.out()).toContain(`demo upstream primary on http://127.0.0.1:${ports[0]}`);
      expect((await fetch(`${started.url}/health/live`)).status).toBe(200);
      expect(await stopsWith(started, 'SIGINT')).toBe(0);
      expect(await listening(ports[0])).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 180_000);
});

describe("the README's Quick start", () => {
  const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## How it works'));

  it('says that demo writes vanish on restart and how to keep them', () => {
    expect(quickStart).toContain('**Demo writes vanish on restart.**');
    expect(quickStart).toContain('runtime/sql/demo/schema.sql');
    expect(quickStart).toContain('"Provider": "postgres"');
  });

  it('says npm start runs the sample upstream and prints the administrator block', () => {
    expect(quickStart).toContain('runs the sample upstream');
    expect(quickStart).not.toMatch(/answer against `npm run demo:upstream`/);
    expect(quickStart).toContain('console administrator with its one-time password');
  });
});
