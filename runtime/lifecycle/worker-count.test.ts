import { describe, expect, it } from 'vitest';
import { checkSettingsDocument } from '../contract/settings-document.js';
import { ConfigSource } from '../settings/config-source.js';
import type { EnvironmentConfig, EnvironmentMap } from '../settings/environments.js';
import { requireSharedStores, workerCount } from './worker-count.js';

const source = (env: Record<string, string>, file: unknown = {}): ConfigSource => ConfigSource.from(file, 'environments/settings.json', env);

const SHARED = { Redis__Url: 'redis://127.0.0.1:6379/0', Auth__Store__Provider: 'Postgres', Caching__Provider: 'Redis' };
const POSTGRES: EnvironmentMap = new Map([['demo', { name: 'demo', provider: 'postgres', connectionString: 'postgres://x/y', headers: {}, file: 'f' } satisfies EnvironmentConfig]]);
const EMBEDDED: EnvironmentMap = new Map([['demo', { name: 'demo', provider: 'embedded', connectionString: '', headers: {}, file: 'f' } satisfies EnvironmentConfig]]);

describe('Server:Workers', () => {
  it.each([
    ['absent: 1', {}, {}, 1],
    ['a number in the file', {}, { Server: { Workers: 3 } }, 3],
    ['a number in a variable', { Server__Workers: '2' }, {}, 2],
    ['auto: one per core', { Server__Workers: 'auto' }, {}, 6],
    ['auto in any case', {}, { Server: { Workers: 'Auto' } }, 6],
  ] as const)('%s', (_name, env, file, want) => {
    expect(workerCount(source(env, file), 6)).toBe(want);
  });

  it('auto is at most 64 workers and at least 1', () => {
    expect(workerCount(source({ Server__Workers: 'auto' }), 200)).toBe(64);
    expect(workerCount(source({ Server__Workers: 'auto' }), 0)).toBe(1);
  });

  it.each([
    ['0', "Setting 'Server:Workers' (from environment variable Server__Workers) must be 1 or more (or auto)"],
    ['65', "Setting 'Server:Workers' (from environment variable Server__Workers) must be 64 or less (or auto)"],
    ['many', "Setting 'Server:Workers' (from environment variable Server__Workers) must be a whole number or auto"],
    ['1.5', "Setting 'Server:Workers' (from environment variable Server__Workers) must be a whole number or auto"],
  ] as const)('%s is refused naming the key', (value, message) => {
    expect(() => source({ Server__Workers: value })).toThrow(message);
  });

  it('wharf check takes a number or auto in environments/settings.json, and names anything else', () => {
    expect(checkSettingsDocument({ Server: { Workers: 'auto' } }, 'settings.json')).toEqual([]);
    expect(checkSettingsDocument({ Server: { Workers: 4 } }, 'settings.json')).toEqual([]);
    expect(checkSettingsDocument({ Server: { Workers: 'all' } }, 'settings.json')).toMatchObject([
      { pointer: '/Server/Workers', message: 'Server:Workers must be a whole number or auto' },
    ]);
  });

  it.each([
    ['no Redis', { Auth__Store__Provider: 'Postgres', Caching__Enabled: 'false' }, POSTGRES, 'is 2: Redis:Url must be set'],
    ['the SQLite token store', { Redis__Url: 'redis://127.0.0.1:6379/0', Caching__Enabled: 'false' }, POSTGRES, 'is 2: Auth:Store:Provider must be Postgres'],
    ['the Memory cache', { ...SHARED, Caching__Provider: 'Memory' }, POSTGRES, 'is 2: Caching:Provider must be Redis, or Caching:Enabled false'],
    ['an embedded database', SHARED, EMBEDDED, "is 2: environment 'demo' uses the embedded database"],
  ] as const)('more than one worker with %s is refused naming Server:Workers', (_name, env, environments, reason) => {
    const settings = source({ ...env, Server__Workers: '2' });
    expect(() => requireSharedStores(settings, 2, environments)).toThrow(`Setting 'Server:Workers' (from environment variable Server__Workers) ${reason}`);
  });

  it.each([
    ['shared stores', SHARED, 2],
    ['caching off instead of a Redis cache', { ...SHARED, Caching__Provider: 'Memory', Caching__Enabled: 'false' }, 2],
    ['one worker needs nothing shared', {}, 1],
  ] as const)('%s: accepted', (_name, env, count) => {
    expect(() => requireSharedStores(source(env), count, count === 1 ? EMBEDDED : POSTGRES)).not.toThrow();
  });
});
