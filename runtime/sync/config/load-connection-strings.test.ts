/** The sync service refuses a malformed connection string at load (start or hot reload), naming it, never its value. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSyncConfig, SyncConfigError } from './load.js';

async function project(environment: unknown): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-load-'));
  await mkdir(path.join(root, 'environments', 'prod'), { recursive: true });
  await writeFile(path.join(root, 'environments', 'prod', 'sync.json'), JSON.stringify(environment));
  return root;
}

const objects = [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges' }];

describe('connection strings in environments/<env>/sync.json', () => {
  it.each([
    ['SQL Server, a typo in a key', { Provider: 'mssql', ConnectionStrings: { main: 'Server=db,1433;Database=shop;Pasword=s3cret' }, TrackedObjects: objects, Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{version}.json' }] },
      "environments/prod/sync.json: /ConnectionStrings/main unknown key 'Pasword' (SQL Server keys: Server, Database, User Id, Password, Encrypt, TrustServerCertificate, Connect Timeout, Application Name, Max Pool Size, ...)"],
    ['PostgreSQL, a port that is not a number', { Provider: 'postgres', ConnectionStrings: { main: 'Host=db;Port=five;Password=s3cret' }, TrackedObjects: objects, Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{version}.json' }] },
      'environments/prod/sync.json: /ConnectionStrings/main Port must be a whole number'],
  ])('%s', async (_name, environment, want) => {
    const root = await project(environment);
    try {
      const error = await loadSyncConfig(root, undefined, {}).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyncConfigError);
      expect((error as SyncConfigError).problems).toEqual([want]);
      expect((error as Error).message).not.toContain('s3cret');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('both forms of both providers load', async () => {
    const root = await project({ Provider: 'mssql', ConnectionStrings: { ado: 'Server=db,1433;Database=shop;User Id=u;Password=p', url: 'mssql://u:p@db:1433/shop' }, TrackedObjects: objects, Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{version}.json' }] });
    try {
      const { config } = await loadSyncConfig(root, undefined, {});
      expect(Object.keys(config.environments[0]!.connectionStrings)).toEqual(['ado', 'url']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
