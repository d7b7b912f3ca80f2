/**
 * Shared set-up of the sync tests: a project folder with environments/<env>/sync.json written
 * from an object, the PostgreSQL outbox example loaded into a database, product changes, and a
 * poll-until helper (no timing assertions: it only waits for a condition).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { POSTGRES_OUTBOX_SQL } from '../../runtime/sync/demo/postgres-outbox.js';

export async function projectWith(environments: Record<string, unknown>, service: unknown = { Health: { Enabled: false } }): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-'));
  await writeSyncConfig(root, environments, service);
  return root;
}

export async function writeSyncConfig(root: string, environments: Record<string, unknown>, service?: unknown): Promise<void> {
  await mkdir(path.join(root, 'environments'), { recursive: true });
  if (service !== undefined) await writeFile(path.join(root, 'environments', 'sync.json'), JSON.stringify(service, null, 2));
  for (const [name, config] of Object.entries(environments)) {
    await mkdir(path.join(root, 'environments', name), { recursive: true });
    await writeFile(path.join(root, 'environments', name, 'sync.json'), JSON.stringify(config, null, 2));
  }
}

export async function installOutbox(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of POSTGRES_OUTBOX_SQL) await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function sql(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** Inserts `count` products (one statement, one transaction); returns their ids. */
export async function insertProducts(url: string, count: number, prefix: string): Promise<number[]> {
  const result = await sql(
    url,
    `INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
     SELECT $1 || g, 'P ' || g, 1, 9.99, g, now() FROM generate_series(1, $2::int) g RETURNING "ProductId"`,
    [prefix, count],
  );
  return result.rows.map((r: { ProductId: number }) => r.ProductId);
}

export async function until<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function pgEnvironment(url: string, destinations: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Provider: 'postgres',
    ConnectionStrings: { main: url },
    PollingIntervalSeconds: 0.2,
    RetryCount: 1,
    RetryDelaySeconds: 0.1,
    TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges', InitialSyncMode: 'Incremental' }],
    Destinations: destinations,
    ...extra,
  };
}

/** An HTTP destination on loopback that answers 503 while `failing` is true, 204 after. */
export interface Receiver {
  readonly url: string;
  failing: boolean;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiver.failing ? 503 : 204).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`,
    failing: true,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return receiver;
}
