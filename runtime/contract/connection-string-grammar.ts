/**
 * The grammar both connection-string parsers share (connection-string.ts): `Key=Value;...` pairs,
 * compact key spelling, and value checks whose messages name the key, never the value.
 */

export class ConnectionStringError extends Error {
  override readonly name = 'ConnectionStringError';
}

export function fail(message: string): never {
  throw new ConnectionStringError(message);
}

export interface KeyValuePair {
  readonly key: string;
  readonly value: string;
  /** The key of the pair before when its value was a password written without quotes: this "key" may be the rest of it. */
  readonly afterPassword?: string;
}

const PASSWORD_KEYS = new Set(['password', 'pwd']);
const STRAY_AFTER = (key: string) => `the text after the value of ${key} is not a Key=Value pair (pairs are separated by ';'; quote a value that holds ';', as in Password="a;b")`;

/**
 * Refuses a key no parser knows, naming it, unless it follows an unquoted password: then it may be
 * the password's rest (`Password=ab;cd=ef`), so it is not echoed.
 */
export function unknownKey(pair: KeyValuePair, known: string): never {
  if (pair.afterPassword !== undefined) fail(STRAY_AFTER(pair.afterPassword));
  return fail(`unknown key '${pair.key}' (${known})`);
}

/** `Key=Value;...` pairs in order: keys trimmed (original spelling kept for messages), values unquoted. */
export function keyValuePairs(text: string): KeyValuePair[] {
  const out: KeyValuePair[] = [];
  let unquotedPassword: string | undefined;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ';' || /\s/.test(text[i] as string))) i++;
    if (i >= text.length) break;
    const eq = text.indexOf('=', i);
    const semi = text.indexOf(';', i);
    // the stray text is never echoed: after an unquoted Password holding ';' it is the password's rest
    if (eq < 0 || (semi >= 0 && semi < eq)) fail(out.length === 0 ? "the connection string does not start with a Key=Value pair (pairs are separated by ';')" : STRAY_AFTER(out[out.length - 1]!.key));
    const key = text.slice(i, eq).trim();
    if (key === '') fail('a key is empty (each pair is Key=Value, separated by \';\')');
    i = eq + 1;
    while (i < text.length && text[i] === ' ') i++;
    let value: string;
    const quote = text[i];
    if (quote === '"' || quote === "'") {
      value = '';
      i++;
      for (;;) {
        if (i >= text.length) fail(`the value of ${key} has no closing ${quote}`);
        if (text[i] === quote) {
          if (text[i + 1] === quote) {
            value += quote;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      while (i < text.length && text[i] === ' ') i++;
      if (i < text.length && text[i] !== ';') fail(`unexpected text after the quoted value of ${key}`);
    } else {
      const end = text.indexOf(';', i);
      value = text.slice(i, end < 0 ? undefined : end).trim();
      i = end < 0 ? text.length : end;
    }
    const follows = unquotedPassword;
    unquotedPassword = quote !== '"' && quote !== "'" && PASSWORD_KEYS.has(compact(key)) ? key : undefined;
    out.push(follows === undefined ? { key, value } : { key, value, afterPassword: follows });
  }
  return out;
}

/** `Trust Server Certificate` and `TrustServerCertificate` are the same key. */
export function compact(key: string): string {
  return key.toLowerCase().replace(/[\s_]/g, '');
}

export function bool(key: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v === 'true' || v === 'yes' || v === '1') return true;
  if (v === 'false' || v === 'no' || v === '0') return false;
  return fail(`${key} must be true or false`);
}

export function wholeNumber(key: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim())) fail(`${key} must be a whole number`);
  const n = Number(value);
  if (n < min || n > max) fail(`${key} must be between ${min} and ${max}`);
  return n;
}

export function hostName(key: string, host: string): string {
  if (host === '' || /[\s;,/?#@]/.test(host)) fail(`${key} is not a host name`);
  return host;
}

export function looksLikeUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim());
}

/** The URL form of a connection string, or the error naming the form it should have (`example`). */
export function connectionUrl(text: string, example: string): URL {
  try {
    return new URL(text.trim());
  } catch {
    return fail(`is not a valid URL (${example})`);
  }
}
