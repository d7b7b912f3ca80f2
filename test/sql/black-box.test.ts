/**
 * The gateway itself, black box: a real `wharf start` process on a copy of this project (its
 * endpoints and generated/), over HTTP, with environments on a real PostgreSQL and, when MSSQL_URL
 * is set, on SQL Server. The same read and write cases as the in-process tests (read-cases.ts,
 * write-cases.ts) must answer the same on every database:
 *   pg    PostgreSQL, postgres:// URL
 *   pgkw  the same PostgreSQL, written as docs/settings.md shows it (Host=...;Port=...;Username=...)
 *   ms    SQL Server, ADO.NET form (Server=host,port;Database=...;User Id=...;Password=...)
 *   msurl the same SQL Server, URL form (mssql://user:password@host:port/database?encrypt=...)
 * Writes run on pg and ms (they change the data; the cases expect the seeded warehouses 1..3).
 */
import { execFile, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { cp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMssqlDriver } from '../../runtime/sql/drivers/mssql.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startGatewayProcess, WHARF_CLI, type GatewayProcess } from '../support/gateway-process.js';
import { copyProject, type TempProject } from '../support/project.js';
import { mssqlForms } from './databases.js';
import { readCasesFor } from './read-cases.js';
import { subst, W, WRITE_CASES } from './write-cases.js';

const run = promisify(execFile);
const MSSQL_URL = process.env['MSSQL_URL'];

/** postgres://user:pass@host:port/db as Host=...;Port=...;Username=...;Password=...;Database=... */
function pgKeywords(url: string): string {
  const u = new URL(url);
  return [`Host=${u.hostname}`, `Port=${u.port || 5432}`, `Username=${decodeURIComponent(u.username)}`,
    u.password ? `Password=${decodeURIComponent(u.password)}` : '', `Database=${u.pathname.slice(1)}`].filter(Boolean).join(';');
}

const READ_ENVS = ['pg', 'pgkw', ...(MSSQL_URL ? ['ms', 'msurl'] : [])];
const WRITE_ENVS = ['pg', ...(MSSQL_URL ? ['ms'] : [])];

let pg: TestPostgres;
let project: TempProject;
let gateway: GatewayProcess;
let bearer: string;
/** What the gateway printed after it started (shown when a health check answer is missing). */
let gatewayOutput = '';

beforeAll(async () => {
  pg = await startPostgres();
  project = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
  const envDir = path.join(project.root, 'environments');
  const settings = JSON.parse(await readFile(path.join(envDir, 'settings.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  settings['Environment'] = { ...settings['Environment'], AllowedEnvironments: READ_ENVS };
  // health refreshed every 2 s: the first run at startup meets cold pools (a first SQL Server login can take seconds on a busy machine)
  // body timeout 1 s: a body announced over the limit and cut short must not take the process down (below)
  await writeFile(path.join(envDir, 'settings.json'), JSON.stringify({
    ...settings, Server: { ...settings['Server'], BodyTimeoutSeconds: 1 }, RateLimiting: { Enabled: false }, Caching: { Enabled: false }, HealthChecks: { CacheTimeSeconds: 2 },
  }));
  const environments: Record<string, unknown> = {
    pg: { Provider: 'postgres', ConnectionString: pg.url },
    pgkw: { Provider: 'postgres', ConnectionString: pgKeywords(pg.url) },
  };
  if (MSSQL_URL) {
    const forms = mssqlForms(MSSQL_URL);
    environments['ms'] = { Provider: 'mssql', ConnectionString: forms.ado };
    environments['msurl'] = { Provider: 'mssql', ConnectionString: forms.url };
    // the write cases expect the seeded warehouses only (the database outlives earlier runs)
    const driver = createMssqlDriver({ connectionString: MSSQL_URL });
    try {
      await driver.query("DELETE FROM inventory.Warehouses WHERE WarehouseId > 3 AND Code NOT LIKE 'ZZ-%'", []);
    } finally {
      await driver.close();
    }
  }
  for (const [name, value] of Object.entries(environments)) {
    await mkdir(path.join(envDir, name), { recursive: true });
    await writeFile(path.join(envDir, name, 'settings.json'), JSON.stringify(value));
  }
  const env = { ...process.env, NODE_ENV: 'production' };
  const { stdout } = await run(process.execPath, [WHARF_CLI, 'token', 'create', '--username', 'black-box'], { cwd: project.root, env });
  bearer = stdout.trim().split('\n').at(-1) as string;
  gateway = await startGatewayProcess(project.root, env);
  gateway.child.stdout?.on('data', (c: Buffer) => { gatewayOutput += c.toString(); });
  gateway.child.stderr?.on('data', (c: Buffer) => { gatewayOutput += c.toString(); });
}, 180_000);

afterAll(async () => {
  gateway?.child.kill('SIGTERM');
  await project?.remove();
  await pg?.stop();
});

interface Answer {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  readonly text: string;
  json(): unknown;
}

/**
 * One HTTP request on its own socket (Connection: close). Not fetch or node:http: a server that
 * answers 413 and closes while a 10 MiB body is still being sent is an answer here, not EPIPE.
 */
function call(method: string, url: string, payload?: string, contentType?: string | null): Promise<Answer> {
  const target = new URL(`${gateway.url}${url}`);
  const body = Buffer.from(payload ?? '');
  const head = [`${method} ${target.pathname}${target.search} HTTP/1.1`, `Host: ${target.host}`, `Authorization: Bearer ${bearer}`, 'Connection: close',
    ...(contentType ? [`Content-Type: ${contentType}`] : []), ...(payload === undefined ? [] : [`Content-Length: ${body.length}`])].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (chunks.length === 0 && error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      const raw = Buffer.concat(chunks);
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no HTTP answer to ${method} ${url}`));
      const [status, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
      const fields = new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let content = raw.subarray(split + 4);
      if (fields.get('transfer-encoding') === 'chunked') {
        const parts: Buffer[] = [];
        for (let at = 0; ;) {
          const eol = content.indexOf('\r\n', at);
          const size = parseInt(content.subarray(at, eol).toString('latin1'), 16);
          if (!size) break;
          parts.push(content.subarray(eol + 2, eol + 2 + size));
          at = eol + 2 + size + 2;
        }
        content = Buffer.concat(parts);
      }
      const text = content.toString('utf8');
      resolve({ status: Number(status?.split(' ')[1]), headers: { get: (name) => fields.get(name.toLowerCase()) ?? null }, text, json: () => JSON.parse(text) as unknown });
    });
    socket.write(`${head}\r\n\r\n`);
    // a body over the server's limit: only its first KiB (the server refuses by Content-Length and
    // closes; unread bytes in its socket would reset the connection before its answer is read)
    socket.write(body.length > 1024 * 1024 ? body.subarray(0, 1024) : body);
  });
}

/** `wharf start` on `root` until it exits (a startup failure): its exit code and all it printed. */
function startUntilExit(root: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WHARF_CLI, 'start', '--root', root, '--port', '0'], { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
    const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.each(READ_ENVS)('reads through the gateway process on %s', (env) => {
  it.each(readCasesFor(env))('%s', async (_name, { given, want }) => {
    const payload = given.payload === undefined ? undefined : typeof given.payload === 'string' ? given.payload : JSON.stringify(given.payload);
    const res = await call(given.method ?? 'GET', given.url, payload, given.contentType);
    expect(res.json()).toEqual(want.body);
    expect(res.status).toBe(want.status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const [name, value] of Object.entries(want.headers ?? {})) expect(res.headers.get(name) ?? undefined).toBe(value);
    if (want.status === 200) expect(res.text).toBe(JSON.stringify(want.body));
  });
});

describe.each(WRITE_ENVS)('writes through the gateway process on %s', (env) => {
  const vars = new Map<string, number>();
  // without mssql-write.test.ts's rows (codes ZZ-nnn): it may run at the same time on the same SQL Server
  const warehouses = async () => (await call('GET', `/api/${env}/${W}?$top=1000&$orderby=WarehouseId&$filter=${encodeURIComponent("not startswith(Code,'ZZ-')")}`)).json();
  it.each(WRITE_CASES)('%s', async (_name, raw) => {
    const given = subst(raw.given, vars);
    const before = raw.want.unchanged ? await warehouses() : null;
    const payload = given.payload === undefined ? undefined : typeof given.payload === 'string' ? given.payload : JSON.stringify(given.payload);
    const contentType = given.contentType === undefined ? (payload === undefined ? undefined : 'application/json') : given.contentType;
    const res = await call(given.method, `/api/${env}/${given.path}`, payload, contentType);
    if (given.save) vars.set(given.save, (res.json() as { id: number }).id);
    const want = subst(raw.want, vars);
    expect(res.json()).toEqual(want.body);
    expect(res.status).toBe(want.status);
    for (const [name, value] of Object.entries(want.headers ?? {})) expect(res.headers.get(name) ?? undefined).toBe(value?.replace('{env}', env));
    if (before !== null) expect(await warehouses()).toEqual(before);
  });

  it('a webhook stores the event and answers its new id', async () => {
    const res = await call('POST', `/api/${env}/Integrations/PaymentEvents/payment-failed`, '{"order":7,"reason":"card declined"}', 'application/json');
    expect(res.json()).toEqual({ success: true, message: 'Webhook processed successfully.', result: null, id: expect.any(Number) });
    expect(res.status).toBe(200);
  });
});

describe('a body announced over the limit and cut short', () => {
  it('is refused with 413 and the gateway keeps serving after the body timeout', async () => {
    const res = await call('POST', `/api/pg/${W}`, `{"Code":"NL-009","Notes":"${'x'.repeat(20 * 1024 * 1024)}"}`, 'application/json');
    expect(res.status).toBe(413);
    await new Promise((r) => setTimeout(r, 2500)); // past Server:BodyTimeoutSeconds (1 s here)
    expect((await call('GET', `/api/pg/${W}/1?$select=Code`)).json()).toEqual({ Code: 'NL-001' });
    expect(gateway.child.exitCode).toBeNull();
  });
});

describe('the Database health check through the gateway process', () => {
  it('every environment answers', async () => {
    type Details = { checks: Array<{ name: string; status: string; data: { environments: Record<string, { status: string }> } }> };
    const statuses = async () => {
      const database = ((await call('GET', '/health/details')).json() as Details).checks.find((c) => c.name === 'Database');
      return { status: database?.status, environments: Object.fromEntries(Object.entries(database?.data.environments ?? {}).map(([name, e]) => [name, e.status])) };
    };
    const want = { status: 'Healthy', environments: Object.fromEntries(READ_ENVS.map((name) => [name, 'Healthy'])) };
    // a report from before the pools were warm may still be cached: wait (bounded) for a fresh one
    const fresh = () => statuses().catch((error: unknown) => {
      throw new Error(`${String(error)}; gateway exit ${gateway.child.exitCode}; printed:\n${gatewayOutput.slice(-4000)}`);
    });
    let got = await fresh();
    for (const deadline = Date.now() + 30_000; JSON.stringify(got) !== JSON.stringify(want) && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 1000));
      got = await fresh();
    }
    expect(got).toEqual(want);
  }, 60_000);
});

describe('a malformed connection string stops the gateway at startup, naming the key', () => {
  it.each([
    ['postgres', 'Host=127.0.0.1;Prot=5432;Database=x', "ConnectionString: unknown key 'Prot'"],
    ['mssql', 'Server=127.0.0.1,14x3;Database=x', "ConnectionString: Server (the port after ',') must be a whole number"],
  ])('%s: %s', async (provider, connectionString, message) => {
    const copy = await copyProject(['endpoints', 'schemas', 'environments', 'generated']);
    try {
      await cp(path.join(project.root, 'data'), path.join(copy.root, 'data'), { recursive: true }).catch(() => undefined);
      await writeFile(path.join(copy.root, 'environments/demo/settings.json'), JSON.stringify({ Provider: provider, ConnectionString: connectionString }));
      const { code, output } = await startUntilExit(copy.root);
      expect(output).toContain(message);
      expect(output).toContain('environments/demo/settings.json');
      expect(code).not.toBe(0);
    } finally {
      await rm(copy.root, { recursive: true, force: true });
    }
  }, 60_000);
});
