/**
 * `wharf db pull [--env NAME]` and `wharf check --db NAME`: the CLI side of the database snapshot
 * (docs/database-snapshot.md). The composition root: it opens the environment's database with the
 * runtime's driver and reads its catalogue with the runtime's reader (runtime/sql/catalogue.ts),
 * the same one the server's drift check uses.
 */
import { readFileSync } from 'node:fs';
import { writeThroughTemp } from '../atomic-write.js';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DB_SNAPSHOT_FILE, diffSnapshots, formatDrift, parseDbSnapshot, type DbSnapshot } from '../../runtime/contract/db-snapshot.js';
import type { Printer } from './build-command.js';
import { discover } from '../discover.js';
import { parseAndIdentify } from '../entity-contexts.js';
import { snapshotText } from '../db-snapshot/read.js';
import { usedSchemas } from '../db-snapshot/used-objects.js';

/** The environment to read (`--env`, else the only one configured) and a catalogue of `schemas`. */
async function readLive(root: string, envName: string | undefined, schemas: readonly string[]): Promise<DbSnapshot> {
  const { loadEnvironments, findEnvironment } = await import('../../runtime/settings/environments.js');
  const environments = await loadEnvironments(path.join(root, 'environments'), 'environments');
  let env = envName === undefined ? undefined : findEnvironment(environments, envName);
  if (envName === undefined) {
    if (environments.size !== 1) throw new Error(`name the environment to read with --env (configured: ${[...environments.values()].map((e) => e.name).join(', ') || 'none'})`);
    env = [...environments.values()][0];
  }
  if (!env) throw new Error(`environment '${envName}' is not configured (environments/${envName}/settings.json)`);
  const { createSqlDriver } = await import('../../runtime/sql/drivers/factory.js');
  const { readCatalogue } = await import('../../runtime/sql/catalogue.js');
  const driver = await createSqlDriver({ provider: env.provider, connectionString: env.connectionString }, { embeddedCacheDir: path.join(root, '.wharf'), pool: { min: 0, max: 2 } });
  try {
    return await readCatalogue(driver, schemas);
  } finally {
    await driver.close();
  }
}

async function endpointSchemas(root: string): Promise<string[]> {
  const found = await discover(root);
  const { contexts } = await parseAndIdentify(found.entities, async (source) => readFileSync(source.absolutePath, 'utf8'));
  return usedSchemas(contexts);
}

/** `wharf db pull`: read the catalogue of every schema the endpoints use and write the snapshot. */
export async function runDbPull(root: string, envName: string | undefined, print: Printer): Promise<number> {
  const schemas = await endpointSchemas(root);
  if (schemas.length === 0) {
    print.err('No SQL endpoint names a database object: there is nothing to pull.');
    return 1;
  }
  const snapshot = await readLive(root, envName, schemas);
  const file = path.join(root, DB_SNAPSHOT_FILE);
  await writeThroughTemp(file, snapshotText(snapshot));
  print.out(`Wrote ${DB_SNAPSHOT_FILE}: ${Object.keys(snapshot.objects).length} object(s) of schema(s) ${schemas.join(', ')}. Review the diff, run \`npm run build\` and commit both.`);
  return 0;
}

/** `wharf check --db NAME`: compare the environment's live catalogue with the committed snapshot; 1 on any drift. */
export async function runDbCheck(root: string, envName: string, print: Printer): Promise<number> {
  let expected: DbSnapshot;
  try {
    expected = parseDbSnapshot(readFileSync(path.join(root, DB_SNAPSHOT_FILE), 'utf8'));
  } catch (error) {
    print.err(`Check failed: ${DB_SNAPSHOT_FILE} cannot be read (${(error as Error).message}). Run \`wharf db pull --env ${envName}\` and commit it.`);
    return 1;
  }
  const schemas = [...new Set(Object.keys(expected.objects).map((k) => k.slice(0, k.lastIndexOf('.'))))];
  const drift = diffSnapshots(expected, await readLive(root, envName, schemas));
  for (const d of drift) print.err(`database drift: ${formatDrift(d)}`);
  if (drift.length > 0) {
    print.err(`Check failed: the database of '${envName}' differs from ${DB_SNAPSHOT_FILE} in ${drift.length} place(s).`);
    return 1;
  }
  print.out(`Check passed: the database of '${envName}' matches ${DB_SNAPSHOT_FILE} (${Object.keys(expected.objects).length} object(s)).`);
  return 0;
}

export async function runDbCommand(argv: readonly string[], root: string, print: Printer): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], options: { env: { type: 'string' }, root: { type: 'string' } }, allowPositionals: true, strict: true });
  const base = values.root ?? root;
  if (positionals[0] !== 'pull' || positionals.length !== 1) {
    print.err('Usage: wharf db pull [--env NAME] [--root DIR]');
    return 2;
  }
  return runDbPull(base, values.env, print);
}
