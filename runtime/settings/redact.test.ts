import { describe, expect, it } from 'vitest';
import { ConfigSource } from './config-source.js';
import { CONNECTION_STRING_MASK, SECRET_MASK, redact, redactSettingsSource } from './redact.js';
import { createTestServer } from '../testing/test-server.js';

describe('redact', () => {
  it.each([
    ['connection string property', { ConnectionString: 'Server=x;Password=p' }, { ConnectionString: CONNECTION_STRING_MASK }],
    ['camel-case connection string', { connectionString: 'embedded://demo' }, { connectionString: CONNECTION_STRING_MASK }],
    ['secret-looking headers', { Headers: { 'X-Api-Key': 'k', Authorization: 'Bearer t', 'X-Signature': 's', 'X-Env': 'demo' } }, { Headers: { 'X-Api-Key': SECRET_MASK, Authorization: SECRET_MASK, 'X-Signature': SECRET_MASK, 'X-Env': 'demo' } }],
    ['password, token, credential, secret', { password: 'a', refreshToken: 'b', Credentials: 'c', clientSecret: 'd' }, { password: SECRET_MASK, refreshToken: SECRET_MASK, Credentials: SECRET_MASK, clientSecret: SECRET_MASK }],
    ['connection string value under any name', { note: 'Host=db;Pwd=hunter2', url: 'postgres://app:pw@db/x' }, { note: CONNECTION_STRING_MASK, url: CONNECTION_STRING_MASK }],
    ['numbers and plain strings stay', { TokenLimit: 100, ServerName: 'wharf' }, { TokenLimit: 100, ServerName: 'wharf' }],
    ['maps and arrays', new Map([['prod', { ConnectionString: 'x', list: ['Password=1'] }]]), { prod: { ConnectionString: CONNECTION_STRING_MASK, list: [CONNECTION_STRING_MASK] } }],
  ])('%s', (_name, value, want) => {
    expect(redact(value)).toEqual(want);
  });

  it('flat settings keep keys and mask secret values', () => {
    const source = ConfigSource.from({ WebUi: { AdminApiKey: 'abc' }, RateLimiting: { TokenLimit: 5 } }, 'f', {});
    expect(redactSettingsSource(source)).toEqual({ 'RateLimiting:TokenLimit': 5, 'WebUi:AdminApiKey': SECRET_MASK });
  });

  it('a setting the registry marks x-secret is masked whatever its name (Redis:Url)', () => {
    const source = ConfigSource.from({ Redis: { Url: 'redis://cache.internal:6379/0' }, Environment: { ServerName: 'w' }, Auth: { Store: { ConnectionString: 'Host=db' } } }, 'f', {});
    expect(redactSettingsSource(source)).toEqual({ 'Auth:Store:ConnectionString': CONNECTION_STRING_MASK, 'Environment:ServerName': 'w', 'Redis:Url': SECRET_MASK });
  });

  it('the server logs neither connection strings nor secret headers', async () => {
    const server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'A' }] },
      serverSettings: { Environment: { AllowedEnvironments: ['demo', 'prod'] }, WebUi: { AdminApiKey: 'console-key-123' } },
    });
    try {
      await server.app.inject({ method: 'GET', url: '/api/prod/A' });
      await server.app.wharf.reload();
      const text = server.logs.text();
      expect(text).toContain('"settings loaded"');
      expect(text).toContain('"prod"');
      expect(text).toContain(`"connectionString":"${CONNECTION_STRING_MASK}"`);
      expect(text).toContain(`"X-Api-Key":"${SECRET_MASK}"`);
      for (const secret of ['hunter2-prod', 'embedded://demo', 'prod-api-key-value', 'console-key-123']) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });
});
