/**
 * sinkhole.db (SQLite): batches a destination refused after every retry. Created on the first
 * failure. A dead letter blocks its object (the version does not advance past it) until a replay
 * delivers it (the row is deleted and the version advances) or an operator purges it (the next
 * poll sends the batch again). Replays back off exponentially up to a cap; after the last attempt
 * the letter is `exhausted` and waits for `wharf sync deadletters replay|purge`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';

export const SINKHOLE_FILE = 'sinkhole.db';

export type DeadLetterStatus = 'pending' | 'exhausted';

export interface DeadLetterInput {
  readonly environment: string;
  readonly object: string;
  readonly destination: string;
  /** Connection key of the tracked object (the reference system's DatabaseName). */
  readonly database: string;
  /** The batch as delivered (JSON text). */
  readonly data: string;
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly error: string;
}

export interface DeadLetter extends DeadLetterInput {
  readonly id: number;
  readonly sourceKey: string;
  readonly dataHash: string;
  readonly timestamp: string;
  readonly status: DeadLetterStatus;
  readonly attempts: number;
  /** Epoch ms of the next automatic replay (null when exhausted). */
  readonly nextAttemptAt: number | null;
}

/** A dead letter as listed (the dashboard): everything but the batch itself. */
export type DeadLetterListing = Omit<DeadLetter, 'data'>;

export interface DeadLetterSummary {
  readonly TotalCount: number;
  readonly LastHourCount: number;
  readonly Last24HoursCount: number;
  readonly Last7DaysCount: number;
  readonly MostCommonError: string;
  readonly MostCommonErrorCount: number;
}

export const EMPTY_SUMMARY: DeadLetterSummary = {
  TotalCount: 0,
  LastHourCount: 0,
  Last24HoursCount: 0,
  Last7DaysCount: 0,
  MostCommonError: '',
  MostCommonErrorCount: 0,
};

interface Row {
  Id: number;
  SourceKey: string;
  TrackingObjectName: string;
  EnvironmentName: string;
  DatabaseName: string;
  DestinationKey: string;
  DataHash: string;
  Data: string;
  FromVersion: number;
  ToVersion: number;
  ErrorMessage: string;
  Timestamp: string;
  Status: DeadLetterStatus;
  Attempts: number;
  NextAttemptAt: number | null;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS DeadLetters (
  Id INTEGER PRIMARY KEY AUTOINCREMENT,
  SourceKey TEXT NOT NULL,
  TrackingObjectName TEXT NOT NULL,
  EnvironmentName TEXT NOT NULL,
  DatabaseName TEXT NOT NULL,
  DestinationKey TEXT NOT NULL,
  DataHash TEXT NOT NULL,
  Data TEXT NOT NULL,
  FromVersion INTEGER NOT NULL,
  ToVersion INTEGER NOT NULL,
  ErrorMessage TEXT NOT NULL,
  Timestamp TEXT NOT NULL,
  Status TEXT NOT NULL DEFAULT 'pending',
  Attempts INTEGER NOT NULL DEFAULT 0,
  NextAttemptAt INTEGER,
  UNIQUE (SourceKey, DataHash)
)`;

export const sourceKeyOf = (environment: string, object: string, destination: string): string => `${environment}/${object}/${destination}`;

function toLetter(row: Row): DeadLetter {
  return {
    id: row.Id,
    sourceKey: row.SourceKey,
    environment: row.EnvironmentName,
    object: row.TrackingObjectName,
    destination: row.DestinationKey,
    database: row.DatabaseName,
    dataHash: row.DataHash,
    data: row.Data,
    fromVersion: Number(row.FromVersion),
    toVersion: Number(row.ToVersion),
    error: row.ErrorMessage,
    timestamp: row.Timestamp,
    status: row.Status,
    attempts: row.Attempts,
    nextAttemptAt: row.NextAttemptAt === null ? null : Number(row.NextAttemptAt),
  };
}

/** Every column but Data (DeadLetterStore.latest). */
const LISTED_COLUMNS = 'Id, SourceKey, TrackingObjectName, EnvironmentName, DatabaseName, DestinationKey, DataHash, FromVersion, ToVersion, ErrorMessage, Timestamp, Status, Attempts, NextAttemptAt';

export class DeadLetterStore {
  private db: Database.Database | null = null;

  constructor(readonly file: string) {}

  static at(directory: string): DeadLetterStore {
    return new DeadLetterStore(path.join(directory, SINKHOLE_FILE));
  }

  exists(): boolean {
    return this.db !== null || existsSync(this.file);
  }

  /** The database, created on first write; null for reads while the file does not exist. */
  private open(create: boolean): Database.Database | null {
    if (this.db) return this.db;
    if (!create && !existsSync(this.file)) return null;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const db = new Database(this.file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    this.db = db;
    return db;
  }

  /** Stores (or re-opens) a dead letter; the first replay is due `firstDelayMs` from now. */
  add(input: DeadLetterInput, firstDelayMs: number, now = Date.now()): DeadLetter {
    const db = this.open(true) as Database.Database;
    const sourceKey = sourceKeyOf(input.environment, input.object, input.destination);
    const dataHash = createHash('sha256').update(input.data).digest('hex');
    db.prepare(`INSERT INTO DeadLetters (SourceKey, TrackingObjectName, EnvironmentName, DatabaseName, DestinationKey, DataHash, Data,
        FromVersion, ToVersion, ErrorMessage, Timestamp, Status, Attempts, NextAttemptAt)
      VALUES (@sourceKey, @object, @environment, @database, @destination, @dataHash, @data, @fromVersion, @toVersion, @error, @timestamp, 'pending', 0, @next)
      ON CONFLICT (SourceKey, DataHash) DO UPDATE SET ErrorMessage = excluded.ErrorMessage, Timestamp = excluded.Timestamp,
        Status = 'pending', Attempts = 0, NextAttemptAt = excluded.NextAttemptAt`).run({
      ...input,
      sourceKey,
      dataHash,
      timestamp: new Date(now).toISOString(),
      next: now + firstDelayMs,
    });
    return toLetter(db.prepare('SELECT * FROM DeadLetters WHERE SourceKey = ? AND DataHash = ?').get(sourceKey, dataHash) as Row);
  }

  /** Unresolved letters, oldest first; optionally of one object. */
  list(filter: { environment?: string; object?: string } = {}): DeadLetter[] {
    const db = this.open(false);
    if (!db) return [];
    const rows = db.prepare('SELECT * FROM DeadLetters ORDER BY Id').all() as Row[];
    return rows
      .map(toLetter)
      .filter((l) => (filter.environment === undefined || l.environment === filter.environment) && (filter.object === undefined || l.object === filter.object));
  }

  /**
   * The newest `limit` letters, newest first, without their batches (`Data` is not read: the
   * dashboard's overview is polled every few seconds and a batch can be megabytes).
   */
  latest(limit: number): DeadLetterListing[] {
    const db = this.open(false);
    if (!db) return [];
    const rows = db.prepare(`SELECT ${LISTED_COLUMNS} FROM DeadLetters ORDER BY Id DESC LIMIT ?`).all(limit) as Row[];
    return rows.map((row) => {
      const { data: _data, ...listed } = toLetter({ ...row, Data: '' });
      return listed;
    });
  }

  /** Letters per `environment/object` (the blocked objects), counted by the database. */
  countsByObject(): Map<string, number> {
    const out = new Map<string, number>();
    const db = this.open(false);
    if (!db) return out;
    const rows = db.prepare('SELECT EnvironmentName AS e, TrackingObjectName AS o, count(*) AS n FROM DeadLetters GROUP BY EnvironmentName, TrackingObjectName').all() as { e: string; o: string; n: number }[];
    for (const r of rows) out.set(`${r.e}/${r.o}`, r.n);
    return out;
  }

  get(id: number): DeadLetter | null {
    const row = this.open(false)?.prepare('SELECT * FROM DeadLetters WHERE Id = ?').get(id) as Row | undefined;
    return row ? toLetter(row) : null;
  }

  /** Delivered: the letter is resolved and removed. */
  resolve(id: number): void {
    this.open(false)?.prepare('DELETE FROM DeadLetters WHERE Id = ?').run(id);
  }

  /** A failed replay: count it and schedule the next one, or mark the letter exhausted. */
  recordFailure(id: number, error: string, nextAttemptAt: number | null): void {
    this.open(false)
      ?.prepare(`UPDATE DeadLetters SET Attempts = Attempts + 1, ErrorMessage = ?, NextAttemptAt = ?, Status = ? WHERE Id = ?`)
      .run(error, nextAttemptAt, nextAttemptAt === null ? 'exhausted' : 'pending', id);
  }

  /** Operator replay: attempts reset, due now. Returns how many letters were re-armed. */
  rearm(ids: readonly number[] | 'all', now = Date.now()): number {
    const db = this.open(false);
    if (!db) return 0;
    if (ids === 'all') return db.prepare(`UPDATE DeadLetters SET Status = 'pending', Attempts = 0, NextAttemptAt = ?`).run(now).changes;
    const stmt = db.prepare(`UPDATE DeadLetters SET Status = 'pending', Attempts = 0, NextAttemptAt = ? WHERE Id = ?`);
    return ids.reduce((sum, id) => sum + stmt.run(now, id).changes, 0);
  }

  purge(ids: readonly number[] | 'all'): number {
    const db = this.open(false);
    if (!db) return 0;
    if (ids === 'all') return db.prepare('DELETE FROM DeadLetters').run().changes;
    const stmt = db.prepare('DELETE FROM DeadLetters WHERE Id = ?');
    return ids.reduce((sum, id) => sum + stmt.run(id).changes, 0);
  }

  /** Retention: letters older than `days` are dropped (their objects poll and send again). */
  expire(days: number, now = Date.now()): number {
    const db = this.open(false);
    if (!db) return 0;
    return db.prepare('DELETE FROM DeadLetters WHERE Timestamp < ?').run(new Date(now - days * 86_400_000).toISOString()).changes;
  }

  summary(now = Date.now()): DeadLetterSummary {
    const db = this.open(false);
    if (!db) return EMPTY_SUMMARY;
    const since = (ms: number) => new Date(now - ms).toISOString();
    const count = (from: string | null) =>
      (from === null
        ? (db.prepare('SELECT count(*) AS n FROM DeadLetters').get() as { n: number })
        : (db.prepare('SELECT count(*) AS n FROM DeadLetters WHERE Timestamp >= ?').get(from) as { n: number })
      ).n;
    const top = db
      .prepare('SELECT ErrorMessage AS e, count(*) AS n FROM DeadLetters WHERE Timestamp >= ? GROUP BY ErrorMessage ORDER BY n DESC, e LIMIT 1')
      .get(since(86_400_000)) as { e: string; n: number } | undefined;
    return {
      TotalCount: count(null),
      LastHourCount: count(since(3_600_000)),
      Last24HoursCount: count(since(86_400_000)),
      Last7DaysCount: count(since(7 * 86_400_000)),
      MostCommonError: top?.e ?? '',
      MostCommonErrorCount: top?.n ?? 0,
    };
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
