/**
 * Raw (schema-valid) sync.json documents -> the readonly SyncConfig. The only place the sync
 * defaults live (the schemas document the same values).
 */
import path from 'node:path';
import type { Destination, HttpAuth, ServiceSettings, SyncEnvironment, SyncProvider, TrackedObject } from './model.js';

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

export const DEFAULT_HEALTH_PORT = 2455;

export function normalizeService(raw: unknown, root: string): ServiceSettings {
  const json = obj(raw);
  const health = obj(json['Health']);
  const dead = obj(json['DeadLetters']);
  const web = obj(json['WebHost']);
  return {
    health: {
      enabled: bool(health['Enabled'], true),
      host: str(health['Host'], '127.0.0.1'),
      port: num(health['Port'], DEFAULT_HEALTH_PORT),
      cacheDurationSeconds: num(health['CacheDurationSeconds'], 120),
      firstProbeDelaySeconds: num(health['FirstProbeDelaySeconds'], 10),
      checkIntervalMinutes: num(json['HealthCheckIntervalMinutes'], 15),
    },
    webHost: {
      enabled: bool(web['Enabled'], false),
      adminKey: typeof web['AdminKey'] === 'string' ? web['AdminKey'] : null,
    },
    deadLetters: {
      replayIntervalSeconds: num(dead['ReplayIntervalSeconds'], 60),
      maxReplayAttempts: num(dead['MaxReplayAttempts'], 5),
      backoffBaseSeconds: num(dead['BackoffBaseSeconds'], 60),
      backoffCapSeconds: num(dead['BackoffCapSeconds'], 6 * 3600),
      retentionDays: num(dead['RetentionDays'], 30),
    },
    stateDirectory: path.resolve(root, str(json['StateDirectory'], 'data/sync')),
    shutdownGraceSeconds: num(json['ShutdownGraceSeconds'], 10),
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
    batching: { maxRecords: num(json['MaxRecordsPerBatch'], 1000), maxBytes: num(json['MaxPayloadSizeBytes'], 5 * 1024 * 1024) },
    objects,
    destinations: (Array.isArray(json['Destinations']) ? json['Destinations'] : []).map(normalizeDestination),
  };
}
