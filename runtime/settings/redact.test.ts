import { describe, expect, it } from 'vitest';
import { ConfigSource } from './config-source.js';
import { CONNECTION_STRING_MASK, SECRET_MASK, redact, redactSettingsSource } from './redact.js';
import { createTestServer } from '../testing/test-server.js';
import { gatewayOf } from '../gateway-handle.js';

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

  // Issue 23 item 14: credentials judged by what the value is, for every URL form.
  it.each([
    ['user and password', 'redis://app:hunter2@cache:6379/0', true],
    ['password only (Redis before 6)', 'redis://:hunter2@cache:6379', true],
    ['password only, TLS', 'rediss://:hunter2@cache:6380/1', true],
    ['user only (a token as user name)', 'https://ghp_hunter2@example.com/repo.git', true],
    ['percent-encoded password', 'postgresql://app:p%40ss%3Aword@db/app', true],
    ['password with a colon', 'redis://default:a:b:c@cache', true],
    ['password as query parameter', 'postgres://db/app?sslmode=require&password=hunter2', true],
    ['OAuth client secret or code as query parameter (the list logged URLs are redacted by)', 'https://idp.example/token?client_id=w&client_secret=s3', true],
    ['key=value connection string', 'Server=db;Database=app;User Id=sa;Password=hunter2;', true],
    ['key=value with Pwd', 'Host=db;Pwd=hunter2', true],
    ['URL without credentials', 'redis://cache:6379/0', false],
    ['an @ in the path is not user information', 'https://example.com/users/@alice', false],
    ['a plain word', 'wharf:', false],
  ])('%s', (_name, value, secret) => {
    const masked = redact({ Url: value, note: value });
    expect(masked).toEqual(secret ? { Url: CONNECTION_STRING_MASK, note: CONNECTION_STRING_MASK } : { Url: value, note: value });
  });

  // Settings the registry knows, through the settings dump (ConfigSource refuses unknown keys and
  // malformed values, so each gets a value of its type); names it does not know (headers, other
  // programs' keys in a log line) through redact(), the same judgement by the key's own part.
  it.each([
    ['RateLimiting:TokenLimit', '7', false],
    ['RateLimiting:TokenWindow', '60', false],
    ['Redis:KeyPrefix', 'value-1', false],
    ['Auth:Store:Provider', 'Postgres', false],
    ['Auth:VerificationCacheSeconds', '5', false],
    ['Auth:Store:ConnectionString', 'value-1', true],
    ['WebUi:SeedPassword', 'value-1', true],
    ['WebUi:AdminApiKey', 'value-1', true],
  ])('%s (registered) is secret by its name: %s', (key, value, secret) => {
    const source = ConfigSource.from({}, 'f', { [key.split(':').join('__')]: value });
    expect(redactSettingsSource(source)[key]).toBe(secret ? (key.endsWith('ConnectionString') ? CONNECTION_STRING_MASK : SECRET_MASK) : value);
  });

  it.each([
    ['RateLimiting:TokenLimit', false],
    ['Auth:Store:Provider', false],
    ['Oidc:ClientSecret', true],
    ['Upstream:AccessToken', true],
    ['Jwt:SigningKey', true],
    ['Headers:X-Api-Key', true],
    ['Headers:Authorization', true],
    ['Proxy:BasicAuth', true],
    ['Secrets:ApiKeys:0', true],
  ])('%s is secret by its name: %s', (key, secret) => {
    expect((redact({ [key]: 'value-1' }) as Record<string, unknown>)[key]).toBe(secret ? SECRET_MASK : 'value-1');
  });

  it('the startup log shows RateLimiting:TokenLimit and hides a password-only Redis URL', async () => {
    const server = await createTestServer({
      generated: { endpoints: [{ kind: 'sql', routePath: 'A' }] },
      env: { RateLimiting__TokenLimit: '7', Redis__Url: 'redis://:hunter2-redis@127.0.0.1:1/0' },
    });
    try {
      const text = server.logs.text();
      expect(text).toContain('"RateLimiting:TokenLimit":"7"');
      expect(text).toContain(`"Redis:Url":"${CONNECTION_STRING_MASK}"`);
      expect(text).not.toContain('hunter2-redis');
    } finally {
      await server.close();
    }
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
      await gatewayOf(server.app).reload();
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
