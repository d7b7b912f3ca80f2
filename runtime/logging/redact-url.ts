/**
 * URLs as they may be written to a log: the values of credential-looking query parameters and
 * anything shaped like a Wharf token (`whf_...`, anywhere in the URL) become `[REDACTED]`.
 * A token in the query string is refused by the gateway anyway; this keeps it out of the logs too.
 */

/** Query parameter names whose value is a credential (compared case-insensitively, `-`/`_` alike). */
const CREDENTIAL_PARAMS = new Set(['access_token', 'token', 'api_key', 'apikey', 'key', 'password', 'secret', 'client_secret', 'refresh_token', 'id_token', 'code', 'sig', 'signature']);

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

export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const withoutHash = hash >= 0 ? url.slice(0, hash) : url;
  const q = withoutHash.indexOf('?');
  let out = withoutHash;
  if (q >= 0) {
    const query = withoutHash
      .slice(q + 1)
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = eq >= 0 ? pair.slice(0, eq) : pair;
        return eq >= 0 && isCredentialName(name) ? `${name}=${REDACTED}` : pair;
      })
      .join('&');
    out = `${withoutHash.slice(0, q)}?${query}`;
  }
  return out.replace(TOKEN_SHAPE, REDACTED);
}
