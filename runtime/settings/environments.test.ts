import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigSource } from './config-source.js';
import { findEnvironment, loadEnvironments, parseEnvironment } from './environments.js';
import { isEnvironmentAllowed } from './load-settings.js';
import { readServerSettings } from './server-settings.js';

describe('parseEnvironment', () => {
  it('reads provider, connection string and headers', () => {
    const text = JSON.stringify({ Provider: 'Postgres', ConnectionString: 'Host=x', Headers: { 'X-A': '1' } });
    expect(parseEnvironment('prod', 'f', text)).toEqual({
      name: 'prod',
      provider: 'postgres',
      connectionString: 'Host=x',
      headers: { 'X-A': '1' },
      file: 'f',
    });
  });

  it('reads a file that starts with a byte order mark (as settings.json is read, and `wharf check` passes it)', () => {
    expect(parseEnvironment('prod', 'f', `\ufeff${JSON.stringify({ Provider: 'postgres', ConnectionString: 'Host=x' })}`)).toMatchObject({ provider: 'postgres', connectionString: 'Host=x' });
  });

  it.each([
    [{ Provider: 'oracle' }, 'f: Provider must be one of mssql, postgres, embedded'],
    [{ Provider: 'mssql' }, 'f: ConnectionString is required for Provider mssql'],
    [{ ConnectionString: 5 }, 'f: ConnectionString must be a string'],
    [{ Headers: ['x'] }, 'f: Headers must be an object of header name to string value'],
    [{ Headers: { A: 1 } }, 'f: Headers.A must be a string'],
    [[], 'f: must be a JSON object'],
    [{ Provider: 'postgres', ConnectionString: 'Host=db;Prot=5432' }, "f: ConnectionString: unknown key 'Prot' (PostgreSQL keys: Host, Port,"],
    [{ Provider: 'mssql', ConnectionString: 'Server=db,14x3;Database=shop' }, "f: ConnectionString: Server (the port after ',') must be a whole number"],
    [{ Provider: 'mssql', ConnectionString: 'mssql://db/shop?encrypt=maybe' }, 'f: ConnectionString: encrypt must be true, false, strict, mandatory or optional'],
  ])('%j is refused', (json, message) => {
    expect(() => parseEnvironment('x', 'f', JSON.stringify(json))).toThrow(message);
  });
});

describe('loadEnvironments', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wharf-env-'));
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('one folder per environment; folders without settings.json are skipped', async () => {
    await mkdir(path.join(dir, 'Demo'));
    await writeFile(path.join(dir, 'Demo', 'settings.json'), '{"Provider":"embedded"}');
    await mkdir(path.join(dir, 'empty'));
    const map = await loadEnvironments(dir, 'environments');
    expect([...map.keys()]).toEqual(['demo']);
    expect(findEnvironment(map, 'DEMO')?.name).toBe('Demo');
    expect(findEnvironment(map, 'DEMO')?.file).toBe('environments/Demo/settings.json');
    expect(findEnvironment(map, 'empty')).toBeUndefined();
  });

  it('a missing folder means no environments', async () => {
    expect((await loadEnvironments(path.join(dir, 'nope'))).size).toBe(0);
  });

  it('without Environment:AllowedEnvironments every configured environment is allowed', async () => {
    await mkdir(path.join(dir, 'demo'));
    await writeFile(path.join(dir, 'demo', 'settings.json'), '{}');
    const environments = await loadEnvironments(dir);
    const open = { server: readServerSettings(ConfigSource.from({}, 'f', {})), environments };
    expect([isEnvironmentAllowed(open, 'Demo'), isEnvironmentAllowed(open, 'other')]).toEqual([true, false]);
    const closed = { server: readServerSettings(ConfigSource.from({ Environment: { AllowedEnvironments: [] } }, 'f', {})), environments };
    expect(isEnvironmentAllowed(closed, 'demo')).toBe(false);
  });
});
