/**
 * The sync service end to end from real PostgreSQL: the database destination (another database,
 * one row per change, re-deliveries are no-ops), configuration hot reload without a restart (and a
 * bad edit that keeps the running configuration), `wharf sync deadletters list|replay|purge`, and
 * SIGTERM shutting the process down cleanly.
 */
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSyncCommand } from '../../runtime/sync/cli.js';
import { startSync } from '../../runtime/sync/run.js';
import { DeadLetterStore } from '../../runtime/sync/state/dead-letters.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, sql, until, writeSyncConfig } from './sync-fixture.js';

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
let db: TestPostgres;
let replicaUrl: string;

beforeAll(async () => {
  db = await startPostgres();
  await installOutbox(db.url);
  await sql(db.url, 'CREATE DATABASE replica');
  replicaUrl = db.url.replace(/\/postgres$/, '/replica');
  await sql(replicaUrl, `CREATE TABLE "Changes" ("Id" bigserial PRIMARY KEY, "ObjectName" text NOT NULL, "Version" bigint NOT NULL, "Operation" char(1) NOT NULL, "Data" jsonb NOT NULL, UNIQUE ("ObjectName", "Version"))`);
});

afterAll(async () => db?.stop());

describe('sync service', () => {
  it('database destination: one row per change in another database, in order', async () => {
    const root = await projectWith({ prod: pgEnvironment(db.url, [{ Type: 'Database', Key: 'replica', Provider: 'postgres', ConnectionString: replicaUrl, Table: 'public.Changes' }]) });
    const sync = await startSync({ root, logLevel: 'silent' });
    try {
      const start = (await until('state', () => sync.service.state.get('prod', 'Products'))).version;
      const [id] = await insertProducts(db.url, 1, 'DB-');
      await sql(db.url, `DELETE FROM inventory."Products" WHERE "ProductId" = $1`, [id]);
      const rows = await until('2 rows', async () => {
        const r = (await sql(replicaUrl, `SELECT "ObjectName", "Version", "Operation", "Data"->>'ProductId' AS id FROM "Changes" ORDER BY "Id"`)).rows;
        return r.length >= 2 ? r : null;
      });
      expect(rows).toEqual([
        { ObjectName: 'Products', Version: String(start + 1), Operation: 'I', id: String(id) },
        { ObjectName: 'Products', Version: String(start + 2), Operation: 'D', id: String(id) },
      ]);
    } finally {
      await sync.close();
    }
  });

  it('picks up configuration changes without a restart; a bad edit keeps the running configuration', async () => {
    const env = (dir: string) => pgEnvironment(db.url, [{ Type: 'File', Key: 'f', Path: `${dir}/{version}.json` }]);
    const root = await projectWith({ prod: env('first') });
    const sync = await startSync({ root, logLevel: 'silent' });
    const files = (dir: string) => readdir(path.join(root, dir)).catch(() => [] as string[]);
    try {
      await until('state', () => sync.service.state.get('prod', 'Products'));
      await insertProducts(db.url, 1, 'RELOAD-A-');
      await until('a file in first/', async () => (await files('first')).length === 1);
      await writeSyncConfig(root, { prod: env('second') });
      await until('reloaded', () => sync.service.config.environments[0]?.destinations[0]?.type === 'File' && (sync.service.config.environments[0].destinations[0] as { path: string }).path.startsWith('second'));
      await insertProducts(db.url, 1, 'RELOAD-B-');
      await until('a file in second/', async () => (await files('second')).length === 1);
      await writeFile(path.join(root, 'environments', 'prod', 'sync.json'), '{ "Provider": ');
      await insertProducts(db.url, 1, 'RELOAD-C-');
      await until('still delivering to second/', async () => (await files('second')).length === 2);
      expect(await files('first')).toHaveLength(1);
    } finally {
      await sync.close();
    }
  });

  it('wharf sync deadletters list|replay|purge', async () => {
    const root = await projectWith({ prod: pgEnvironment(db.url, [{ Type: 'File', Key: 'f', Path: 'o/{version}.json' }]) });
    const store = DeadLetterStore.at(path.join(root, 'data', 'sync'));
    const letter = (n: number) => ({ environment: 'prod', object: 'Products', destination: 'crm', database: 'main', data: JSON.stringify({ n }), fromVersion: n, toVersion: n + 1, error: 'HTTP 503 from crm' });
    const first = store.add(letter(1), 60_000, Date.parse('2026-01-01T00:00:00Z'));
    const second = store.add(letter(2), 60_000, Date.parse('2026-01-01T00:00:00Z'));
    store.recordFailure(second.id, 'HTTP 500 from crm', null);
    store.close();
    const run = async (...args: string[]) => {
      const out: string[] = [];
      const code = await runSyncCommand(['deadletters', ...args], { root, io: { out: (l) => out.push(l), err: (l) => out.push(`ERR ${l}`) } });
      return { code, out };
    };
    expect(await run('list')).toEqual({
      code: 0,
      out: [
        `#${first.id} prod/Products/crm v1..v2 pending attempts=0 next replay 2026-01-01T00:01:00.000Z at=2026-01-01T00:00:00.000Z error=HTTP 503 from crm`,
        `#${second.id} prod/Products/crm v2..v3 exhausted attempts=1 exhausted at=2026-01-01T00:00:00.000Z error=HTTP 500 from crm`,
      ],
    });
    expect(await run('replay', String(second.id))).toEqual({ code: 0, out: ['1 dead letter(s) due for replay now; the running sync process picks them up on its next cycle.'] });
    const listed = JSON.parse((await run('list', '--json')).out[0] as string) as { id: number; status: string; attempts: number }[];
    expect(listed.map((l) => [l.id, l.status, l.attempts])).toEqual([[first.id, 'pending', 0], [second.id, 'pending', 0]]);
    expect(await run('purge')).toEqual({ code: 2, out: ['ERR Name the dead letters by id (see `wharf sync deadletters list`) or pass --all.'] });
    expect(await run('purge', '--all')).toEqual({ code: 0, out: ['2 dead letter(s) purged; their objects poll again and re-send those changes.'] });
    expect(await run('list')).toEqual({ code: 0, out: ['No dead letters.'] });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('%s: the process stops cleanly and promptly with exit code 0', async (signal) => {
    const root = await projectWith({ prod: pgEnvironment(db.url, [{ Type: 'File', Key: 'f', Path: 'o/{version}.json' }]) });
    const child = spawn(process.execPath, [path.join(repo, 'scripts', 'wharf.mjs'), 'sync', '--root', root], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    await until('started', () => log.includes('"event":"sync.started"'), 60_000);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const lingering = new Promise<'still running after 15 s'>((resolve) => setTimeout(() => resolve('still running after 15 s'), 15_000).unref());
    expect(await Promise.race([exited, lingering])).toBe(0);
    expect(log).toContain('"event":"sync.stopped"');
    expect(log).not.toContain(db.url); // connection strings never reach the log
  });
});
