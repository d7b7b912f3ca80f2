/**
 * Opens a better-sqlite3 database the way the gateway's own stores use it (tokens, console
 * accounts): parent folder created 0700, the file 0600 (an existing, wider file is narrowed; SQLite
 * creates -wal and -shm with the file's permissions), WAL, a 5 s busy timeout, foreign keys on.
 * Also the part of better-sqlite3's API those stores use (the package ships no types).
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface Statement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface SqliteDatabase {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

type SqliteConstructor = new (file: string, options?: { fileMustExist?: boolean }) => SqliteDatabase;

const require = createRequire(import.meta.url);

export function openSqlite(file: string): SqliteDatabase {
  if (file !== ':memory:') {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  }
  const Database = require('better-sqlite3') as SqliteConstructor;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}
