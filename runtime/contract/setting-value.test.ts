import { describe, expect, it } from 'vitest';
import { settingSpec } from './settings-registry.js';
import { coerceValue, listItemProblem } from './setting-value.js';
import { checkSettingsDocument } from './settings-document.js';

// One grammar for JSON values and variable text, whichever process reads them.
describe('coerceValue', () => {
  it.each([
    ['bool JSON', 'Metrics:Enabled', false, { ok: true, value: false }],
    ['bool text any case', 'Metrics:Enabled', ' TRUE ', { ok: true, value: true }],
    ['bool yes', 'Metrics:Enabled', 'yes', { ok: false, reason: 'must be true or false' }],
    ['bool nope', 'Docs:EnableHotReload', 'nope', { ok: false, reason: 'must be true or false' }],
    ['bool 0', 'Git:Enabled', '0', { ok: false, reason: 'must be true or false' }],
    ['nullable bool null', 'Git:Enabled', null, { ok: true, value: null }],
    ['null is the default', 'Server:BodyLimitBytes', null, { ok: true, value: 10485760 }],
    ['int text', 'RateLimiting:IpLimit', '42', { ok: true, value: 42 }],
    ['int decimal', 'RateLimiting:IpLimit', '4.5', { ok: false, reason: 'must be a whole number' }],
    ['int below', 'RateLimiting:IpLimit', 0, { ok: false, reason: 'must be 1 or more' }],
    ['int above', 'HealthChecks:CacheTimeSeconds', 3601, { ok: false, reason: 'must be 3600 or less' }],
    ['choice any case', 'Logging:MinLevel', 'WARN', { ok: true, value: 'warn' }],
    ['choice unknown', 'Caching:Provider', 'Disk', { ok: false, reason: 'must be one of Memory, Redis' }],
    ['text too long', 'Environment:ServerName', 'x'.repeat(101), { ok: false, reason: 'must be at most 100 characters' }],
    ['text from a number', 'Redis:KeyPrefix', 7, { ok: true, value: '7' }],
  ] as const)('%s', (_name, key, raw, want) => {
    expect(coerceValue(settingSpec(key), raw)).toEqual(want);
  });

  it.each([
    ['number with decimals', 'Health:FirstProbeDelaySeconds', '0.5', { ok: true, value: 0.5 }],
    ['exclusive minimum', 'HealthCheckIntervalMinutes', '0', { ok: false, reason: 'must be more than 0' }],
    ['not a number', 'DeadLetters:RetentionDays', 'soon', { ok: false, reason: 'must be a number' }],
  ] as const)('sync: %s', (_name, key, raw, want) => {
    expect(coerceValue(settingSpec(key, 'sync.json'), raw)).toEqual(want);
  });
});

// Item format `host` (Docs:AllowedHosts, Health:AllowedHosts): the loader and `wharf check` refuse what is no host pattern.
describe('listItemProblem', () => {
  it.each([
    ['a host', 'Docs:AllowedHosts', 'settings.json', 'docs.example.com', null],
    ['a URL', 'Docs:AllowedHosts', 'settings.json', 'https://docs.example.com', "has 'https://docs.example.com', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)"],
    ['sync: wildcard with port', 'Health:AllowedHosts', 'sync.json', '*.example.com:2455', null],
    ['sync: a path', 'Health:AllowedHosts', 'sync.json', 'sync.example.com/ui', "has 'sync.example.com/ui', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)"],
    ['another format is checked where the console writes it', 'WebUi:PublicOrigins', 'settings.json', 'not an origin', null],
  ] as const)('%s', (_name, key, file, item, want) => {
    expect(listItemProblem(settingSpec(key, file), item)).toBe(want);
  });

  it('wharf check points at the item', () => {
    expect(checkSettingsDocument({ Docs: { AllowedHosts: ['localhost', 'http://x'] } })).toEqual([
      { code: 'settings-value', pointer: '/Docs/AllowedHosts/1', message: "Docs:AllowedHosts has 'http://x', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)", atKey: false },
    ]);
    expect(checkSettingsDocument({ Health: { AllowedHosts: ['*'] } }, 'sync.json')).toEqual([]);
  });
});
