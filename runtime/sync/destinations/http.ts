/**
 * HTTP destination: each batch is POSTed as JSON (gzip with EnableCompression). Auth: Bearer,
 * Basic, API key header, or OAuth2 client credentials (token fetched from TokenUrl, cached until
 * shortly before it expires, fetched again after a 401). Any non-2xx answer is a failure.
 * `X-Wharf-Batch-Id` (environment/object/fromVersion-toVersion) lets the receiver de-duplicate.
 * TimeoutSeconds bounds each whole exchange (connect, send, headers, body), not only the idle gaps:
 * a receiver trickling its answer a byte at a time fails the delivery like one that never answers.
 */
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import type { HttpAuth, HttpDestination } from '../config/model.js';
import { batchJson, batchVersionId, type Batch } from './batch.js';
import type { SyncDestination } from './destination.js';

interface CachedToken {
  readonly value: string;
  readonly expiresAt: number;
}

/** Most bytes of a receiver's answer read (then dropped) before the connection is closed instead (undici's default). */
const MAX_DRAINED_RESPONSE_BYTES = 128 * 1024;
/** Most bytes of a token endpoint's answer read (a token answer is a few hundred bytes). */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

async function fetchToken(auth: Extract<HttpAuth, { type: 'OAuth2ClientCredentials' }>, timeoutMs: number): Promise<CachedToken> {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: auth.clientId, client_secret: auth.clientSecret });
  if (auth.scope) form.set('scope', auth.scope);
  const response = await request(auth.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.statusCode < 200 || response.statusCode >= 300) {
    await response.body.dump();
    throw new Error(`OAuth2 token endpoint answered ${response.statusCode}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TOKEN_RESPONSE_BYTES) {
      response.body.destroy();
      throw new Error(`OAuth2 token endpoint answer exceeds ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  let json: { access_token?: unknown; expires_in?: unknown };
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof json;
  } catch {
    // Not the parser's message: it quotes the start of the answer, which may hold a secret.
    throw new Error('OAuth2 token endpoint answered no JSON');
  }
  if (typeof json.access_token !== 'string') throw new Error('OAuth2 token endpoint returned no access_token');
  const lifetime = typeof json.expires_in === 'number' ? json.expires_in : 3600;
  return { value: json.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 30) * 1000 };
}

/**
 * An environment (folder) name as a header value: `%` and everything outside printable ASCII
 * percent-encoded as UTF-8 (a folder named in another script made every delivery fail: the
 * HTTP client refuses such header values). Printable ASCII names are unchanged.
 */
function headerSafe(name: string): string {
  return name.replace(/[^\x20-\x24\x26-\x7e]+/gu, (run) => encodeURIComponent(run));
}

export function createHttpDestination(config: HttpDestination): SyncDestination {
  const timeoutMs = config.timeoutSeconds * 1000;
  let token: CachedToken | null = null;

  async function authHeaders(): Promise<Record<string, string>> {
    const auth = config.auth;
    switch (auth.type) {
      case 'Bearer':
        return { authorization: `Bearer ${auth.token}` };
      case 'Basic':
        return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}` };
      case 'ApiKey':
        return { [auth.header.toLowerCase()]: auth.key };
      case 'OAuth2ClientCredentials':
        if (!token || token.expiresAt <= Date.now()) token = await fetchToken(auth, timeoutMs);
        return { authorization: `Bearer ${token.value}` };
      default:
        return {};
    }
  }

  return {
    key: config.key,
    type: 'Http',
    async deliver(batch: Batch) {
      const json = Buffer.from(batchJson(batch));
      const body = config.compression ? gzipSync(json) : json;
      const headers: Record<string, string> = {
        ...Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k.toLowerCase(), v])),
        'content-type': 'application/json',
        'x-wharf-batch-id': `${headerSafe(batch.environment)}/${batch.object}/${batch.fromVersion}-${batchVersionId(batch)}`,
        ...(config.compression ? { 'content-encoding': 'gzip' } : {}),
        ...(await authHeaders()),
      };
      const signal = AbortSignal.timeout(timeoutMs);
      const response = await request(config.url, { method: 'POST', headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal });
      await response.body.dump({ limit: MAX_DRAINED_RESPONSE_BYTES, signal });
      if (response.statusCode === 401 && config.auth.type === 'OAuth2ClientCredentials') token = null;
      if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode} from ${new URL(config.url).host}`);
    },
    async close() {},
  };
}
