/**
 * CORS settings (defaults in brackets; they live in the registry, schemas/settings.schema.json); no origin listed = CORS off (no CORS headers, OPTIONS as before):
 *   Cors:AllowedOrigins [] — exact origins (`https://app.example.com`, `http://localhost:5173`), or `*`
 *   Cors:AllowedMethods [GET HEAD POST PUT PATCH DELETE QUERY MERGE OPTIONS]
 *   Cors:AllowedHeaders [Authorization Content-Type If-None-Match If-Match]
 *   Cors:ExposedHeaders [ETag Retry-After WWW-Authenticate X-RateLimit-* X-Total-Records X-Query-Time X-Cache]
 *   Cors:AllowCredentials [false] — never together with `*` (refused at start)
 *   Cors:MaxAgeSeconds [600, 0..86400] — how long a browser may reuse a preflight answer
 */
import { WharfError } from '../errors/wharf-error.js';
import type { ConfigSource } from '../settings/config-source.js';

export interface CorsSettings {
  /** Lower-case serialized origins; empty = CORS off. */
  readonly allowedOrigins: readonly string[];
  readonly anyOrigin: boolean;
  readonly allowedMethods: readonly string[];
  readonly allowedHeaders: readonly string[];
  readonly exposedHeaders: readonly string[];
  readonly allowCredentials: boolean;
  readonly maxAgeSeconds: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function refuse(source: ConfigSource, key: string, reason: string): WharfError {
  return new WharfError('SETTINGS_INVALID_VALUE', { key, source: source.entry(key)?.source ?? source.entry(`${key}:0`)?.source ?? 'defaults', reason });
}

/** `scheme://host[:port]` exactly as a browser sends it in `Origin` (no path, no trailing slash). */
function origin(source: ConfigSource, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refuse(source, 'Cors:AllowedOrigins', `item '${value}' is not an origin (scheme://host[:port])`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin.toLowerCase() !== value.toLowerCase()) {
    throw refuse(source, 'Cors:AllowedOrigins', `item '${value}' is not an origin (scheme://host[:port], no path or trailing slash)`);
  }
  return url.origin.toLowerCase();
}

function tokens(source: ConfigSource, key: string): string[] {
  const list = source.stringList(key) ?? [];
  const bad = list.find((item) => !TOKEN.test(item));
  if (bad !== undefined) throw refuse(source, key, `item '${bad}' is not a header or method name`);
  return [...list];
}

export function readCorsSettings(source: ConfigSource): CorsSettings {
  const listed = (source.stringList('Cors:AllowedOrigins') ?? []).map((item) => item.trim()).filter((item) => item !== '');
  const anyOrigin = listed.includes('*');
  const allowCredentials = source.bool('Cors:AllowCredentials');
  if (anyOrigin && allowCredentials) {
    throw refuse(source, 'Cors:AllowCredentials', "cannot be true while Cors:AllowedOrigins has '*' (list the origins instead)");
  }
  return {
    allowedOrigins: listed.filter((item) => item !== '*').map((item) => origin(source, item)),
    anyOrigin,
    allowedMethods: tokens(source, 'Cors:AllowedMethods').map((method) => method.toUpperCase()),
    allowedHeaders: tokens(source, 'Cors:AllowedHeaders'),
    exposedHeaders: tokens(source, 'Cors:ExposedHeaders'),
    allowCredentials,
    maxAgeSeconds: source.int('Cors:MaxAgeSeconds'),
  };
}

export function corsEnabled(settings: CorsSettings): boolean {
  return settings.anyOrigin || settings.allowedOrigins.length > 0;
}
