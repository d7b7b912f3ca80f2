/**
 * `wharf sync --demo`: the sync service against the embedded demo database (PGlite, nothing to
 * install). It adds the PostgreSQL outbox example (postgres-outbox.ts) to the demo database,
 * records the current products as inserts, then changes a product every second (insert, update
 * or delete) while the service exports every change to JSON files under data/sync-demo/out/.
 * The demo database starts from its seed on every run, so the demo's state files start fresh too.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { SqlDriver } from '../../sql/drivers/driver.js';
import { createPgliteDriver } from '../../sql/drivers/pglite.js';
import type { SyncConfig } from '../config/model.js';
import { serviceSettingsOf } from '../config/load.js';
import { normalizeEnvironment } from '../config/normalize.js';
import type { Batch } from '../destinations/batch.js';
import { filePathOf } from '../destinations/file.js';
import { startSync, type RunningSync } from '../run.js';
import { POSTGRES_OUTBOX_BACKFILL_SQL, POSTGRES_OUTBOX_SQL } from './postgres-outbox.js';

export const DEMO_CONNECTION = 'embedded://demo';
export const DEMO_DIR = 'data/sync-demo';

/** The demo's configuration; `Section__Key` variables (`WebHost__Enabled=true`) apply as to `wharf sync`. */
export async function demoConfig(root: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<SyncConfig> {
  const service = await serviceSettingsOf({ StateDirectory: DEMO_DIR, Health: { FirstProbeDelaySeconds: 2 } }, root, env);
  const environment = normalizeEnvironment('demo', '(built-in demo)', {
    Provider: 'embedded',
    ConnectionStrings: { main: DEMO_CONNECTION },
    PollingIntervalSeconds: 1,
    TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges', InitialSyncMode: 'Full' }],
    Destinations: [{ Type: 'File', Key: 'files', Path: `${DEMO_DIR}/out/{environment}/{object}/{version}.json` }],
  });
  return { service, environments: [environment] };
}

/** One random change to inventory."Products" (values are parameters). */
async function changeSomething(db: SqlDriver, step: number): Promise<void> {
  const pick = step % 3;
  if (pick === 0) {
    await db.query(
      `INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
       SELECT $1, $2, min("CategoryId"), $3, $4, now() FROM inventory."Categories"`,
      [
        { type: 'string', value: `DEMO-${Date.now()}-${step}` },
        { type: 'string', value: `Demo product ${step}` },
        { type: 'decimal', value: (5 + (step % 20)).toFixed(2) },
        { type: 'int', value: step % 50 },
      ],
    );
  } else if (pick === 1) {
    await db.query(`UPDATE inventory."Products" SET "UnitsInStock" = "UnitsInStock" + 1 WHERE "ProductId" = (SELECT min("ProductId") + $1 % 5 FROM inventory."Products")`, [
      { type: 'int', value: step },
    ]);
  } else {
    await db.query(
      `DELETE FROM inventory."Products" WHERE "ProductId" = (SELECT max(p."ProductId") FROM inventory."Products" p
         WHERE p."Sku" LIKE 'DEMO-%' AND NOT EXISTS (SELECT 1 FROM sales."OrderLines" l WHERE l."ProductId" = p."ProductId"))`,
      [],
    );
  }
}

export interface DemoOptions {
  readonly root: string;
  /** Stop after this many seconds (default: run until SIGINT/SIGTERM). */
  readonly durationSeconds?: number;
  readonly healthPort?: number;
  readonly print: (line: string) => void;
  /** Log lines (default stdout; the CLI sends them to stderr so the change lines stay readable). */
  readonly logStream?: NodeJS.WritableStream;
}

export async function runDemo(options: DemoOptions): Promise<{ sync: RunningSync; stop: () => Promise<void>; done: Promise<void> }> {
  const config = await demoConfig(options.root);
  await rm(config.service.stateDirectory, { recursive: true, force: true });
  const db = await createPgliteDriver({ connectionString: DEMO_CONNECTION, cacheDir: path.join(options.root, '.wharf') });
  for (const statement of POSTGRES_OUTBOX_SQL) await db.query(statement, []);
  await db.query(POSTGRES_OUTBOX_BACKFILL_SQL, []);
  const destination = config.environments[0]?.destinations[0];
  const describe = (batch: Batch): string => {
    const ops = batch.records.reduce<Record<string, number>>((acc, r) => ({ ...acc, [String(r['$operation'])]: (acc[String(r['$operation'])] ?? 0) + 1 }), {});
    const file = destination?.type === 'File' ? path.relative(options.root, filePathOf(destination, options.root, batch)) : '';
    return `${batch.environment}/${batch.object} v${batch.fromVersion + 1}..v${batch.toVersion}: ${batch.records.length} change(s) ${JSON.stringify(ops)} -> ${file}`;
  };
  const launch = (healthPort: number | undefined) =>
    startSync({
      root: options.root,
      config,
      drivers: new Map([[DEMO_CONNECTION, db]]),
      onDelivered: (batch) => options.print(describe(batch)),
      ...(healthPort !== undefined ? { healthPort } : {}),
      ...(options.logStream ? { logStream: options.logStream } : {}),
      logLevel: 'warn',
    });
  const sync = await launch(options.healthPort).catch((error: unknown) => {
    // Another process holds the health port: the demo still runs, with the health routes elsewhere.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    options.print(`health port ${options.healthPort ?? config.service.health.port} is in use; the health routes move to a free port`);
    return launch(0);
  });
  options.print(`wharf sync demo: exporting inventory."Products" changes to ${DEMO_DIR}/out/ (one file per batch)${sync.healthUrl && config.service.health.enabled ? `; health on ${sync.healthUrl}/health` : ''}${sync.healthUrl && config.service.webHost.enabled ? `; dashboard on ${sync.healthUrl}/ui` : ''}. Ctrl-C stops.`);
  let step = 0;
  const ticker = setInterval(() => void changeSomething(db, step++).catch((error: unknown) => options.print(`change failed: ${(error as Error).message}`)), 1000);
  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping: Promise<void> | null = null;
  // Cleared by stop(): a pending duration timer would keep the process alive after a signal.
  let deadline: NodeJS.Timeout | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(ticker);
      clearTimeout(deadline);
      await sync.close();
      await db.close();
      resolveDone();
    })();
    return stopping;
  };
  if (options.durationSeconds !== undefined) deadline = setTimeout(() => void stop(), options.durationSeconds * 1000);
  return { sync, stop, done };
}
