/**
 * DatabaseSchema: every allowed environment's live catalogue against the committed database
 * snapshot (generated/database.snapshot.json, copied there by the build from
 * endpoints/database.snapshot.json). Each difference (object, column, expected, found) makes the
 * check Degraded and is logged once (`event: db.schema_drift`) when first seen; an unreachable
 * database is the Database check's business, so here it only notes the error. Healthy without a
 * snapshot. An embedded database not started yet is not started for the check (as Database).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DB_SNAPSHOT_OUTPUT, diffSnapshots, formatDrift, parseDbSnapshot, type DbSnapshot, type SnapshotDrift } from '../contract/db-snapshot.js';
import { readCatalogue } from '../sql/catalogue.js';
import type { SqlDriver } from '../sql/drivers/driver.js';
import { createSqlDriver, type SqlDrivers } from '../sql/drivers/factory.js';
import type { EnvironmentConfig } from '../settings/environments.js';
import type { HealthCheck } from './health-check.js';
import { withTimeout } from './database-check.js';

export interface DriftLog {
  warn(obj: object, msg: string): void;
}

async function readSnapshot(generatedDir: string): Promise<DbSnapshot | null> {
  let text: string;
  try {
    text = await readFile(path.join(generatedDir, DB_SNAPSHOT_OUTPUT), 'utf8');
  } catch {
    return null;
  }
  return parseDbSnapshot(text);
}

/** Whether the build carries a snapshot: the check is added at startup only then (a snapshot added later counts from the next start). */
export function hasDbSnapshot(generatedDir: string): boolean {
  return existsSync(path.join(generatedDir, DB_SNAPSHOT_OUTPUT));
}

const schemasOf = (snapshot: DbSnapshot): string[] => [...new Set(Object.keys(snapshot.objects).map((k) => k.slice(0, k.lastIndexOf('.'))))];

/** The environment's drift, or null when its embedded database has not started. */
async function driftOf(env: EnvironmentConfig, snapshot: DbSnapshot, drivers: () => SqlDrivers | null, timeoutMs: number): Promise<SnapshotDrift[] | null> {
  const shared = drivers();
  if (env.provider === 'embedded' && !shared?.has(env.name)) return null;
  const run = async (): Promise<SnapshotDrift[]> => {
    let driver: SqlDriver | null = null;
    try {
      driver = shared ? await shared.get(env.name, env) : await createSqlDriver(env, { requestTimeoutMs: timeoutMs, pool: { min: 0, max: 1 } });
      return diffSnapshots(snapshot, await readCatalogue(driver, schemasOf(snapshot)));
    } finally {
      if (!shared) await driver?.close();
    }
  };
  return withTimeout(run(), timeoutMs);
}

export function schemaDriftCheck(envs: readonly EnvironmentConfig[], generatedDir: string, drivers: () => SqlDrivers | null, timeoutMs: number, log: DriftLog): HealthCheck {
  /** Per environment, the drift last logged (each new set is logged once). */
  const logged = new Map<string, string>();
  return {
    name: 'DatabaseSchema',
    tags: ['database', 'sql', 'schema'],
    async run() {
      const snapshot = await readSnapshot(generatedDir);
      if (!snapshot) return { status: 'Healthy', description: 'No database snapshot is committed (wharf db pull)', data: {} };
      const environments: Record<string, unknown> = {};
      const drifted: string[] = [];
      for (const env of envs) {
        let drift: SnapshotDrift[] | null;
        try {
          drift = await driftOf(env, snapshot, drivers, timeoutMs);
        } catch {
          environments[env.name] = { status: 'Unknown', error: 'the catalogue could not be read (see the Database check)' };
          continue;
        }
        if (drift === null) {
          environments[env.name] = { status: 'Unknown', note: 'embedded database starts with its first request' };
          continue;
        }
        environments[env.name] = drift.length === 0 ? { status: 'Healthy' } : { status: 'Degraded', differences: drift };
        const signature = drift.map(formatDrift).join('\n');
        if (drift.length > 0) drifted.push(env.name);
        if (signature !== (logged.get(env.name) ?? '')) {
          for (const d of drift) log.warn({ event: 'db.schema_drift', environment: env.name, ...d }, `database drift in ${env.name}: ${formatDrift(d)}`);
          logged.set(env.name, signature);
        }
      }
      const data = { objects: Object.keys(snapshot.objects).length, environments };
      if (drifted.length === 0) return { status: 'Healthy', description: 'The databases match the committed snapshot', data };
      return { status: 'Degraded', description: `The database differs from the committed snapshot in: ${drifted.join(', ')}`, data };
    },
  };
}
