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
}

export function readProxySettings(source: ConfigSource): ProxySettings {
  return {
    connectTimeoutMs: source.int('Proxy:ConnectTimeoutMs'),
    headersTimeoutMs: source.int('Proxy:HeadersTimeoutMs'),
    bodyTimeoutMs: source.int('Proxy:BodyTimeoutMs'),
    maxConnectionsPerOrigin: source.int('Proxy:MaxConnectionsPerOrigin'),
    keepAliveTimeoutMs: source.int('Proxy:KeepAliveTimeoutMs'),
    replayBodyLimitBytes: source.int('Proxy:ReplayBodyLimitBytes'),
    circuitFailureThreshold: source.int('Proxy:CircuitBreaker:ConsecutiveFailures'),
    circuitOpenMs: source.int('Proxy:CircuitBreaker:OpenMs'),
    compositeArrayConcurrency: source.int('Proxy:CompositeArrayConcurrency'),
  };
}
