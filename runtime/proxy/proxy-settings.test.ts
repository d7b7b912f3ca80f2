import { describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { readProxySettings } from './proxy-settings.js';

const read = (env: Record<string, string>) => readProxySettings(ConfigSource.from({}, 'environments/settings.json', env));

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
