/**
 * Issue 27 item 7: the README's Quick start and every docs page's example commands still work as
 * written. The demo runs once the way users start it (`npm start`, from a copy of the project on a
 * free port, the sample upstream moved to free ports); then every executable example (see the
 * convention in doc-examples.ts) runs for real: curl lines with the curl binary against the demo
 * (`127.0.0.1:8080`/`localhost:8080` become its address, `$TOKEN`/`<token>` its demo token, `$T`
 * `Authorization: Bearer <token>`), CLI invocations (`npx wharf ...`, `wharf ...`) as processes in
 * the copy. The sign-in examples' placeholders become the demo's first administrator (`admin`,
 * `admin-3fk9x2qa`), its one-time password (`...`, `<one-time>`) and the CSRF value in the cookie
 * jar (`3q2...`). Servers an example starts (`wharf docs serve`, `wharf sync --demo`) get a free port, must
 * answer on it, and stop on SIGTERM. Every failure is reported with its file and line.
 * `WHARF_EXAMPLES=docs/console-api.md` runs only the examples of the pages whose path contains it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, writeFile, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { partPath } from '../setup/system-parts.js';
import { copyProject, REPO_ROOT, type TempProject } from '../support/project.js';
import { extractExamples, shapeDifferences, type DocExample, type DocProblem, type SkippedExample } from './doc-examples.js';

/** Files the examples name as the user's own (uploads). */
const USER_FILES: Readonly<Record<string, string>> = { 'invoice-42.pdf': '%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n' };
/** Commands that serve until stopped: how to give them a free port and where they answer. */
const SERVERS: ReadonlyArray<{ match: RegExp; portFlag: string; probe: (command: string) => string }> = [
  { match: /\bdocs serve\b(?!.*--export)/, portFlag: '--port', probe: (c) => `${/--base-path\s+(\S+)/.exec(c)?.[1] ?? ''}/` },
  { match: /\bsync --demo\b/, portFlag: '--health-port', probe: () => '/health' },
];

function docFiles(): string[] {
  const pages = readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...pages.map((f) => `docs/${f}`)];
}

const examples: DocExample[] = [];
const skipped: SkippedExample[] = [];
const problems: DocProblem[] = [];
for (const file of docFiles()) {
  const extracted = extractExamples(file, readFileSync(path.join(REPO_ROOT, file), 'utf8'));
  examples.push(...extracted.examples);
  skipped.push(...extracted.skipped);
  problems.push(...extracted.problems);
}

let project: TempProject;
let demo: ChildProcess | undefined;
let demoUrl = '';
let token = '';
let adminUser = '';
let adminPassword = '';
let bin = '';
const started: ChildProcess[] = [];

beforeAll(async () => {
  project = await copyProject(['endpoints', 'schemas', 'environments', 'docs']);
  const ports = [await freePort(), await freePort()] as const;
  await moveUpstream(project.root, ports);
  for (const [name, content] of Object.entries(USER_FILES)) await writeFile(path.join(project.root, name), content);
  // `npx wharf` and `wharf` run this checkout's CLI, as in a project that depends on wharf
  bin = path.join(project.root, 'node_modules/.bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'wharf'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO_ROOT, 'scripts/wharf.mjs')}" "$@"\n`);
  await chmod(path.join(bin, 'wharf'), 0o755);

  const child = spawn('npm', ['start', '--silent', '--', '--root', project.root, '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DEMO_UPSTREAM_PORTS: ports.join(','), PORT: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  demo = child;
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not serve:\n${out}`)), 150_000);
    const poll = setInterval(() => {
      const url = /Wharf is serving \d+ endpoints on (http:\/\/\S+)/.exec(out)?.[1];
      const demoToken = /^ {2}(whf_\S+)$/m.exec(out)?.[1];
      const admin = /^ {2}user {7}(\S+)\n {2}password {3}(\S+)$/m.exec(out);
      if (url && demoToken && admin && /Try it:/.test(out)) {
        clearInterval(poll);
        clearTimeout(timer);
        demoUrl = url;
        token = demoToken;
        [, adminUser = '', adminPassword = ''] = admin;
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${out}`));
    });
  });
}, 180_000);

afterAll(async () => {
  for (const child of [...started, ...(demo ? [demo] : [])]) stopGroup(child, 'SIGKILL');
  await project?.remove();
});

async function moveUpstream(root: string, ports: readonly [number, number]): Promise<void> {
  const dir = path.join(root, 'endpoints/Proxy');
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!entry.endsWith('entity.json')) continue;
    const file = path.join(dir, entry);
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replaceAll('127.0.0.1:9100', `127.0.0.1:${ports[0]}`).replaceAll('127.0.0.1:9101', `127.0.0.1:${ports[1]}`));
  }
}

/** A process and its children (bash, npx, node) were started in their own group. */
function stopGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

function run(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Ran> {
  const child = spawn('bash', ['-c', script], { cwd: project.root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      err += `\n(killed after ${timeoutMs} ms)`;
      stopGroup(child, 'SIGKILL');
    }, timeoutMs);
    // 'close' comes once the output pipes are read to the end too ('exit' can come first, with the
    // last output, curl's status code included, still in the pipe); bounded after 'exit', since a
    // process a command started in the background may hold the pipes open
    let code: number | null = null;
    const done = (): void => {
      clearTimeout(timer);
      resolve({ code, out, err });
    };
    child.once('close', done);
    child.once('exit', (exitCode) => {
      code = exitCode;
      setTimeout(done, 2000).unref();
    });
  });
}

function environment(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, TOKEN: token, T: `Authorization: Bearer ${token}`, PORT: '', NO_COLOR: '1' };
}

/** The command as the test runs it: the demo's address, token and administrator instead of the docs' placeholders. */
function asRun(command: string): string {
  return command
    .replace(/\b(?:https?:\/\/)?(?:127\.0\.0\.1|localhost):8080\b/g, demoUrl)
    .replaceAll('<token>', token)
    .replaceAll('"username":"admin"', `"username":"${adminUser}"`)
    .replaceAll('admin-3fk9x2qa', adminUser)
    .replaceAll('"password":"..."', `"password":"${adminPassword}"`)
    .replaceAll('<one-time>', adminPassword)
    // inside the single-quoted JSON of -d: the sign-in value the cookie jar holds now (GET /ui/api/auth/csrf)
    .replaceAll('3q2...', `'"$(awk '/gateway_signin_csrf/{print $7}' jar)"'`);
}

async function runCurl(example: DocExample): Promise<string | undefined> {
  const body = path.join(project.root, `.example-body-${example.file.replace(/\W/g, '_')}-${example.line}`);
  await rm(body, { force: true });
  const streaming = /\s-N\b/.test(example.command);
  const curl = `curl() { "${partPath('curl')}" --max-time ${streaming ? 3 : 30} -sS -o "${body}" -w '%{http_code}' "$@"; }`;
  const ran = await run(`${curl}\n${asRun(example.command)}`, environment(), 60_000);
  const status = Number(ran.out.trim().slice(-3));
  const answer = await readFile(body, 'utf8').catch(() => '');
  const timedOutStream = streaming && ran.code === 28 && status === 200;
  if (ran.code !== 0 && !timedOutStream) return `curl exited with ${ran.code}: ${ran.err.trim()}`;
  if (example.expected.length === 0) return status >= 200 && status < 400 ? undefined : `answered ${status}: ${answer.slice(0, 500)}`;
  const misses: string[] = [];
  for (const shown of example.expected) {
    if (shown.status !== undefined && shown.status !== status) {
      misses.push(`shown ${shown.text}: answered ${status}`);
      continue;
    }
    if (shown.status === undefined && (status < 200 || status >= 400)) {
      misses.push(`shown ${shown.text}: answered ${status}`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer);
    } catch {
      misses.push(`shown ${shown.text}: the answer is not JSON`);
      continue;
    }
    const differences = shapeDifferences(shown.json, parsed);
    if (differences.length === 0) return undefined;
    misses.push(`shown ${shown.text}: ${differences.join('; ')}`);
  }
  return `${misses.join('\n    ')}\n    answer (${status}): ${answer.slice(0, 500)}`;
}

async function runServer(example: DocExample, server: (typeof SERVERS)[number]): Promise<string | undefined> {
  const port = await freePort();
  const flag = new RegExp(`\\s${server.portFlag}\\s+\\d+`);
  const command = flag.test(example.command) ? example.command.replace(flag, ` ${server.portFlag} ${port}`) : `${example.command} ${server.portFlag} ${port}`;
  const probe = `http://127.0.0.1:${port}${server.probe(example.command)}`;
  const child = spawn('bash', ['-c', `exec ${command}`], { cwd: project.root, env: environment(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  started.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 90_000;
  let answered: number | undefined;
  while (Date.now() < deadline && child.exitCode === null) {
    answered = await fetch(probe).then((r) => r.status, () => undefined);
    if (answered !== undefined && answered < 400) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (child.exitCode !== null) return `exited with ${child.exitCode} before it answered on ${probe}:\n${out.slice(-1500)}`;
  stopGroup(child, 'SIGTERM');
  const code = await Promise.race([exited, new Promise<'lingers'>((resolve) => setTimeout(() => resolve('lingers'), 20_000))]);
  // npx (npm exec) passes the signal on and then ends by it, as after Ctrl-C in a terminal
  const stoppedBySignal = code === null && child.signalCode === 'SIGTERM';
  if (answered === undefined || answered >= 400) return `did not answer on ${probe} within 90 s (last: ${answered ?? 'no answer'}):\n${out.slice(-1500)}`;
  if (code === 'lingers') {
    stopGroup(child, 'SIGKILL');
    return `still running 20 s after SIGTERM`;
  }
  return code === 0 || stoppedBySignal ? undefined : `exited with ${code} after SIGTERM:\n${out.slice(-1500)}`;
}

async function runCli(example: DocExample): Promise<string | undefined> {
  const server = SERVERS.find((s) => s.match.test(example.command));
  if (server) return runServer(example, server);
  const ran = await run(asRun(example.command), environment(), 120_000);
  return ran.code === 0 ? undefined : `exited with ${ran.code}:\n${(ran.out + ran.err).trim().slice(-1500)}`;
}

/**
 * Examples of one page run in order (they share state: tokens, accounts, a cookie jar, ./site); a
 * server an example starts is on its own port, so it runs on its own. The slowest first, four at once.
 */
async function runAll(): Promise<string[]> {
  const tasks: DocExample[][] = [];
  const byFile = new Map<string, DocExample[]>();
  const only = process.env['WHARF_EXAMPLES'];
  for (const example of examples.filter((e) => only === undefined || e.file.includes(only))) {
    if (SERVERS.some((s) => s.match.test(example.command))) tasks.push([example]);
    else byFile.set(example.file, [...(byFile.get(example.file) ?? []), example]);
  }
  tasks.push(...byFile.values());
  const cost = (task: DocExample[]): number => task.reduce((sum, e) => sum + (e.kind === 'curl' ? 1 : 20) + (/sync --demo/.test(e.command) ? 100 : 0), 0);
  tasks.sort((a, b) => cost(b) - cost(a));
  const failures: string[] = [];
  const worker = async (): Promise<void> => {
    for (let task = tasks.shift(); task; task = tasks.shift()) {
      for (const example of task) {
        const failure = example.kind === 'curl' ? await runCurl(example) : await runCli(example);
        if (failure) failures.push(`${example.file}:${example.line}: ${example.command}\n    ${failure}`);
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return failures.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

describe('the examples of README.md and docs/*.md', () => {
  it('are marked consistently (every opt-out names its reason and skips something)', () => {
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.message}`)).toEqual([]);
    // the walk finds the pages' examples: curl lines and CLI invocations on several pages
    expect(examples.filter((e) => e.kind === 'curl').length).toBeGreaterThan(20);
    expect(new Set(examples.map((e) => e.file)).size).toBeGreaterThan(8);
    expect(skipped.every((s) => s.reason.trim().length > 10)).toBe(true);
  });

  it('work as written against the demo that npm start serves', async () => {
    const failures = await runAll();
    // fix the page (or the code, when the page says what it should do); a block that cannot run
    // here gets an opt-out with its reason (the convention is in test/docs/doc-examples.ts)
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 300_000);
});
