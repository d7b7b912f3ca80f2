/**
 * The settings store: subscribers hear the live keys of each change (matched without regard to
 * case), not the restart-only ones and not those a `__` environment variable sets; unsubscribed
 * listeners hear nothing. Through the running server: a PUT of a live setting reaches the areas
 * that subscribed (the console's WebUi:SecureCookies, the log level).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayOf } from '../gateway-handle.js';
import { createTestServer, type TestServer } from '../testing/test-server.js';
import { ConfigSource } from './config-source.js';
import { SettingsStore, type SettingsChange } from './settings-store.js';

function store(env: Record<string, string> = {}): SettingsStore {
  return new SettingsStore(ConfigSource.from({}, 'environments/settings.json', env));
}

describe('SettingsStore', () => {
  it('publishes the live keys of a change to every subscriber until it unsubscribes', () => {
    const settings = store();
    const heard: [string, unknown][] = [];
    const stop = settings.subscribe((change) => heard.push(['a', change.get('logging:minlevel')]));
    settings.subscribe((change) => heard.push(['b', change.get('WebUi:SecureCookies')]));
    settings.update([['Logging:MinLevel', 'debug'], ['WebUi:SecureCookies', true]]);
    expect(heard).toEqual([['a', 'debug'], ['b', true]]);
    stop();
    settings.update([['Logging:MinLevel', 'warn']]);
    expect(heard).toEqual([['a', 'debug'], ['b', true], ['b', undefined]]);
  });

  it('leaves out restart-only keys and keys a `__` variable sets; a change with nothing left is not published', () => {
    const settings = store({ Logging__MinLevel: 'error' });
    const heard: SettingsChange[] = [];
    settings.subscribe((change) => heard.push(change));
    const published = settings.update([['Logging:MinLevel', 'debug'], ['SqlConnectionPooling:MaxPoolSize', 50], ['WebUi:PublicOrigins', ['https://ops.example']]]);
    expect(published.get('Logging:MinLevel')).toBeUndefined();
    expect(published.get('SqlConnectionPooling:MaxPoolSize')).toBeUndefined();
    expect(published.get('WebUi:PublicOrigins')).toEqual(['https://ops.example']);
    expect(heard).toEqual([published]);
    settings.update([['Logging:MinLevel', 'info'], ['SqlConnectionPooling:MaxPoolSize', 60]]);
    expect(heard).toHaveLength(1);
  });
});

describe('live settings through PUT /ui/api/settings', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ generated: { endpoints: [] } });
  });
  afterAll(() => server.close());

  it('reaches the areas that subscribed: the log level and the console settings change at once', async () => {
    const gateway = gatewayOf(server.app);
    const heard: unknown[] = [];
    const stop = gateway.liveSettings.subscribe((change) => heard.push(change.get('Logging:MinLevel')));
    const saved = await server.inject({ method: 'PUT', url: '/ui/api/settings', payload: { 'Logging:MinLevel': 'warn', 'WebUi:SecureCookies': true } });
    stop();
    expect(saved.json()).toEqual({ ok: true, restart_required: false });
    expect(heard).toEqual(['warn']);
    expect(server.app.log.level).toBe('warn');
    expect(gateway.console.settings.secureCookies).toBe(true);
  });
});
