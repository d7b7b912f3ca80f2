/**
 * Embedded PostgreSQL (PGlite, WASM). One instance is one session: queries are serialised.
 * `embedded://demo` builds the demo database from runtime/sql/demo/*.sql; the initialised data
 * directory is cached as a tarball under `.wharf/` (keyed by a hash of the SQL and the PGlite
 * version), so later starts load it instead of running initdb + seed. Changes are in memory only:
 * every start begins from the seed. Any other `embedded://<path>` opens a persistent data dir.
 */
import { createHash } from 'node:crypto';
import { demoSeedProgress } from './demo-seed-progress.js';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { TypedValue } from '../plan.js';
import { classifyPostgresError, withCommandTimeout, type Row, type SqlDriver } from './driver.js';
import { PG_TEXT_PARSERS } from './type-parsers.js';

const DEMO_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'demo');
export const DEMO_SQL_FILES = ['schema.sql', 'seed.sql'] as const;

export interface PgliteDriverOptions {
  /** `embedded://demo` (seeded demo DB) or `embedded://<data dir>`. */
  readonly connectionString: string;
  /** Where the demo tarball is cached; null disables the cache. Default `<cwd>/.wharf`. */
  readonly cacheDir?: string | null;
  /**
   * Command timeout in ms (default 30 000). PGlite runs in this thread and cannot be cancelled: the
   * timer ends the wait of a query queued behind a long one (one session serialises them).
   */
  readonly commandTimeoutMs?: number;
}

export interface PgliteStartInfo {
  /** How the database came up: cache hit, fresh build (cache written), or a data directory. */
  readonly source: 'cache' | 'seeded' | 'datadir';
  readonly ms: number;
}

export async function readDemoSql(): Promise<string> {
  const parts = await Promise.all(DEMO_SQL_FILES.map((f) => readFile(path.join(DEMO_DIR, f), 'utf8')));
  return parts.join('\n');
}

const parsers = Object.fromEntries(
  Object.entries(PG_TEXT_PARSERS).map(([oid, fn]) => [oid, (text: string) => fn(text)]),
);

async function pgliteVersion(): Promise<string> {
  try {
    const pkg = path.join(path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json');
    return (JSON.parse(await readFile(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The demo database holds about 40 MB: PostgreSQL's default 128 MB of shared buffers only cost
 * memory (measured: about 115 MB less RSS at idle with 16 MB; docs/sql.md#embedded-memory).
 * The WASM heap cannot start below PGlite's built-in 128 MB (initialMemory is a floor).
 */
export const DEMO_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * Progress of the first start's seeding (seconds of work): `step` events with a line such as
 * `initialising PostgreSQL (1/4)`. The CLI prints them; nothing listens in tests or the runtime.
 */

async function openDemo(cacheDir: string | null): Promise<{ db: PGlite; source: 'cache' | 'seeded' }> {
  const sql = await readDemoSql();
  const key = createHash('sha256').update(await pgliteVersion()).update('\0').update(sql).digest('hex').slice(0, 16);
  const file = cacheDir ? path.join(cacheDir, `pglite-demo-${key}.tar.gz`) : null;
  if (file) {
    const tar = await readFile(file).catch(() => null);
    if (tar) {
      try {
        const db = await PGlite.create({ loadDataDir: new Blob([tar]), parsers, startParams: [...DEMO_START_PARAMS] });
        return { db, source: 'cache' };
      } catch {
        // corrupt or incompatible cache: rebuild below
      }
    }
  }
  const started = performance.now();
  const total = file ? 4 : 3;
  demoSeedProgress.emit('start');
  demoSeedProgress.emit('step', `initialising PostgreSQL (1/${total})`);
  const db = await PGlite.create({ parsers, startParams: [...DEMO_START_PARAMS] });
  const [schema, seed] = await Promise.all(DEMO_SQL_FILES.map((f) => readFile(path.join(DEMO_DIR, f), 'utf8')));
  demoSeedProgress.emit('step', `creating the schema (2/${total})`);
  await db.exec(schema!);
  demoSeedProgress.emit('step', `loading the demo rows (3/${total})`);
  await db.exec(seed!);
  if (file && cacheDir) {
    demoSeedProgress.emit('step', `caching the data directory in ${cacheDir} (4/${total})`);
    const dump = await db.dumpDataDir('gzip');
    await mkdir(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, Buffer.from(await dump.arrayBuffer()));
    await rename(tmp, file);
  }
  demoSeedProgress.emit('done', Math.round(performance.now() - started));
  return { db, source: 'seeded' };
}

export async function createPgliteDriver(options: PgliteDriverOptions): Promise<SqlDriver & { readonly startInfo: PgliteStartInfo }> {
  const started = performance.now();
  const target = options.connectionString.replace(/^embedded:\/\//i, '');
  let db: PGlite;
  let source: PgliteStartInfo['source'];
  if (target === '' || target === 'demo') {
    const cacheDir = options.cacheDir === undefined ? path.join(process.cwd(), '.wharf') : options.cacheDir;
    ({ db, source } = await openDemo(cacheDir));
  } else {
    db = await PGlite.create({ dataDir: target, parsers });
    source = 'datadir';
  }
  const startInfo = { source, ms: Math.round(performance.now() - started) };
  const commandTimeoutMs = options.commandTimeoutMs ?? 30_000;
  return {
    provider: 'embedded',
    startInfo,
    async query(sql: string, params: readonly TypedValue[]): Promise<Row[]> {
      try {
        const result = await withCommandTimeout(db.query<Row>(sql, params.map((p) => p.value)), commandTimeoutMs);
        return result.rows;
      } catch (error) {
        throw classifyPostgresError(error);
      }
    },
    async close(): Promise<void> {
      await db.close();
    },
  };
}
