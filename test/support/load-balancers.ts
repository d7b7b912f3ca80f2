/**
 * nginx and HAProxy from the machine's packages (test/setup/system-parts.ts), configured from the
 * very files docs/deployment.md shows (docs/examples/nginx.conf, docs/examples/haproxy.cfg), in
 * the foreground on loopback; stop() kills the process this started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../setup/free-port.js';
import { partPath } from '../setup/system-parts.js';
import { REPO_ROOT } from './project.js';

export interface LoadBalancer {
  readonly url: string;
  output(): string;
  stop(): Promise<void>;
}

export interface Haproxy extends LoadBalancer {
  /** The state HAProxy's checks give each server (`a`, `b`): UP, DOWN, ... (from its stats socket). */
  serverStates(): Promise<Record<string, string>>;
}

/** The docs example with its {{PLACEHOLDERS}} filled in; an unknown placeholder is an error. */
export async function renderExample(file: string, values: Readonly<Record<string, string>>): Promise<string> {
  const text = await readFile(path.join(REPO_ROOT, 'docs/examples', file), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${file}: no value for {{${name}}}`);
    return value;
  });
}

async function until(ready: () => Promise<boolean>, what: string, output: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not come up:\n${output()}`);
}

function run(command: string, args: readonly string[], dir: string, url: string): LoadBalancer {
  const child: ChildProcess = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    output: () => text,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Comes up when a GET through it reaches an instance (any HTTP answer). */
async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(1000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function startNginx(instances: readonly [string, string]): Promise<LoadBalancer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-nginx-'));
  const port = await freePort();
  const site = await renderExample('nginx.conf', { INSTANCE_A: instances[0], INSTANCE_B: instances[1], LISTEN: `127.0.0.1:${port}` });
  await writeFile(path.join(dir, 'wharf.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, temp));
  // one process in the foreground (no master, no workers running as another user), files in dir
  const main = [
    'daemon off;',
    'master_process off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${dir}/${t};`),
    `  include ${dir}/wharf.conf;`,
    '}',
  ].join('\n');
  await writeFile(path.join(dir, 'nginx.conf'), main);
  const lb = run(partPath('nginx'), ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')], dir, `http://127.0.0.1:${port}`);
  await until(() => reachable(lb.url), 'nginx', () => `${lb.output()}`);
  return { ...lb, output: () => lb.output() };
}

/** One command on HAProxy's stats socket; its answer. */
function statsCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const client = connect(socket, () => client.end(`${command}\n`));
    client.setEncoding('utf8');
    client.on('data', (chunk: string) => (answer += chunk));
    client.on('end', () => resolve(answer));
    client.on('error', reject);
  });
}

export async function startHaproxy(instances: readonly [string, string]): Promise<Haproxy> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-haproxy-'));
  const port = await freePort();
  const config = await renderExample('haproxy.cfg', { INSTANCE_A: instances[0], INSTANCE_B: instances[1], LISTEN: `127.0.0.1:${port}` });
  await writeFile(path.join(dir, 'haproxy.cfg'), config);
  // the test's own addition, in a second file: a stats socket to read the check results from
  const socket = path.join(dir, 'stats.sock');
  await writeFile(path.join(dir, 'test.cfg'), `global\n    stats socket ${socket} level user\n`);
  const lb = run(partPath('haproxy'), ['-db', '-f', path.join(dir, 'haproxy.cfg'), '-f', path.join(dir, 'test.cfg')], dir, `http://127.0.0.1:${port}`);
  await until(() => reachable(lb.url), 'haproxy', lb.output);
  return {
    ...lb,
    serverStates: async () => {
      const csv = (await statsCommand(socket, 'show stat')).split('\n');
      const header = (csv[0] ?? '').replace(/^# /, '').split(',');
      const [proxy, server, status] = ['pxname', 'svname', 'status'].map((name) => header.indexOf(name)) as [number, number, number];
      const states: Record<string, string> = {};
      for (const line of csv.slice(1)) {
        const cells = line.split(',');
        if (cells[proxy] === 'wharf' && cells[server] !== 'BACKEND' && cells[server]) states[cells[server]!] = cells[status] ?? '';
      }
      return states;
    },
  };
}
