/**
 * state.db (SQLite, better-sqlite3): the last version delivered to every destination, per
 * environment and tracked object. Written only after every destination accepted a batch; one
 * upsert in WAL mode with synchronous=FULL, so a crash leaves either the old or the new version.
 * Deleting the file re-initialises every object (InitialSyncMode applies again).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const STATE_FILE = 'state.db';

export interface StoredVersion {
  readonly environment: string;
  readonly object: string;
  readonly version: number;
  /** ISO timestamp of the last advance. */
  readonly updated: string;
}

interface Row {
  EnvironmentName: string;
  ObjectName: string;
  LastVersion: number;
  LastUpdated: string;
}

export class StateStore {
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement<[string, string], Row>;
  private readonly setStmt: Database.Statement<[string, string, number, string]>;

  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS LastVersions (
      EnvironmentName TEXT NOT NULL,
      ObjectName TEXT NOT NULL,
      LastVersion INTEGER NOT NULL,
      LastUpdated TEXT NOT NULL,
      UNIQUE (EnvironmentName, ObjectName)
    )`);
    this.getStmt = this.db.prepare('SELECT * FROM LastVersions WHERE EnvironmentName = ? AND ObjectName = ?');
    this.setStmt = this.db.prepare(`INSERT INTO LastVersions (EnvironmentName, ObjectName, LastVersion, LastUpdated) VALUES (?, ?, ?, ?)
      ON CONFLICT (EnvironmentName, ObjectName) DO UPDATE SET LastVersion = excluded.LastVersion, LastUpdated = excluded.LastUpdated`);
  }

  static open(directory: string): StateStore {
    return new StateStore(path.join(directory, STATE_FILE));
  }

  get(environment: string, object: string): StoredVersion | null {
    const row = this.getStmt.get(environment, object);
    return row ? toStored(row) : null;
  }

  set(environment: string, object: string, version: number, now = new Date()): void {
    this.setStmt.run(environment, object, version, now.toISOString());
  }

  all(): StoredVersion[] {
    return (this.db.prepare('SELECT * FROM LastVersions ORDER BY EnvironmentName, ObjectName').all() as Row[]).map(toStored);
  }

  close(): void {
    this.db.close();
  }
}

function toStored(row: Row): StoredVersion {
  return { environment: row.EnvironmentName, object: row.ObjectName, version: Number(row.LastVersion), updated: row.LastUpdated };
}
