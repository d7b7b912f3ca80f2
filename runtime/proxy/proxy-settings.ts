/**
 * Proxy settings (`Proxy:*` in environments/settings.json, `Proxy__*` variables): the only place
 * their keys and defaults are spelled. docs/proxy.md lists them.
 */
import { WharfError } from '../errors/wharf-error.js';
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
  /**
   * Where clients reach the gateway (`https://api.example.com`, optionally with a path prefix, no
   * trailing `/`); '' = not configured: rewritten links are relative (`/api/...`) and upstreams get
   * no X-Forwarded-Host. The client's Host header is never used for either.
   */
  readonly publicBaseUrl: string;
  /** Largest upstream response body read whole (transforms, the response cache filling an entry). */
  readonly bufferLimitBytes: number;
}

const PUBLIC_BASE_URL = 'Proxy:PublicBaseUrl';

/** `http(s)://host[:port][/prefix]` without query, fragment or credentials; '' when absent. */
function publicBaseUrl(source: ConfigSource): string {
  const raw = source.string(PUBLIC_BASE_URL).trim();
  if (raw === '') return '';
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new WharfError('SETTINGS_INVALID_VALUE', {
      key: PUBLIC_BASE_URL,
      source: source.entry(PUBLIC_BASE_URL)?.source ?? 'defaults',
      reason: 'must be an http(s) URL such as https://api.example.com (a path prefix is allowed; no query, fragment or credentials)',
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
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
    compositeMaxArrayItems: source.int('Proxy:CompositeMaxArrayItems'),
    publicBaseUrl: publicBaseUrl(source),
    bufferLimitBytes: source.int('Proxy:BufferLimitBytes'),
  };
}
