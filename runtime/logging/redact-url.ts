/**
 * URLs as they may be written to a log: the values of credential-looking query parameters and
 * anything shaped like a Wharf token (`whf_...`, anywhere in the URL) become `[REDACTED]`.
 * A token in the query string is refused by the gateway anyway; this keeps it out of the logs too.
 */
import { CREDENTIAL_PARAMETERS } from '../settings/redact.js';

/** Query parameter names whose value is a credential (compared case-insensitively, `-`/`_` alike). */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(CREDENTIAL_PARAMETERS);

/** The token format (runtime/auth/token-secret.ts), also percent-encoded or cut short. */
const TOKEN_SHAPE = /whf_[0-9A-Za-z_%-]*/g;

export const REDACTED = '[REDACTED]';

function isCredentialName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // keep the raw name
  }
  return CREDENTIAL_PARAMS.has(name.trim().toLowerCase().replace(/-/g, '_'));
}

/**
 * Whether a parameter name can be a credential name at all: one of them, any case, `-` for `_`,
 * or anything percent- or plus-encoded or not ASCII (decoded and looked at closely by isCredentialName).
 * Saves the decode for the usual `$filter`, `$top`, ... names of every logged request.
 */
const MAYBE_CREDENTIAL = new RegExp(`^\\s*(?:${[...CREDENTIAL_PARAMS].map((n) => n.replace(/_/g, '[-_]')).join('|')})\\s*$|[%+]|[^\\x00-\\x7f]`, 'i');

export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash >= 0 ? url.slice(0, hash) : url;
  const q = withoutHash.indexOf('?');
  let out = withoutHash;
  if (q >= 0) {
    const pairs = withoutHash.slice(q + 1).split('&');
    let changed = false;
    for (let i = 0; i < pairs.length; i++) {
      const pair = pairs[i] as string;
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq);
      if (MAYBE_CREDENTIAL.test(name) && isCredentialName(name)) {
        pairs[i] = `${name}=${REDACTED}`;
        changed = true;
      }
    }
    if (changed) out = `${withoutHash.slice(0, q)}?${pairs.join('&')}`;
  }
  return out.includes('whf_') ? out.replace(TOKEN_SHAPE, REDACTED) : out;
}
