/**
 * PostgreSQL through a `pg` Pool.
 * Statements are prepared (named after a hash of their SQL text), so a connection parses and
 * analyses each distinct query once and then only binds and executes it. Values stay parameters.
 * Bounds and fallbacks: at most MAX_PREPARED_PER_CONNECTION names per connection (further
 * statements run unnamed); a statement the server no longer has or can no longer use
 * (26000, e.g. a pooler between us; 0A000 "cached plan must not change result type" after DDL)
 * drops that connection and the query runs once more unnamed. Both errors come before execution.
 * Time limits: the server cancels a statement after the command timeout (`statement_timeout`), and
 * a client-side check a little later destroys the connection when the server does not answer at all
 * (frozen, unreachable without a reset), so a hung database ends in an error and never keeps a
 * pooled connection; waiting for a free connection is bounded by the connection timeout. The check
 * is one timer per driver sweeping the queries in flight (a tenth of the limit apart, at most a
 * second), not a timer per query.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { TypedValue } from '../plan.js';
import { SlotList } from '../../lifecycle/slot-list.js';
import { startSweep } from '../../lifecycle/sweep.js';
import { parsePostgresConnectionString } from '../../contract/connection-string.js';
import { classifyPostgresError, CommandTimeoutError, type Row, type SqlDriver } from './driver.js';
import { PG_TEXT_PARSERS } from './type-parsers.js';

export interface PgDriverOptions {
  readonly connectionString: string;
  /** Pool size (default 10). */
  readonly max?: number;
  /** Per-statement timeout in ms (default 30 000): the server's statement_timeout, then a client-side check (swept). */
  readonly statementTimeoutMs?: number;
  /** Opening a connection, and waiting for a free one, in ms (default 5 000). */
  readonly connectionTimeoutMs?: number;
  /** Called for errors of idle clients (e.g. the server restarted); the pool replaces them. */
  readonly onConnectionError?: (error: Error) => void;
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const own = PG_TEXT_PARSERS[oid];
    return (own ?? pg.types.getTypeParser(oid, format ?? 'text')) as never;
  },
};

/** Named statements one connection keeps at most; more distinct queries run unnamed on it. */
export const MAX_PREPARED_PER_CONNECTION = 200;
const MAX_REMEMBERED_NAMES = 1000;
/** The client-side check gives up this long after the server's statement_timeout should have fired. */
const CLIENT_TIMER_GRACE_MS = 1000;

/** Destroys the socket under a client stuck on a query (the server may never answer). */
function destroySocket(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** SQLSTATEs of a named statement the server cannot use (raised before the statement runs). */
const STALE_STATEMENT = new Set(['26000', '0A000']);

const names = new Map<string, string>();

/** `wharf_` + SHA-1 of the SQL text (46 characters, under PostgreSQL's 63). */
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `wharf_${createHash('sha1').update(sql).digest('hex')}`;
    if (names.size >= MAX_REMEMBERED_NAMES) names.clear();
    names.set(sql, name);
  }
  return name;
}

/** Values as `pg` sends them: booleans/numbers as text, decimals unchanged (strings). */
function toPg(p: TypedValue): unknown {
  return p.value;
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What the driver keeps per pooled connection: its statement names and one error listener. */
class Connection {
  readonly named = new Set<string>();
  /** True between pool.connect() and the release. */
  checkedOut = false;
  /**
   * An error of the checked-out client (e.g. the server went away) drops it from the pool. Listening
   * for the whole life of the client: while it is idle in the pool this does nothing (the pool's own
   * listener handles it).
   */
  readonly onError = (error: Error): void => this.release(error);

  constructor(private readonly client: pg.PoolClient) {
    client.on('error', this.onError);
  }

  /** Back to the pool (dropped when `error` is given); once per checkout. */
  release(error?: Error): void {
    if (!this.checkedOut) return;
    this.checkedOut = false;
    this.client.release(error);
  }
}

type Answer = (error: unknown, rows?: Row[]) => void;

/** A query sent and not answered yet: the sweep ends it when its deadline passes. */
interface Pending {
  readonly client: pg.PoolClient;
  readonly connection: Connection;
  readonly answer: Answer;
  /** performance.now() after which the client-side check gives up on the server. */
  readonly deadline: number;
  /** Its place in the list of queries in flight; -1 once answered (or timed out). */
  slot: number;
}

export function createPgDriver(options: PgDriverOptions): SqlDriver {
  const statementTimeoutMs = options.statementTimeoutMs ?? 30_000;
  const clientTimeoutMs = statementTimeoutMs + CLIENT_TIMER_GRACE_MS;
  // a postgres:// URL as it is, or the Host=...;Database=... keywords (connection-string.ts)
  const connection = parsePostgresConnectionString(options.connectionString);
  const pool = new pg.Pool({
    ...connection,
    max: options.max ?? 10,
    statement_timeout: statementTimeoutMs,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? connection.connectionTimeoutMillis ?? 5_000,
    types,
  });
  pool.on('error', (error) => options.onConnectionError?.(error));
  const connections = new WeakMap<pg.PoolClient, Connection>();
  const pending = new SlotList<Pending>();
  let sweeper: NodeJS.Timeout | null = null;

  /** Ends each query past its deadline: its socket destroyed, its connection dropped, a CommandTimeoutError. */
  function sweep(): void {
    const now = performance.now();
    for (const query of pending.values()) {
      if (query.deadline > now) continue;
      settle(query);
      const error = new CommandTimeoutError(clientTimeoutMs);
      destroySocket(query.client);
      query.connection.release(error);
      query.answer(error);
    }
  }

  function watch(query: Pending): void {
    query.slot = pending.add(query);
    sweeper ??= startSweep(clientTimeoutMs, sweep);
  }

  /** True the first time (the answer or the sweep); the query leaves the list. */
  function settle(query: Pending): boolean {
    if (!pending.remove(query.slot, query)) return false;
    query.slot = -1;
    return true;
  }

  /**
   * One query, in callbacks from the pool checkout to the answer (no promise until query() makes
   * the one the caller awaits): like pool.query with an optional statement name, a failed client
   * is dropped; a stale statement runs once more unnamed; the sweep destroys the socket of a query
   * the server does not answer in time.
   */
  function run(sql: string, values: unknown[], prepare: boolean, answer: Answer): void {
    pool.connect((connectError, client) => {
      if (connectError || !client) {
        answer(connectError ?? new Error('the pool gave no client'));
        return;
      }
      let connection = connections.get(client);
      if (!connection) {
        connection = new Connection(client);
        connections.set(client, connection);
      }
      const checkedOut = connection;
      const named = connection.named;
      const name = prepare ? statementName(sql) : undefined;
      const useName = name !== undefined && (named.has(name) || named.size < MAX_PREPARED_PER_CONNECTION);
      checkedOut.checkedOut = true;
      const inFlight: Pending = { client, connection: checkedOut, answer, deadline: performance.now() + clientTimeoutMs, slot: -1 };
      const query = new pg.Query<Row>(sql, values, (error, result) => {
        if (!settle(inFlight)) return; // the sweep answered already
        if (error) {
          checkedOut.release(error);
          if (useName && STALE_STATEMENT.has(sqlState(error) ?? '')) run(sql, values, false, answer);
          else answer(error);
          return;
        }
        if (useName) named.add(name);
        checkedOut.release();
        answer(null, result.rows);
      });
      if (useName) (query as unknown as { name?: string }).name = name;
      watch(inFlight);
      try {
        client.query(query);
      } catch (error) {
        settle(inFlight);
        checkedOut.release(error as Error);
        answer(error);
      }
    });
  }

  return {
    provider: 'postgres',
    query(sql: string, params: readonly TypedValue[]): Promise<Row[]> {
      return new Promise((resolve, reject) => {
        run(sql, params.map(toPg), true, (error, rows) => (error ? reject(classifyPostgresError(error)) : resolve(rows as Row[])));
      });
    },
    async close(): Promise<void> {
      if (sweeper !== null) clearInterval(sweeper);
      sweeper = null;
      // A frozen server never acknowledges the goodbye: do not wait for it past the connection timeout.
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.connectionTimeoutMs ?? 5_000);
        timer.unref();
      });
      await Promise.race([pool.end(), gaveUp]);
      clearTimeout(timer);
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
