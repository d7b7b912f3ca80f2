import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { createAccessRuntime, readAccessSettings } from './access-runtime.js';
import { openTokenStore } from './store/open-store.js';

describe('readAccessSettings', () => {
  it('has the documented defaults', () => {
    expect(readAccessSettings(ConfigSource.from(undefined, 'none', {}), 'data')).toEqual({
      store: { provider: 'Sqlite', file: path.join('data', 'auth.db'), connectionString: null, timeoutMs: 2000 },
      verificationCacheSeconds: 5,
      jwt: null,
      rateLimiting: { enabled: true, ipLimit: 100, ipWindowSeconds: 60, tokenLimit: 100, tokenWindowSeconds: 60 },
      forwardedHeaders: { knownProxies: [], knownNetworks: [] },
      redis: { url: null, keyPrefix: 'wharf:', commandTimeoutMs: 500, connectTimeoutMs: 2000 },
      caching: { enabled: true, provider: 'Memory', defaultDurationSeconds: 300, memoryLimitBytes: 64 * 1024 * 1024 },
    });
  });

  it('reads the file and lets __ environment variables override it', () => {
    const source = ConfigSource.from(
      {
        RateLimiting: { Enabled: false, IpLimit: 10, IpWindow: 30, TokenLimit: 20, TokenWindow: 15 },
        ForwardedHeaders: { KnownProxies: ['10.0.0.5'], KnownNetworks: ['192.168.0.0/16'] },
        Caching: { Provider: 'redis', DefaultDurationSeconds: 60 },
        Redis: { Url: 'redis://127.0.0.1:6390' },
      },
      'settings.json',
      { RateLimiting__IpLimit: '7', Auth__Store__Provider: 'postgres', Auth__Store__ConnectionString: 'postgres://u:p@h/db' },
    );
    const settings = readAccessSettings(source, 'data');
    expect(settings.rateLimiting).toEqual({ enabled: false, ipLimit: 7, ipWindowSeconds: 30, tokenLimit: 20, tokenWindowSeconds: 15 });
    expect(settings.forwardedHeaders).toEqual({ knownProxies: ['10.0.0.5'], knownNetworks: ['192.168.0.0/16'] });
    expect(settings.caching).toMatchObject({ provider: 'Redis', defaultDurationSeconds: 60 });
    expect(settings.store).toMatchObject({ provider: 'Postgres', connectionString: 'postgres://u:p@h/db' });
  });

  const BAD: [string, unknown, string][] = [
    ['Redis cache without Redis:Url', { Caching: { Provider: 'Redis' } }, 'Caching:Provider Redis needs Redis:Url'],
    ['unknown cache provider', { Caching: { Provider: 'Disk' } }, "Setting 'Caching:Provider' (from settings.json) must be one of Memory, Redis"],
    ['zero limit', { RateLimiting: { TokenLimit: 0 } }, "Setting 'RateLimiting:TokenLimit' (from settings.json) must be 1 or more"],
    ['Redis command timeout below 10 ms', { Redis: { CommandTimeoutMs: 5 } }, "Setting 'Redis:CommandTimeoutMs' (from settings.json) must be 10 or more"],
    ['token store timeout above 60 s', { Auth: { Store: { CommandTimeoutMs: 60_001 } } }, "Setting 'Auth:Store:CommandTimeoutMs' (from settings.json) must be"],
    ['unknown store', { Auth: { Store: { Provider: 'Mongo' } } }, "Setting 'Auth:Store:Provider' (from settings.json) must be one of Sqlite, Postgres, SqlServer"],
  ];
  it.each(BAD)('refuses %s', (_name, json, message) => {
    expect(() => readAccessSettings(ConfigSource.from(json, 'settings.json', {}), 'data')).toThrow(message);
  });
});

describe('createAccessRuntime', () => {
  it('builds a working runtime on the default SQLite store and closes it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wharf-runtime-'));
    try {
      const runtime = await createAccessRuntime(readAccessSettings(ConfigSource.from(undefined, 'none', {}), dir));
      const { token } = await runtime.tokens.create({ username: 'alice' });
      expect((await runtime.tokens.verify(token)).ok).toBe(true);
      expect([runtime.redis, runtime.limiter.store.kind, runtime.cache.store.kind]).toEqual([null, 'memory', 'memory']);
      await runtime.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses the SqlServer store clearly until it exists', async () => {
    await expect(openTokenStore({ provider: 'SqlServer', file: '', connectionString: 'Server=x', timeoutMs: 2000 })).rejects.toThrow(
      'Auth:Store:Provider SqlServer is not implemented yet; use Sqlite or Postgres',
    );
  });
});
