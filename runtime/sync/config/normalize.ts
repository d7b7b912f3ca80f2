/**
 * Raw (schema-valid) sync.json documents -> the readonly SyncConfig. The only place the sync
 * defaults live (the schemas document the same values).
 */
import path from 'node:path';
import { ConfigSource } from '../../settings/config-source.js';
import type { Destination, HttpAuth, ServiceSettings, SyncEnvironment, SyncProvider, TrackedObject } from './model.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

/**
 * The service settings of environments/sync.json with the `Section__Key` variables (`Health__Port`)
 * laid over it, read through the settings registry (schemas/sync/service.schema.json holds every
 * default and range). Throws SETTINGS_UNKNOWN_KEY / SETTINGS_INVALID_VALUE naming the variable.
 */
export function normalizeService(
  raw: unknown,
  root: string,
  env: Readonly<Record<string, string | undefined>> = {},
  label = 'environments/sync.json',
): ServiceSettings {
  const source = ConfigSource.from(raw ?? {}, label, env, 'sync.json');
  return {
    health: {
      enabled: source.bool('Health:Enabled'),
      host: source.string('Health:Host'),
      port: source.int('Health:Port'),
      allowedHosts: source.stringList('Health:AllowedHosts') ?? [],
      cacheDurationSeconds: source.number('Health:CacheDurationSeconds'),
      firstProbeDelaySeconds: source.number('Health:FirstProbeDelaySeconds'),
      checkIntervalMinutes: source.number('HealthCheckIntervalMinutes'),
    },
    webHost: {
      enabled: source.bool('WebHost:Enabled'),
      adminKey: source.optionalString('WebHost:AdminKey'),
    },
    deadLetters: {
      replayIntervalSeconds: source.number('DeadLetters:ReplayIntervalSeconds'),
      maxReplayAttempts: source.int('DeadLetters:MaxReplayAttempts'),
      backoffBaseSeconds: source.number('DeadLetters:BackoffBaseSeconds'),
      backoffCapSeconds: source.number('DeadLetters:BackoffCapSeconds'),
      retentionDays: source.number('DeadLetters:RetentionDays'),
    },
    stateDirectory: path.resolve(root, source.string('StateDirectory')),
    shutdownGraceSeconds: source.number('ShutdownGraceSeconds'),
  };
}

function normalizeAuth(raw: unknown): HttpAuth {
  const a = obj(raw);
  switch (a['Type']) {
    case 'Bearer':
      return { type: 'Bearer', token: str(a['Token'], '') };
    case 'Basic':
      return { type: 'Basic', username: str(a['Username'], ''), password: str(a['Password'], '') };
    case 'ApiKey':
      return { type: 'ApiKey', header: str(a['HeaderName'], 'X-API-Key'), key: str(a['ApiKey'], '') };
    case 'OAuth2ClientCredentials':
      return {
        type: 'OAuth2ClientCredentials',
        tokenUrl: str(a['TokenUrl'], ''),
        clientId: str(a['ClientId'], ''),
        clientSecret: str(a['ClientSecret'], ''),
        scope: typeof a['Scope'] === 'string' ? a['Scope'] : null,
      };
    default:
      return { type: 'None' };
  }
}

function normalizeDestination(raw: unknown): Destination {
  const d = obj(raw);
  const key = str(d['Key'], '');
  switch (d['Type']) {
    case 'File':
      return { type: 'File', key, path: str(d['Path'], '') };
    case 'Http':
      return {
        type: 'Http',
        key,
        url: str(d['Url'], ''),
        auth: normalizeAuth(d['Auth']),
        headers: Object.fromEntries(Object.entries(obj(d['CustomHeaders'])).map(([k, v]) => [k, String(v)])),
        compression: bool(d['EnableCompression'], false),
        timeoutSeconds: num(d['TimeoutSeconds'], 30),
      };
    case 'RabbitMQ':
      return {
        type: 'RabbitMQ',
        key,
        url: str(d['Url'], ''),
        exchange: str(d['Exchange'], ''),
        exchangeType: (d['ExchangeType'] as 'topic' | 'direct' | 'fanout' | undefined) ?? 'topic',
        queue: typeof d['Queue'] === 'string' ? d['Queue'] : null,
        routingKey: str(d['RoutingKey'], '{environment}.{object}'),
        messagePer: d['MessagePer'] === 'Batch' ? 'Batch' : 'Change',
        messageHeaders: bool(d['MessageHeaders'], true),
      };
    default:
      return {
        type: 'Database',
        key,
        provider: d['Provider'] === 'mssql' ? 'mssql' : 'postgres',
        connectionString: str(d['ConnectionString'], ''),
        table: str(d['Table'], ''),
      };
  }
}

export function normalizeEnvironment(name: string, file: string, raw: unknown): SyncEnvironment {
  const json = obj(raw);
  const connectionStrings = Object.fromEntries(Object.entries(obj(json['ConnectionStrings'])).map(([k, v]) => [k, String(v)]));
  const firstKey = Object.keys(connectionStrings)[0] ?? 'default';
  const polling = num(json['PollingIntervalSeconds'], 30);
  const objects = (Array.isArray(json['TrackedObjects']) ? json['TrackedObjects'] : []).map((item): TrackedObject => {
    const o = obj(item);
    return {
      name: str(o['Name'], ''),
      procedure: str(o['StoredProcedureName'], ''),
      connectionKey: str(o['ConnectionKey'], firstKey),
      pollingIntervalSeconds: num(o['PollingIntervalSeconds'], polling),
      initialSyncMode: o['InitialSyncMode'] === 'Incremental' ? 'Incremental' : 'Full',
    };
  });
  return {
    name,
    file,
    provider: str(json['Provider'], 'postgres') as SyncProvider,
    connectionStrings,
    retry: { count: num(json['RetryCount'], 3), delaySeconds: num(json['RetryDelaySeconds'], 5) },
    batching: {
      maxRecords: num(json['MaxRecordsPerBatch'], 1000),
      maxBytes: num(json['MaxPayloadSizeBytes'], 5 * 1024 * 1024),
      maxInFlight: num(json['MaxBatchesInFlight'], 4),
    },
    objects,
    destinations: (Array.isArray(json['Destinations']) ? json['Destinations'] : []).map(normalizeDestination),
  };
}
