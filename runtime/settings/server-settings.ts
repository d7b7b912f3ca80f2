/**
 * Typed server settings. Defaults and ranges live in the registry (schemas/settings.schema.json,
 * see runtime/contract/settings-registry.ts); this reader only names keys and shapes the value.
 * Other areas read their own keys from `ServerSettings.source`, each key in exactly one reader:
 * RateLimiting:*, Caching:*, Auth:*, Redis:*, ForwardedHeaders:* belong to access control
 * (runtime/auth/access-runtime.ts readAccessSettings and the readers it calls).
 */
import { WharfError } from '../errors/wharf-error.js';
import type { ConfigSource } from './config-source.js';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ServerSettings {
  readonly environment: {
    readonly serverName: string;
    /** null = the key is absent: every configured environment folder is allowed. */
    readonly allowedEnvironments: readonly string[] | null;
  };
  readonly server: {
    /** Largest request body accepted before 413 (bytes). */
    readonly bodyLimitBytes: number;
    /** Retry-After (seconds) on the 503 of an endpoint with Enabled false. */
    readonly disabledRetryAfterSeconds: number;
    /** SIGTERM/SIGINT: how long in-flight requests may finish before the process exits anyway. */
    readonly shutdownTimeoutSeconds: number;
    /** SIGTERM: how long the instance keeps serving while /health/ready answers 503 (below the timeout). */
    readonly shutdownDelaySeconds: number;
    /** A handler that has not answered after this long gets 503 SERVER_HANDLER_TIMEOUT. */
    readonly handlerTimeoutSeconds: number;
    /** Time to receive the request line and headers (Node answers a bare 408 and closes). */
    readonly headersTimeoutSeconds: number;
    /** Grace time for a request body; after it the body must keep arriving at minBodyBytesPerSecond. */
    readonly bodyTimeoutSeconds: number;
    readonly minBodyBytesPerSecond: number;
    /** Requests in flight at once; further ones get 503 SERVER_OVERLOADED (0 = no bound). */
    readonly maxConcurrentRequests: number;
    /** `Server-Timing` (duration of each pipeline stage) on every /api response; off by default. */
    readonly serverTiming: boolean;
  };
  readonly sqlPooling: {
    readonly enabled: boolean;
    readonly minPoolSize: number;
    readonly maxPoolSize: number;
    /** Seconds one database command may run (server- and client-side). */
    readonly commandTimeoutSeconds: number;
    /** Seconds to open a database connection. */
    readonly connectionTimeoutSeconds: number;
  };
  readonly metrics: {
    /** GET /metrics (Prometheus text, token with scope `*`). */
    readonly enabled: boolean;
    /** `host:port` of a second listener serving GET /metrics without a token; '' = none. */
    readonly listenAddress: string;
  };
  readonly logging: {
    readonly minLevel: LogLevel;
    readonly sinks: readonly string[];
  };
  readonly healthChecks: {
    readonly enabled: boolean;
    readonly cacheTimeSeconds: number;
    readonly proxyTimeoutMs: number;
    readonly diskSpaceWarningThreshold: number;
    readonly diskSpaceCriticalThreshold: number;
  };
  /** The flat source, for keys owned by later areas. */
  readonly source: ConfigSource;
}

export function readServerSettings(source: ConfigSource): ServerSettings {
  const sqlPooling = {
    enabled: source.bool('SqlConnectionPooling:Enabled'),
    minPoolSize: source.int('SqlConnectionPooling:MinPoolSize'),
    maxPoolSize: source.int('SqlConnectionPooling:MaxPoolSize'),
    commandTimeoutSeconds: source.int('SqlConnectionPooling:CommandTimeout'),
    connectionTimeoutSeconds: source.int('SqlConnectionPooling:ConnectionTimeout'),
  };
  if (sqlPooling.minPoolSize > sqlPooling.maxPoolSize) {
    throw new WharfError('SETTINGS_INVALID_VALUE', {
      key: 'SqlConnectionPooling:MinPoolSize',
      source: source.entry('SqlConnectionPooling:MinPoolSize')?.source ?? 'defaults',
      reason: 'cannot exceed SqlConnectionPooling:MaxPoolSize',
    });
  }
  const shutdownTimeoutSeconds = source.int('Server:ShutdownTimeoutSeconds');
  // absent: 2 s, but always below the timeout (a timeout of 1 or 2 s keeps working as before)
  const shutdownDelaySeconds = source.optionalInt('Server:ShutdownDelaySeconds') ?? Math.min(2, shutdownTimeoutSeconds - 1);
  if (shutdownDelaySeconds >= shutdownTimeoutSeconds) {
    throw new WharfError('SETTINGS_INVALID_VALUE', {
      key: 'Server:ShutdownDelaySeconds',
      source: source.entry('Server:ShutdownDelaySeconds')?.source ?? 'defaults',
      reason: 'must be less than Server:ShutdownTimeoutSeconds',
    });
  }
  return {
    environment: {
      serverName: source.string('Environment:ServerName'),
      allowedEnvironments: source.stringList('Environment:AllowedEnvironments'),
    },
    server: {
      bodyLimitBytes: source.int('Server:BodyLimitBytes'),
      disabledRetryAfterSeconds: source.int('Server:DisabledRetryAfterSeconds'),
      shutdownTimeoutSeconds,
      shutdownDelaySeconds,
      handlerTimeoutSeconds: source.int('Server:HandlerTimeoutSeconds'),
      headersTimeoutSeconds: source.int('Server:HeadersTimeoutSeconds'),
      bodyTimeoutSeconds: source.int('Server:BodyTimeoutSeconds'),
      minBodyBytesPerSecond: source.int('Server:MinBodyBytesPerSecond'),
      maxConcurrentRequests: source.int('Server:MaxConcurrentRequests'),
      serverTiming: source.bool('Server:ServerTiming'),
    },
    sqlPooling,
    metrics: { enabled: source.bool('Metrics:Enabled'), listenAddress: source.string('Metrics:ListenAddress').trim() },
    logging: {
      minLevel: source.choice('Logging:MinLevel', LOG_LEVELS),
      sinks: source.stringList('Logging:Sinks') ?? [],
    },
    healthChecks: {
      enabled: source.bool('HealthChecks:Enabled'),
      cacheTimeSeconds: source.int('HealthChecks:CacheTimeSeconds'),
      proxyTimeoutMs: source.int('HealthChecks:ProxyTimeout'),
      diskSpaceWarningThreshold: source.int('HealthChecks:DiskSpaceWarningThreshold'),
      diskSpaceCriticalThreshold: source.int('HealthChecks:DiskSpaceCriticalThreshold'),
    },
    source,
  };
}
