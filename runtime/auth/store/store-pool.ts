/**
 * The PostgreSQL pool of the token store and the console's account store (Auth:Store:*), built to
 * outlive its database:
 * - an `error` listener on the pool: PostgreSQL ending an idle connection (restart, failover,
 *   `pg_terminate_backend`) is logged and the pool replaces the connection; without the listener
 *   node-postgres re-emits it as an unhandled 'error' and the process dies;
 * - a deadline on every wait (Auth:Store:CommandTimeoutMs): opening a connection, waiting for a
 *   free one and each query (client-side `query_timeout`; the connection is then discarded);
 * - a database that is down, restarting or too slow is AUTH_STORE_UNAVAILABLE (503, Retry-After),
 *   never a hang or a 500; SQL errors (a duplicate name, ...) pass through unchanged;
 * - the tables are created at start when the database answers, else before the first query that
 *   finds it answering: an instance started while PostgreSQL is down serves (tokens verified
 *   earlier stay cached; the rest get the 503) and uses the store as soon as it is back.
 */
import pg from 'pg';
import { WharfError } from '../../errors/wharf-error.js';
import { classifyPostgresError } from '../../sql/drivers/driver.js';
import type { PgQueryable } from './pg-schema.js';

/** Seconds a client is told to wait before retrying when the store is unavailable. */
const RETRY_AFTER_SECONDS = '1';

export interface StorePoolOptions {
  readonly connectionString: string;
  /** In log lines: `Token store`, `Account store`. */
  readonly name: string;
  readonly max: number;
  /** Deadline of every wait on the database, in ms. */
  readonly timeoutMs: number;
  /** Connection losses and deferred migrations (logged by the caller; never thrown). */
  readonly onError?: (message: string, error: unknown) => void;
}

/** A connection failure or timeout of the store as the 503 a request gets; other errors unchanged. */
export function storeError(error: unknown): unknown {
  if (error instanceof WharfError) return error;
  const kind = classifyPostgresError(error).kind;
  if (kind !== 'connection' && kind !== 'timeout') return error;
  return new WharfError('AUTH_STORE_UNAVAILABLE', {}, { cause: error, headers: { 'retry-after': RETRY_AFTER_SECONDS } });
}

export class StorePool implements PgQueryable {
  readonly pool: pg.Pool;
  /** Queries without the migration step (what `migrate` itself runs on). */
  readonly direct: PgQueryable;
  private migrate: (() => Promise<void>) | null = null;
  private migrating: Promise<void> | null = null;

  constructor(private readonly options: StorePoolOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max,
      connectionTimeoutMillis: options.timeoutMs,
      query_timeout: options.timeoutMs,
      idleTimeoutMillis: 30_000,
    });
    this.pool.on('error', (error) => options.onError?.(`${options.name} connection lost (the pool reconnects)`, error));
    this.direct = {
      query: async (text, params) => {
        try {
          return await this.pool.query(text, params);
        } catch (error) {
          throw storeError(error);
        }
      },
    };
  }

  /**
   * Creates the tables now; when the database does not answer, logs one line and tries again
   * before the next query (so the store works as soon as the database is back).
   */
  async prepare(migrate: (db: PgQueryable) => Promise<void>): Promise<void> {
    this.migrate = () => migrate(this.direct);
    try {
      await this.migrate();
      this.migrate = null;
    } catch (error) {
      if (!(error instanceof WharfError)) throw error;
      this.options.onError?.(`${this.options.name} database unreachable at start; serving, and creating its tables when it answers`, error.cause);
    }
  }

  private ensureMigrated(): Promise<void> {
    this.migrating ??= this.migrate!().then(
      () => {
        this.migrate = null;
        this.migrating = null;
      },
      (error: unknown) => {
        this.migrating = null;
        throw error;
      },
    );
    return this.migrating;
  }

  async query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> {
    if (this.migrate) await this.ensureMigrated();
    return this.direct.query(text, params);
  }

  /** `SELECT 1` within the deadline (health check). */
  async ping(): Promise<void> {
    await this.direct.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
