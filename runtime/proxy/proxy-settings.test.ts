import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { readProxySettings } from './proxy-settings.js';

const read = (env: Record<string, string>) => readProxySettings(ConfigSource.from({}, 'environments/settings.json', env));
const readFile = (proxy: Record<string, unknown>) => readProxySettings(ConfigSource.from({ Proxy: proxy }, 'settings.json', {}));

describe('Proxy:CompositeMaxArrayItems', () => {
  it('defaults to 1000 and takes 1 to 100000', () => {
    expect(read({}).compositeMaxArrayItems).toBe(1000);
    expect(read({ Proxy__CompositeMaxArrayItems: '1' }).compositeMaxArrayItems).toBe(1);
    expect(read({ Proxy__CompositeMaxArrayItems: '100000' }).compositeMaxArrayItems).toBe(100_000);
  });

  it.each([
    ['0', 'must be 1 or more'],
    ['100001', 'must be 100000 or less'],
  ])('refuses %s at startup', (value, message) => {
    expect(() => read({ Proxy__CompositeMaxArrayItems: value })).toThrow(
      `Setting 'Proxy:CompositeMaxArrayItems' (from environment variable Proxy__CompositeMaxArrayItems) ${message}`,
    );
  });
});

describe('Proxy:PublicBaseUrl and Proxy:BufferLimitBytes', () => {
  it('defaults: relative links, a 16 MiB buffer limit', () => {
    const settings = readFile({});
    expect(settings.publicBaseUrl).toBe('');
    expect(settings.bufferLimitBytes).toBe(16 * 1024 * 1024);
  });

  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['https://API.example.com:8443/gw/', 'https://api.example.com:8443/gw'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
  ])('PublicBaseUrl %s -> %s', (given, want) => {
    expect(readFile({ PublicBaseUrl: given }).publicBaseUrl).toBe(want);
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?x=1', 'https://u:p@api.example.com', 'https://api.example.com/#a'])(
    'refuses PublicBaseUrl %s',
    (given) => {
      expect(() => readFile({ PublicBaseUrl: given })).toThrow(/Proxy:PublicBaseUrl/);
    },
  );

  it.each([65535, 256 * 1024 * 1024 + 1])('refuses BufferLimitBytes %i', (given) => {
    expect(() => readFile({ BufferLimitBytes: given })).toThrow(/Proxy:BufferLimitBytes/);
  });
});
