import { describe, expect, it } from 'vitest';
import { ConfigSource } from './config-source.js';
import { readServerSettings } from './server-settings.js';

const FILE = {
  Environment: { ServerName: 'wharf-demo', AllowedEnvironments: ['demo', 'test'] },
  RateLimiting: { Enabled: true, IpLimit: 100 },
  'Caching:DefaultDurationSeconds': 120,
  Logging: { Sinks: [] },
};

function source(env: Record<string, string> = {}, file: unknown = FILE): ConfigSource {
  return ConfigSource.from(file, 'environments/settings.json', env);
}

describe('ConfigSource', () => {
  it.each([
    ['nested keys', {}, (s: ConfigSource) => s.string('Environment:ServerName'), 'wharf-demo'],
    ['case-insensitive keys', {}, (s: ConfigSource) => s.string('environment:servername'), 'wharf-demo'],
    ['literal colon keys', {}, (s: ConfigSource) => s.int('Caching:DefaultDurationSeconds'), 120],
    ['default when absent (from the registry)', {}, (s: ConfigSource) => s.int('Caching:MemoryCacheSizeLimitMB'), 64],
    ['env var overrides with __', { RateLimiting__Enabled: 'false' }, (s: ConfigSource) => s.bool('RateLimiting:Enabled'), false],
    ['env var key case-insensitive', { RATELIMITING__IPLIMIT: '5' }, (s: ConfigSource) => s.int('RateLimiting:IpLimit'), 5],
    ['list from file', {}, (s: ConfigSource) => s.stringList('Environment:AllowedEnvironments'), ['demo', 'test']],
    ['list index override', { Environment__AllowedEnvironments__0: 'prod' }, (s: ConfigSource) => s.stringList('Environment:AllowedEnvironments'), ['prod', 'test']],
    ['list index added', { Environment__AllowedEnvironments__2: 'qa' }, (s: ConfigSource) => s.stringList('Environment:AllowedEnvironments'), ['demo', 'test', 'qa']],
    ['comma list replaces', { Environment__AllowedEnvironments: 'a, b' }, (s: ConfigSource) => s.stringList('Environment:AllowedEnvironments'), ['a', 'b']],
    ['empty list stays empty', {}, (s: ConfigSource) => s.stringList('Logging:Sinks'), []],
    ['absent list is its registry default', {}, (s: ConfigSource) => s.stringList('ForwardedHeaders:KnownProxies'), []],
    ['absent list without default is null', {}, (_s: ConfigSource) => source({}, {}).stringList('Environment:AllowedEnvironments'), null],
    ['variables without __ are ignored', { PATH: '/bin' }, (s: ConfigSource) => s.entry('PATH'), undefined],
  ] as const)('%s', (_name, env, read, want) => {
    expect(read(source(env))).toEqual(want);
  });

  it.each([
    ['bool', { HealthChecks__Enabled: 'yes' }, "Setting 'HealthChecks:Enabled' (from environment variable HealthChecks__Enabled) must be true or false"],
    ['int', { SqlConnectionPooling__MaxPoolSize: '1.5' }, "Setting 'SqlConnectionPooling:MaxPoolSize' (from environment variable SqlConnectionPooling__MaxPoolSize) must be a whole number"],
    ['range', { Server__DisabledRetryAfterSeconds: '0' }, "Setting 'Server:DisabledRetryAfterSeconds' (from environment variable Server__DisabledRetryAfterSeconds) must be 1 or more"],
    ['choice', { Logging__MinLevel: 'loud' }, "Setting 'Logging:MinLevel' (from environment variable Logging__MinLevel) must be one of trace, debug, info, warn, error, fatal, silent"],
    ['pool sizes', { SqlConnectionPooling__MinPoolSize: '50', SqlConnectionPooling__MaxPoolSize: '10' }, "Setting 'SqlConnectionPooling:MinPoolSize' (from environment variable SqlConnectionPooling__MinPoolSize) cannot exceed SqlConnectionPooling:MaxPoolSize"],
    ['shutdown delay', { Server__ShutdownDelaySeconds: '10', Server__ShutdownTimeoutSeconds: '10' }, "Setting 'Server:ShutdownDelaySeconds' (from environment variable Server__ShutdownDelaySeconds) must be less than Server:ShutdownTimeoutSeconds"],
    ['shutdown delay range', { Server__ShutdownDelaySeconds: '-1' }, "Setting 'Server:ShutdownDelaySeconds' (from environment variable Server__ShutdownDelaySeconds) must be 0 or more"],
  ] as const)('a bad %s value is a startup error naming the key', (_name, env, message) => {
    expect(() => readServerSettings(source(env))).toThrow(message);
  });

  it.each([
    ['a misspelt section in the file', {}, { RateLimting: { Enabled: false } }, "Setting 'RateLimting:Enabled' (from environments/settings.json) is not a known setting. Did you mean 'RateLimiting:Enabled'?"],
    ['a misspelt key in the file', {}, { Server: { BodyLimitByte: 1 } }, "Setting 'Server:BodyLimitByte' (from environments/settings.json) is not a known setting. Did you mean 'Server:BodyLimitBytes'?"],
    ['an unknown key of a known section in a variable', { Metrics__Enable: 'true' }, {}, "Setting 'Metrics:Enable' (from environment variable Metrics__Enable) is not a known setting. Did you mean 'Metrics:Enabled'?"],
    ['a misspelt section in a variable', { RateLimting__Enabled: 'false' }, {}, "Setting 'RateLimting:Enabled' (from environment variable RateLimting__Enabled) is not a known setting. Did you mean 'RateLimiting:Enabled'?"],
    ['a bad legacy variable', { HEALTHCHECK_DISK_WARNING: '101' }, {}, "Setting 'HealthChecks:DiskSpaceWarningThreshold' (from environment variable HEALTHCHECK_DISK_WARNING) must be 100 or less"],
    ['a Docs value the docs site would have read as true', { Docs__EnableHotReload: 'nope' }, {}, "Setting 'Docs:EnableHotReload' (from environment variable Docs__EnableHotReload) must be true or false"],
    ['a Docs:AllowedHosts item with a scheme (variable)', { Docs__AllowedHosts: 'localhost, https://docs.example.com' }, {}, "Setting 'Docs:AllowedHosts' (from environment variable Docs__AllowedHosts) has 'https://docs.example.com', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)"],
    ['a Docs:AllowedHosts item with a path (file)', {}, { Docs: { AllowedHosts: ['docs.example.com', 'docs.example.com/x'] } }, "Setting 'Docs:AllowedHosts:1' (from environments/settings.json) has 'docs.example.com/x', which is not a host"],
    ['more Docs:AllowedHosts than maxItems', {}, { Docs: { AllowedHosts: Array.from({ length: 51 }, (_, i) => `h${i}.example.com`) } }, "Setting 'Docs:AllowedHosts' (from environments/settings.json) accepts at most 50 entries"],
  ] as const)('%s stops with the key, its source and a suggestion', (_name, env, file, message) => {
    expect(() => source(env, file)).toThrow(message);
  });

  it.each([
    ['variables of other processes are not ours', { Health__Port: '9000', DeadLetters__RetentionDays: '3' }],
    ['variables of unrelated programs are ignored', { DOTNET__CLI: '1', npm_config__x: 'y', DB__HOST: 'x', WEB__PORT: '1', __CF_USER_TEXT_ENCODING: '0x0' }],
  ] as const)('%s', (_name, env) => {
    expect(source(env).int('RateLimiting:IpLimit')).toBe(100);
  });

  it('legacy variables sit above the file and below Section__Key', () => {
    const file = { HealthChecks: { CacheTimeSeconds: 10 } };
    expect(source({}, file).int('HealthChecks:CacheTimeSeconds')).toBe(10);
    expect(source({ HEALTHCHECK_CACHE_TIME: '20' }, file).int('HealthChecks:CacheTimeSeconds')).toBe(20);
    expect(source({ HEALTHCHECK_CACHE_TIME: '20', HealthChecks__CacheTimeSeconds: '40' }, file).int('HealthChecks:CacheTimeSeconds')).toBe(40);
  });

  it.each([
    ['a file value', {}, 'RateLimiting:IpLimit', 100, 'file'],
    ['a key in another case', {}, 'ratelimiting:iplimit', 100, 'file'],
    ['the registry default', {}, 'RateLimiting:IpWindow', 60, null],
    ['a `__` variable over the file', { RateLimiting__IpLimit: '7' }, 'RateLimiting:IpLimit', 7, 'environment'],
    ['a legacy variable', { HEALTHCHECK_CACHE_TIME: '20' }, 'HealthChecks:CacheTimeSeconds', 20, 'environment'],
    ['a list from the file, by its items', {}, 'Environment:AllowedEnvironments', ['demo', 'test'], 'file'],
    ['a list item from a variable counts by the first item', { Environment__AllowedEnvironments__1: 'qa' }, 'Environment:AllowedEnvironments', ['demo', 'qa'], 'file'],
    ['a comma list from a variable', { ForwardedHeaders__KnownProxies: '10.0.0.1, 10.0.0.2' }, 'ForwardedHeaders:KnownProxies', ['10.0.0.1', '10.0.0.2'], 'environment'],
    ['an empty list', {}, 'Logging:Sinks', [], 'file'],
    ['an absent list', {}, 'ForwardedHeaders:KnownNetworks', [], null],
  ] as const)('read() and origin(): %s', (_name, env, key, value, origin) => {
    expect(source(env).read(key)).toEqual(value);
    expect(source(env).origin(key)).toBe(origin);
  });

  it('read() gives what the typed getter gives for every registered key', () => {
    const loaded = source({ RateLimiting__TokenWindow: '30', Environment__AllowedEnvironments: 'a,b' });
    expect(loaded.read('RateLimiting:TokenWindow')).toBe(loaded.int('RateLimiting:TokenWindow'));
    expect(loaded.read('Caching:Provider')).toBe(loaded.choice('Caching:Provider', ['Memory', 'Redis']));
    expect(loaded.read('Environment:AllowedEnvironments')).toEqual(loaded.stringList('Environment:AllowedEnvironments'));
    expect(() => loaded.read('Caching:Missing')).toThrow("Setting 'Caching:Missing' is read but not registered in schemas/settings.schema.json");
  });

  it('reading a key that is not registered throws (a setting added without its registry entry)', () => {
    expect(() => source().int('Caching:Missing')).toThrow("Setting 'Caching:Missing' is read but not registered in schemas/settings.schema.json");
  });

  it('the sync file has its own keys and overrides', () => {
    const sync = ConfigSource.from({ Health: { Port: 1 } }, 'environments/sync.json', { Health__Port: '9000', RateLimiting__Enabled: 'nope' }, 'sync.json');
    expect(sync.int('Health:Port')).toBe(9000);
    expect(ConfigSource.from({ Health: { AllowedHosts: ['sync.example.com', '*.example.com:2455', '*'] } }, 'environments/sync.json', {}, 'sync.json').stringList('Health:AllowedHosts')).toEqual(['sync.example.com', '*.example.com:2455', '*']);
    expect(() => ConfigSource.from({}, 'environments/sync.json', { Health__AllowedHosts: 'a*.example.com' }, 'sync.json')).toThrow(
      "Setting 'Health:AllowedHosts' (from environment variable Health__AllowedHosts) has 'a*.example.com', which is not a host",
    );
    expect(() => ConfigSource.from({}, 'environments/sync.json', { Health__Port: '70000' }, 'sync.json')).toThrow(
      "Setting 'Health:Port' (from environment variable Health__Port) must be 65535 or less",
    );
  });

  it.each([
    ['default', {}, 2],
    ['default below a short timeout', { Server__ShutdownTimeoutSeconds: '2' }, 1],
    ['default with the shortest timeout', { Server__ShutdownTimeoutSeconds: '1' }, 0],
    ['set', { Server__ShutdownDelaySeconds: '5', Server__ShutdownTimeoutSeconds: '30' }, 5],
  ] as const)('Server:ShutdownDelaySeconds: %s', (_name, env, want) => {
    expect(readServerSettings(source(env)).server.shutdownDelaySeconds).toBe(want);
  });

  it.each([
    ['not below the timeout', { Server__ShutdownDelaySeconds: '10' }, "Setting 'Server:ShutdownDelaySeconds' (from environment variable Server__ShutdownDelaySeconds) must be less than Server:ShutdownTimeoutSeconds"],
    ['above the registry range', { Server__ShutdownDelaySeconds: '3601', Server__ShutdownTimeoutSeconds: '3600' }, "Setting 'Server:ShutdownDelaySeconds' (from environment variable Server__ShutdownDelaySeconds) must be 3600 or less"],
    ['not a whole number', { Server__ShutdownDelaySeconds: 'soon' }, "Setting 'Server:ShutdownDelaySeconds' (from environment variable Server__ShutdownDelaySeconds) must be a whole number"],
  ] as const)('Server:ShutdownDelaySeconds %s is refused', (_name, env, message) => {
    expect(() => readServerSettings(source(env))).toThrow(message);
  });

  it('names the file when the bad value comes from it', () => {
    expect(() => readServerSettings(source({}, { Server: { BodyLimitBytes: 'big' } }))).toThrow(
      "Setting 'Server:BodyLimitBytes' (from environments/settings.json) must be a whole number",
    );
  });

  it('reads typed settings with defaults', () => {
    const settings = readServerSettings(source());
    expect({ ...settings, source: undefined }).toEqual({
      environment: { serverName: 'wharf-demo', allowedEnvironments: ['demo', 'test'] },
      server: {
        bodyLimitBytes: 10 * 1024 * 1024,
        disabledRetryAfterSeconds: 300,
        shutdownTimeoutSeconds: 10,
        shutdownDelaySeconds: 2,
        handlerTimeoutSeconds: 60,
        headersTimeoutSeconds: 10,
        bodyTimeoutSeconds: 10,
        minBodyBytesPerSecond: 1024,
        maxConcurrentRequests: 1000,
        serverTiming: false,
      },
      sqlPooling: { enabled: true, minPoolSize: 5, maxPoolSize: 100, commandTimeoutSeconds: 30, connectionTimeoutSeconds: 5 },
      metrics: { enabled: true, listenAddress: '' },
      logging: { minLevel: 'info', sinks: [] },
      healthChecks: {
        enabled: true,
        cacheTimeSeconds: 30,
        proxyTimeoutMs: 10_000,
        diskSpaceWarningThreshold: 15,
        diskSpaceCriticalThreshold: 5,
      },
      source: undefined,
    });
  });
});
