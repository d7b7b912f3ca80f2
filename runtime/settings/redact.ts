/**
 * redact(): the filter every log line that could carry settings goes through. Connection strings
 * and secret-looking values never reach a log: a property named like a connection string becomes
 * `<CONNECTION_STRING>` (the spec's mask), a string property whose name contains password, secret,
 * token, key, auth, credential or signature becomes `<REDACTED>`, and any string that looks like a
 * connection string (`Password=`, `Pwd=`, `scheme://user:pass@`) is masked wherever it appears.
 * Settings dumps also mask every setting the registry marks `x-secret` (e.g. Redis:Url, Git:Password).
 */
import type { ConfigSource } from './config-source.js';
import { resolveKey } from './registry.js';

export const CONNECTION_STRING_MASK = '<CONNECTION_STRING>';
export const SECRET_MASK = '<REDACTED>';

const CONNECTION_STRING_NAME = /connection.?string/i;
const SECRET_NAME = /password|secret|token|key|auth|credential|signature/i;
const CONNECTION_STRING_VALUE = /\b(password|pwd)\s*=|[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || CONNECTION_STRING_NAME.test(name);
}

function redactString(name: string | null, value: string): string {
  if (name !== null && CONNECTION_STRING_NAME.test(name)) return CONNECTION_STRING_MASK;
  if (name !== null && SECRET_NAME.test(name)) return SECRET_MASK;
  if (CONNECTION_STRING_VALUE.test(value)) return CONNECTION_STRING_MASK;
  return value;
}

function redactValue(name: string | null, value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return redactString(name, value);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(name, item, seen));
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of value) out[String(key)] = redactValue(String(key), item, seen);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redactValue(key, item, seen);
  return out;
}

/** A deep copy of `value` that is safe to log. */
export function redact<T>(value: T): unknown {
  return redactValue(null, value, new WeakSet());
}

/**
 * The flat settings as `{ "A:B": value }`, redacted, for a startup log line or a dump: a setting
 * the registry marks `x-secret` is always masked (whatever its name), the rest through redact().
 */
export function redactSettingsSource(source: ConfigSource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of source.all()) {
    const spec = resolveKey(entry.key)?.spec;
    const secret = spec?.secret === true && entry.value !== null && entry.value !== '';
    out[entry.key] = secret ? (CONNECTION_STRING_NAME.test(entry.key) ? CONNECTION_STRING_MASK : SECRET_MASK) : redactValue(entry.key, entry.value, new WeakSet());
  }
  return out;
}
