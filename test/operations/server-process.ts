/**
 * Test helpers for the gateway as a real process: a fixture project served from a real PostgreSQL,
 * a started `wharf start` / `npm start` child with its banner parsed, the port watched until it is
 * free, and a frozen PostgreSQL (SIGSTOP on the postmaster and every backend, SIGCONT to resume).
 */
import { execFile as execFileCb, spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';

const execFile = promisify(execFileCb);

export const WHARF = path.join(REPO_ROOT, 'scripts', 'wharf.mjs');

/** A copy of the sample project whose `demo` environment is the given PostgreSQL, built (generated/ and .wharf/dist). */
export async function postgresProject(pgUrl: string): Promise<TempProject> {
  const project = await copyProject();
  await writeFile(
    path.join(project.root, 'environments', 'demo', 'settings.json'),
    JSON.stringify({ Provider: 'postgres', ConnectionString: pgUrl }),
  );
  await execFile(process.execPath, [WHARF, 'build', '--root', project.root, '--no-docs'], { cwd: REPO_ROOT });
  return project;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  readonly port: number;
  /** The demo token the banner printed (only on the project's first start). */
  readonly token: string | null;
  output(): string;
  /** Resolves with the exit code (or the signal name). */
  readonly exited: Promise<number | string>;
}

export interface SpawnOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Spawns and waits for the banner (`Wharf is serving ... on <url>` and the demo token). */
export function spawnServer(options: SpawnOptions, waitMs = 60_000): Promise<ServerProcess> {
  const child = spawn(options.command, [...options.args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no banner within ${waitMs} ms:\n${text}`));
    }, waitMs);
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const url = /Wharf is serving \d+ endpoints on (http:\/\/[^\s]+)/.exec(text)?.[1];
      const token = /^\s+(whf_\S+)$/m.exec(text)?.[1] ?? null;
      if (url && (token || text.includes('Every /api call needs a token'))) {
        clearTimeout(timer);
        resolve({ child, url, port: Number(new URL(url).port), token, output: () => text, exited });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before the banner:\n${text}`));
    });
  });
}

/** True when nothing accepts connections on the port. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** Polls until the port is free; false when it is still taken after `withinMs`. */
export async function waitUntilPortFree(port: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (await portIsFree(port)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return portIsFree(port);
}

/** `exited` or 'timeout' after `ms`. */
export function exitWithin(server: ServerProcess, ms: number): Promise<number | string> {
  return Promise.race([server.exited, new Promise<string>((r) => setTimeout(() => r('timeout'), ms).unref())]);
}

/** The postmaster and all its children (backends, checkpointer ...) of the server on `port`. */
async function postgresPids(port: number): Promise<number[]> {
  const { stdout } = await execFile('ps', ['-eo', 'pid,ppid,args']);
  const rows = stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), Number(m[2]), m[3]!] as const);
  const postmaster = rows.find(([, , args]) => /postgres/.test(args) && new RegExp(`-p ${port}\\b`).test(args));
  if (!postmaster) throw new Error(`no postmaster on port ${port}`);
  const pid = postmaster[0];
  return [pid, ...rows.filter(([, ppid]) => ppid === pid).map(([child]) => child)];
}

/** Freezes a PostgreSQL (SIGSTOP); the returned function resumes it (SIGCONT). */
export async function freezePostgres(port: number): Promise<() => void> {
  const pids = await postgresPids(port);
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  return () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone
      }
    }
  };
}

export async function readText(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}
