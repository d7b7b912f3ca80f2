/**
 * One driver per environment, created on first use and shared by all its endpoints.
 * The runtime owns one SqlDrivers and closes it on shutdown.
 * Each driver module (and its client library: mssql alone takes longer to import than the rest of
 * the runtime) is imported when the first environment using it opens, not at startup.
 */
import type { PoolStats, SqlDriver } from './driver.js';

export interface DatabaseTarget {
  readonly provider: 'mssql' | 'postgres' | 'embedded';
  /** Secret: never logged. */
  readonly connectionString: string;
}

export interface DriverLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface SqlDriverOptions {
  readonly log?: DriverLog;
  /** PGlite demo cache directory (default `<cwd>/.wharf`; null = no cache). */
  readonly embeddedCacheDir?: string | null;
  /** SqlConnectionPooling:CommandTimeout in ms (default 30 000), on every driver. */
  readonly requestTimeoutMs?: number;
  /** SqlConnectionPooling:ConnectionTimeout in ms (default 5 000). */
  readonly connectionTimeoutMs?: number;
  /** Pool sizes (settings SqlConnectionPooling:MinPoolSize/MaxPoolSize); default min 0, max 10. */
  readonly pool?: { readonly min: number; readonly max: number };
}

export async function createSqlDriver(target: DatabaseTarget, options: SqlDriverOptions = {}): Promise<SqlDriver> {
  const onConnectionError = (error: Error): void =>
    options.log?.error({ event: 'sql.connection_error', provider: target.provider, err: error.message }, 'database connection error (the pool reconnects)');
  switch (target.provider) {
    case 'postgres': {
      const { createPgDriver } = await import('./pg.js');
      return createPgDriver({
        connectionString: target.connectionString,
        statementTimeoutMs: options.requestTimeoutMs ?? 30_000,
        ...(options.connectionTimeoutMs !== undefined ? { connectionTimeoutMs: options.connectionTimeoutMs } : {}),
        ...(options.pool ? { max: options.pool.max } : {}),
        onConnectionError,
      });
    }
    case 'mssql': {
      const { createMssqlDriver } = await import('./mssql.js');
      return createMssqlDriver({
        connectionString: target.connectionString,
        requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
        ...(options.connectionTimeoutMs !== undefined ? { connectionTimeoutMs: options.connectionTimeoutMs } : {}),
        ...(options.pool ? { pool: options.pool } : {}),
        onConnectionError,
      });
    }
    case 'embedded': {
      const { createPgliteDriver } = await import('./pglite.js');
      const driver = await createPgliteDriver({
        connectionString: target.connectionString,
        commandTimeoutMs: options.requestTimeoutMs ?? 30_000,
        ...(options.embeddedCacheDir === undefined ? {} : { cacheDir: options.embeddedCacheDir }),
      });
      options.log?.info({ event: 'sql.embedded_started', ...driver.startInfo, rssMb: Math.round(process.memoryUsage().rss / 1e6) }, 'embedded database ready');
      return driver;
    }
  }
}

/** Lazily created drivers keyed by environment name. */
export class SqlDrivers {
  readonly #drivers = new Map<string, Promise<SqlDriver>>();
  /** The drivers that have started, by environment name (for /metrics). */
  readonly #ready = new Map<string, SqlDriver>();

  constructor(private readonly options: SqlDriverOptions = {}) {}

  get(environment: string, target: DatabaseTarget): Promise<SqlDriver> {
    const key = environment.toLowerCase();
    let driver = this.#drivers.get(key);
    if (!driver) {
      const starting = createSqlDriver(target, this.options);
      driver = starting;
      // a failed start is not cached: the next request tries again; a driver forgotten (or closed)
      // while it was starting is never handed out as ready
      starting.then(
        (started) => {
          if (this.#drivers.get(key) === starting) this.#ready.set(key, started);
        },
        () => {
          if (this.#drivers.get(key) === starting) this.#drivers.delete(key);
        },
      );
      this.#drivers.set(key, starting);
    }
    return driver;
  }

  /** The environment's driver when it has started (no await on the request path), else undefined: use get(). */
  ready(environment: string): SqlDriver | undefined {
    return this.#ready.get(environment.toLowerCase());
  }

  /** Pool usage of every started driver that has a pool. */
  poolStats(): { readonly environment: string; readonly provider: string; readonly stats: PoolStats }[] {
    const out = [];
    for (const [environment, driver] of this.#ready) {
      const stats = driver.poolStats?.();
      if (stats) out.push({ environment, provider: driver.provider, stats });
    }
    return out;
  }

  /** Whether a driver for this environment was opened (or is opening). */
  has(environment: string): boolean {
    return this.#drivers.has(environment.toLowerCase());
  }

  /** Closes and forgets one environment's driver (its settings changed); the next request opens a new one. */
  async forget(environment: string): Promise<void> {
    const key = environment.toLowerCase();
    const driver = this.#drivers.get(key);
    this.#drivers.delete(key);
    this.#ready.delete(key);
    if (driver) await driver.then((d) => d.close(), () => undefined);
  }

  async close(): Promise<void> {
    const all = [...this.#drivers.values()];
    this.#drivers.clear();
    this.#ready.clear();
    await Promise.allSettled(all.map(async (d) => (await d).close()));
  }
}
