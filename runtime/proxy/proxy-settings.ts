/**
 * Proxy settings (`Proxy:*` in environments/settings.json, `Proxy__*` variables): the only place
 * their keys and defaults are spelled. docs/proxy.md lists them.
 */
import type { ConfigSource } from '../settings/config-source.js';

export interface ProxySettings {
  /** TCP (+TLS) connect timeout per attempt. */
  readonly connectTimeoutMs: number;
  /** Time until the upstream's response headers arrive. */
  readonly headersTimeoutMs: number;
  /** Longest silence between two body chunks of the upstream response. */
  readonly bodyTimeoutMs: number;
  /** Concurrent upstream connections per origin (requests beyond it wait in the pool's queue). */
  readonly maxConnectionsPerOrigin: number;
  /** Idle keep-alive connections are closed after this long. */
  readonly keepAliveTimeoutMs: number;
  /** Request bodies up to this size are kept for retries; larger bodies get exactly one attempt. */
  readonly replayBodyLimitBytes: number;
  /** Consecutive failures of one origin that open its circuit (0 = no circuit breaker). */
  readonly circuitFailureThreshold: number;
  /** How long an open circuit refuses before one probe request is let through. */
  readonly circuitOpenMs: number;
  /** Concurrent requests of one Composite array step. */
  readonly compositeArrayConcurrency: number;
  /** Elements an array step's ArrayProperty may hold (more: 422 before any step runs). */
  readonly compositeMaxArrayItems: number;
}

export function readProxySettings(source: ConfigSource): ProxySettings {
  return {
    connectTimeoutMs: source.int('Proxy:ConnectTimeoutMs', 5_000, { min: 1 }),
    headersTimeoutMs: source.int('Proxy:HeadersTimeoutMs', 30_000, { min: 1 }),
    bodyTimeoutMs: source.int('Proxy:BodyTimeoutMs', 30_000, { min: 1 }),
    maxConnectionsPerOrigin: source.int('Proxy:MaxConnectionsPerOrigin', 64, { min: 1, max: 10_000 }),
    keepAliveTimeoutMs: source.int('Proxy:KeepAliveTimeoutMs', 4_000, { min: 1 }),
    replayBodyLimitBytes: source.int('Proxy:ReplayBodyLimitBytes', 1024 * 1024, { min: 0 }),
    circuitFailureThreshold: source.int('Proxy:CircuitBreaker:ConsecutiveFailures', 5, { min: 0 }),
    circuitOpenMs: source.int('Proxy:CircuitBreaker:OpenMs', 30_000, { min: 1 }),
    compositeArrayConcurrency: source.int('Proxy:CompositeArrayConcurrency', 4, { min: 1, max: 64 }),
    compositeMaxArrayItems: source.int('Proxy:CompositeMaxArrayItems', 1000, { min: 1, max: 100_000 }),
  };
}
