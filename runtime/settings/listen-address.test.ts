import { describe, expect, it } from 'vitest';
import { resolveListenAddress } from './listen-address.js';

describe('resolveListenAddress', () => {
  it.each([
    ['defaults', {}, {}, { port: 8080, host: '127.0.0.1' }],
    ['env vars', {}, { PORT: '9000', HOST: '0.0.0.0' }, { port: 9000, host: '0.0.0.0' }],
    ['CLI wins', { port: 3000, host: '::1' }, { PORT: '9000', HOST: '0.0.0.0' }, { port: 3000, host: '::1' }],
    ['CLI port as text', { port: '0' }, {}, { port: 0, host: '127.0.0.1' }],
  ] as const)('%s', (_name, options, env, want) => {
    expect(resolveListenAddress(options, env)).toEqual(want);
  });

  it.each([
    [{ port: 'http' }, {}, "Option --port must be a port number from 0 to 65535 (got 'http')"],
    [{}, { PORT: '70000' }, "Environment variable PORT must be a port number from 0 to 65535 (got '70000')"],
  ])('%j %j is refused', (options, env, message) => {
    expect(() => resolveListenAddress(options, env)).toThrow(message);
  });
});
