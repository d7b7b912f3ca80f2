import { describe, expect, it } from 'vitest';
import { resolveKey, settingSpec, settingsRegistry, suggestKey } from './settings-registry.js';

describe('settings registry', () => {
  it.each([
    ['a setting', 'RateLimiting:IpLimit', { key: 'RateLimiting:IpLimit', rest: '' }],
    ['any case', 'ratelimiting:iplimit', { key: 'RateLimiting:IpLimit', rest: '' }],
    ['a list item', 'Environment:AllowedEnvironments:2', { key: 'Environment:AllowedEnvironments', rest: '2' }],
    ['a map entry', 'Docs:Themes:PrimaryColor', { key: 'Docs:Themes', rest: 'PrimaryColor' }],
    ['below a scalar', 'Server:BodyLimitBytes:x', null],
    ['a list child that is not an index', 'Logging:Sinks:first', null],
    ['unknown', 'RateLimting:Enabled', null],
  ] as const)('resolveKey: %s', (_name, key, want) => {
    const got = resolveKey(key);
    expect(got && { key: got.spec.key, rest: got.rest }).toEqual(want);
  });

  it.each([
    ['RateLimting:Enabled', 'RateLimiting:Enabled'],
    ['Metrics:Enable', 'Metrics:Enabled'],
    ['HealthChecks:CacheTime', 'HealthChecks:CacheTimeSeconds'],
    ['Nothing:Near', null],
  ])('suggestKey(%s) = %s', (key, want) => {
    expect(suggestKey(key)).toBe(want);
  });

  it('the flags and legacy variables come from the schema', () => {
    expect(settingSpec('Logging:MinLevel')).toMatchObject({ restart: false, writable: true, secret: false, default: 'info' });
    expect(settingSpec('Redis:Url')).toMatchObject({ secret: true, restart: true });
    expect(settingSpec('HealthChecks:CacheTimeSeconds')).toMatchObject({ env: ['HEALTHCHECK_CACHE_TIME'], minimum: 0, maximum: 3600 });
    expect(settingSpec('Health:Port', 'sync.json')).toMatchObject({ type: 'integer', default: 2455 });
    expect(settingsRegistry('settings.json').sections.has('docs')).toBe(true);
  });

  it('a key read but not registered throws', () => {
    expect(() => settingSpec('Proxy:BufferLimit')).toThrow("Setting 'Proxy:BufferLimit' is read but not registered in schemas/settings.schema.json");
  });
});
