/**
 * redact(): the filter every log line and every response that could carry settings goes through.
 * A value is judged by what it is, not by the section it sits in:
 * - a property whose own name (the last segment of a colon key) is a connection string becomes
 *   `<CONNECTION_STRING>` (the spec's mask);
 * - a text property named like a secret becomes `<REDACTED>`: its name contains password, passwd,
 *   pwd, secret, credential, signature, apikey, privatekey, accesskey or authorization, or ends in
 *   token, key or auth (`RefreshToken`, `SigningKey`, `X-Api-Key`; not `TokenLimit`, `KeyPrefix`,
 *   `Auth:Store:Provider`);
 * - any text carrying credentials is `<CONNECTION_STRING>` wherever it appears: a URL with user
 *   information (`scheme://user:pass@`, `scheme://:pass@` as in `redis://:secret@host`,
 *   `scheme://token@`), a URL with a credential query parameter (`?password=`), or a key=value
 *   connection string with `Password=`/`Pwd=`.
 * Settings dumps also mask every setting the registry marks `x-secret` (e.g. Redis:Url, Git:Password).
 */
import type { ConfigSource } from './config-source.js';
import { resolveKey } from '../contract/settings-registry.js';

export const CONNECTION_STRING_MASK = '<CONNECTION_STRING>';
export const SECRET_MASK = '<REDACTED>';

const CONNECTION_STRING_NAME = /connectionstring/;
const SECRET_WORD = /password|passwd|pwd|secret|credential|signature|apikey|privatekey|accesskey|authorization/;
const SECRET_ENDING = /(?:token|key|auth)$/;

/** A URL with user information: anything between `://` and an `@` before the first `/`, `?` or `#`. */
export const URL_WITH_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^\s/?#@]*@/i;
/**
 * Query parameters that carry credentials (`?access_token=` is RFC 6750 §2.3), lower case: the one
 * list for settings values (here) and for URLs written to the log (logging/redact-url.ts).
 */
export const CREDENTIAL_PARAMETERS: readonly string[] = [
  'password', 'pwd', 'pass', 'secret', 'client_secret', 'token', 'access_token', 'refresh_token', 'id_token',
  'api_key', 'apikey', 'key', 'code', 'sig', 'signature',
];
/** A URL with a credential query parameter. */
const URL_SECRET_PARAMETER = new RegExp(`[a-z][a-z0-9+.-]*:\\/\\/[^\\s?#]*\\?(?:[^\\s#]*&)?(?:${CREDENTIAL_PARAMETERS.join('|')})=`, 'i');
/** A key=value connection string with a password. */
const KEY_VALUE_PASSWORD = /\b(?:password|pwd)\s*=/i;

/** The name's own part, lower case, letters and digits only (`RateLimiting:TokenLimit` → `tokenlimit`; a list item `A:Keys:0` → `keys`). */
function leaf(name: string): string {
  const own = name.replace(/(?::\d+)+$/, '');
  return own.slice(own.lastIndexOf(':') + 1).toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSecretName(name: string): boolean {
  const own = leaf(name);
  return SECRET_WORD.test(own) || SECRET_ENDING.test(own) || CONNECTION_STRING_NAME.test(own);
}

/** Whether a text carries credentials (a URL with user information or a secret parameter, a `Password=` string). */
export function carriesCredentials(value: string): boolean {
  return URL_WITH_CREDENTIALS.test(value) || URL_SECRET_PARAMETER.test(value) || KEY_VALUE_PASSWORD.test(value);
}

function redactString(name: string | null, value: string): string {
  if (name !== null) {
    const own = leaf(name);
    if (CONNECTION_STRING_NAME.test(own)) return CONNECTION_STRING_MASK;
    if (SECRET_WORD.test(own) || SECRET_ENDING.test(own)) return SECRET_MASK;
  }
  if (carriesCredentials(value)) return CONNECTION_STRING_MASK;
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
 * the registry marks `x-secret` is always masked (whatever its name: `<CONNECTION_STRING>` when it is
 * a connection string or carries credentials, else `<REDACTED>`), the rest through redact().
 */
export function redactSettingsSource(source: ConfigSource): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of source.all()) {
    const spec = resolveKey(entry.key)?.spec;
    const secret = spec?.secret === true && entry.value !== null && entry.value !== '';
    if (!secret) {
      out[entry.key] = redactValue(entry.key, entry.value, new WeakSet());
      continue;
    }
    // a connection string, or a value carrying credentials (`redis://:pw@host`), shows as one; other secrets as <REDACTED>
    const connection = CONNECTION_STRING_NAME.test(leaf(entry.key)) || carriesCredentials(String(entry.value));
    out[entry.key] = connection ? CONNECTION_STRING_MASK : SECRET_MASK;
  }
  return out;
}
