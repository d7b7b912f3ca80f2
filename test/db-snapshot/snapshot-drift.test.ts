/**
 * The database snapshot against real databases: the catalogue reader gives the committed demo
 * snapshot on a real PostgreSQL loaded with the demo schema; dropping a column shows in
 * /health/details (check DatabaseSchema, Degraded, one log line) and fails `wharf check --db`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDbCheck } from '../../compiler/cli/db-command.js';
import { parseDbSnapshot } from '../../runtime/contract/db-snapshot.js';
import { readCatalogue } from '../../runtime/sql/catalogue.js';
import { createPgDriver } from '../../runtime/sql/drivers/pg.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTestServer, type TestServer } from '../../runtime/testing/test-server.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
let committed: string;
let postgres: TestPostgres;

beforeAll(async () => {
  committed = await readFile(path.join(repo, 'endpoints/database.snapshot.json'), 'utf8');
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
});

function capture(): { out: string[]; err: string[]; print: { out(line: string): void; err(line: string): void } } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, print: { out: (line) => void out.push(line), err: (line) => void err.push(line) } };
}

describe('the catalogue of a real PostgreSQL', () => {
  it('reads the demo schema as the committed demo snapshot (same reader as the embedded demo)', async () => {
    const driver = createPgDriver({ connectionString: postgres.url, statementTimeoutMs: 10_000 });
    try {
      const live = await readCatalogue(driver, ['integrations', 'inventory', 'sales']);
      expect(live).toEqual(parseDbSnapshot(committed));
    } finally {
      await driver.close();
    }
  });
});

describe('drift: a column dropped in the live database', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer({
      generated: { endpoints: [], dbSnapshot: committed },
      handlers: ECHO_HANDLERS,
      environments: { main: { Provider: 'postgres', ConnectionString: postgres.url } },
      serverSettings: { Environment: { ServerName: 'drift', AllowedEnvironments: ['main'] }, WebUi: { SeedPassword: 'seed-password-1' } },
      env: { HEALTHCHECK_DISK_WARNING: '0', HEALTHCHECK_DISK_CRITICAL: '0', HEALTHCHECK_SKIP_PROXY: 'true' },
    });
    await mkdir(path.join(server.project.root, 'endpoints'), { recursive: true });
    await writeFile(path.join(server.project.root, 'endpoints/database.snapshot.json'), committed);
  });
  afterAll(() => server?.close());

  it('before: the check is Healthy and `wharf check --db main` passes', async () => {
    const details = (await server.inject({ method: 'GET', url: '/health/details' })).json() as { checks: { name: string; status: string; data: unknown }[] };
    expect(details.checks.find((c) => c.name === 'DatabaseSchema')).toMatchObject({
      status: 'Healthy',
      data: { objects: 10, environments: { main: { status: 'Healthy' } } },
    });
    const cli = capture();
    expect(await runDbCheck(server.project.root, 'main', cli.print)).toBe(0);
    expect(cli.out).toEqual(["Check passed: the database of 'main' matches endpoints/database.snapshot.json (10 object(s))."]);
  });

  it('after: Degraded naming object, column, expected and found; one log line; the CLI exits 1', async () => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query('ALTER TABLE inventory."Warehouses" DROP COLUMN "Notes"');
    } finally {
      await client.end();
    }
    await gatewayOf(server.app).health.refresh();
    const response = await server.inject({ method: 'GET', url: '/health/details' });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { status: string; checks: { name: string }[] };
    expect(body.status).toBe('Degraded');
    expect(body.checks.find((c) => c.name === 'DatabaseSchema')).toMatchObject({
      status: 'Degraded',
      description: 'The database differs from the committed snapshot in: main',
      data: {
        environments: {
          main: { status: 'Degraded', differences: [{ object: 'inventory.Warehouses', column: 'Notes', expected: 'text null', found: 'missing' }] },
        },
      },
      tags: ['database', 'sql', 'schema'],
    });
    await gatewayOf(server.app).health.refresh();
    const logged = server.logs.lines().filter((l) => l['event'] === 'db.schema_drift');
    expect(logged).toEqual([
      expect.objectContaining({ environment: 'main', object: 'inventory.Warehouses', column: 'Notes', msg: 'database drift in main: inventory.Warehouses.Notes: expected text null, found missing' }),
    ]);
    const cli = capture();
    expect(await runDbCheck(server.project.root, 'main', cli.print)).toBe(1);
    expect(cli.err).toEqual([
      'database drift: inventory.Warehouses.Notes: expected text null, found missing',
      "Check failed: the database of 'main' differs from endpoints/database.snapshot.json in 1 place(s).",
    ]);
  });
});
