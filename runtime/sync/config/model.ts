/**
 * The normalized, readonly sync configuration: what `environments/sync.json` (service settings)
 * and `environments/<env>/sync.json` (one per environment) mean once every default is filled in.
 * normalize.ts is the only place defaults live; everything else reads this model.
 */

export type SyncProvider = 'postgres' | 'mssql' | 'embedded';

export interface HealthSettings {
  readonly enabled: boolean;
  readonly host: string;
  readonly port: number;
  /** `Health:AllowedHosts`: Host names answered besides loopback names and IP literals (serve/allowed-hosts.ts). */
  readonly allowedHosts: readonly string[];
  readonly cacheDurationSeconds: number;
  /** Delay before the first background connection probe (spec: about ten seconds). */
  readonly firstProbeDelaySeconds: number;
  /** Background prober interval (`HealthCheckIntervalMinutes`). */
  readonly checkIntervalMinutes: number;
}

export interface DeadLetterSettings {
  /** How often due dead letters are replayed. */
  readonly replayIntervalSeconds: number;
  readonly maxReplayAttempts: number;
  /** First replay delay; doubles per attempt up to backoffCapSeconds. */
  readonly backoffBaseSeconds: number;
  readonly backoffCapSeconds: number;
  readonly retentionDays: number;
}

/** The dashboard at /ui on the health listener (`WebHost`). */
export interface WebHostSettings {
  readonly enabled: boolean;
  /** Secret: never logged or echoed. null = the dashboard is read-only. */
  readonly adminKey: string | null;
}

export interface ServiceSettings {
  readonly health: HealthSettings;
  readonly webHost: WebHostSettings;
  readonly deadLetters: DeadLetterSettings;
  /** Folder of state.db and sinkhole.db, absolute. */
  readonly stateDirectory: string;
  /** Seconds a SIGTERM waits for the batch in flight before abandoning it. */
  readonly shutdownGraceSeconds: number;
}

export interface RetrySettings {
  readonly count: number;
  readonly delaySeconds: number;
}

export interface BatchSettings {
  readonly maxRecords: number;
  readonly maxBytes: number;
  /** `MaxBatchesInFlight`: batches of one object awaiting their confirmation at once (pipelining destinations). */
  readonly maxInFlight: number;
}

export interface TrackedObject {
  readonly name: string;
  /** Schema-qualified procedure (SQL Server) or function (PostgreSQL) name, as written. */
  readonly procedure: string;
  readonly connectionKey: string;
  readonly pollingIntervalSeconds: number;
  readonly initialSyncMode: 'Full' | 'Incremental';
}

export type HttpAuth =
  | { readonly type: 'None' }
  | { readonly type: 'Bearer'; readonly token: string }
  | { readonly type: 'Basic'; readonly username: string; readonly password: string }
  | { readonly type: 'ApiKey'; readonly header: string; readonly key: string }
  | {
      readonly type: 'OAuth2ClientCredentials';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      readonly scope: string | null;
    };

export interface FileDestination {
  readonly type: 'File';
  readonly key: string;
  /** Template with {environment}, {object}, {version}, {fromVersion}; relative to the project root. */
  readonly path: string;
}

export interface HttpDestination {
  readonly type: 'Http';
  readonly key: string;
  readonly url: string;
  readonly auth: HttpAuth;
  readonly headers: Readonly<Record<string, string>>;
  readonly compression: boolean;
  readonly timeoutSeconds: number;
}

export interface RabbitMqDestination {
  readonly type: 'RabbitMQ';
  readonly key: string;
  readonly url: string;
  readonly exchange: string;
  readonly exchangeType: 'topic' | 'direct' | 'fanout';
  /** Durable queue bound to the exchange with the routing key (null: publish only). */
  readonly queue: string | null;
  /** Template with {environment}, {object}, {operation}. */
  readonly routingKey: string;
  /** One message per change (default) or one per batch. */
  readonly messagePer: 'Change' | 'Batch';
  /**
   * The x-wharf-* headers on every message (default true). They repeat what messageId, type and
   * the routing key carry; a headers table costs the broker about a fifth of its CPU per message.
   */
  readonly messageHeaders: boolean;
}

export interface DatabaseDestination {
  readonly type: 'Database';
  readonly key: string;
  readonly provider: 'postgres' | 'mssql';
  readonly connectionString: string;
  /** Schema-qualified table with columns ObjectName, Version, Operation, Data. */
  readonly table: string;
}

export type Destination = FileDestination | HttpDestination | RabbitMqDestination | DatabaseDestination;

export interface SyncEnvironment {
  /** Folder name. */
  readonly name: string;
  readonly file: string;
  readonly provider: SyncProvider;
  /** Secrets: never logged. */
  readonly connectionStrings: Readonly<Record<string, string>>;
  readonly retry: RetrySettings;
  readonly batching: BatchSettings;
  readonly objects: readonly TrackedObject[];
  readonly destinations: readonly Destination[];
}

export interface SyncConfig {
  readonly service: ServiceSettings;
  readonly environments: readonly SyncEnvironment[];
}
