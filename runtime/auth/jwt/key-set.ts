/**
 * The provider's signing keys (JWKS), cached, for jose's jwtVerify:
 *  - first use: discovery (`<issuer>/.well-known/openid-configuration` → jwks_uri) unless Auth:Jwt:JwksUrl, then the keys;
 *  - keys older than Auth:Jwt:KeysRefreshSeconds are fetched again in the background while the cached ones keep serving;
 *  - a token naming an unknown `kid` fetches the keys once (key rotation), at most once per cooldown;
 *  - every fetch waits at most Auth:Jwt:KeysTimeoutMs and reads at most MAX_DOCUMENT_BYTES (an endless or
 *    huge body is cut there, not buffered until the deadline); a failed fetch keeps the cached keys (outage: no stall).
 * No keys at all (the provider was never reachable): JwksUnavailable, answered 503; at once (no new
 * fetch) within COLD_RETRY_MS of a failed attempt.
 */
import { createPublicKey } from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { createLocalJWKSet, errors } from 'jose';
import type { JSONWebKeySet, JWTHeaderParameters, FlattenedJWSInput } from 'jose';

/**
 * The `kid`s (`#<index>` without one) of published signing keys no token can be verified with:
 * malformed, or RSA under 2048 bits (jose refuses those when verifying). `enc` and `oct` keys are
 * never used for JWTs here and are not counted. For /health/details.
 */
export function unusableKeys(jwks: JSONWebKeySet): string[] {
  const out: string[] = [];
  jwks.keys.forEach((jwk, index) => {
    if (jwk === null || typeof jwk !== 'object' || jwk.use === 'enc' || jwk.kty === 'oct') return;
    const name = typeof jwk.kid === 'string' ? jwk.kid : `#${index}`;
    try {
      const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
      if (key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) out.push(name);
    } catch {
      out.push(name);
    }
  });
  return out;
}

/** Least time between two fetches while no keys were ever fetched (the 503's Retry-After is 5 s). */
export const COLD_RETRY_MS = 5_000;

export class JwksUnavailable extends Error {
  override readonly name = 'JwksUnavailable';
}

export interface KeySetOptions {
  readonly issuer: string;
  readonly jwksUrl: string | null;
  readonly refreshMs: number;
  readonly timeoutMs: number;
  /** Least time between two fetches caused by unknown kids. Default 30 s. */
  readonly cooldownMs?: number;
  readonly now?: () => number;
  readonly onError?: (message: string, error: unknown) => void;
}

type LocalSet = ReturnType<typeof createLocalJWKSet>;

/** Largest discovery document or key set read (real ones are a few KiB; a JWKS of 100 RSA keys is about 50 KiB). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]);
  const response = await fetch(url, { signal, redirect: 'error', headers: { accept: 'application/json' } });
  if (response.status !== 200) {
    controller.abort();
    throw new Error(`GET ${url} answered ${response.status}`);
  }
  const tooLarge = (): Error => {
    controller.abort();
    return new Error(`GET ${url} answered more than ${MAX_DOCUMENT_BYTES} bytes`);
  };
  if (Number(response.headers.get('content-length') ?? 0) > MAX_DOCUMENT_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const body = response.body;
  if (body !== null) {
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > MAX_DOCUMENT_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export class RemoteKeySet {
  private local: LocalSet | null = null;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private pending: Promise<void> | null = null;
  private keyCount = 0;
  private unusable: readonly string[] = [];
  private jwksUrl: string | null;
  private readonly now: () => number;
  private readonly cooldownMs: number;
  /** Grows with every key set fetched: results verified with an older set are not reused (jwt-verifier.ts). */
  generation = 0;

  constructor(private readonly options: KeySetOptions) {
    this.jwksUrl = options.jwksUrl;
    this.now = options.now ?? Date.now;
    this.cooldownMs = options.cooldownMs ?? 30_000;
  }

  /** The key resolver for jwtVerify. */
  readonly resolve = async (header: JWTHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    if (this.local === null) await this.coldRefresh();
    else this.refreshIfDue();
    const local = this.local;
    if (local === null) throw new JwksUnavailable('The provider keys could not be fetched');
    try {
      return await local(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || this.now() - this.lastAttempt < this.cooldownMs) throw error;
      await this.refresh().catch(() => undefined);
      return (this.local ?? local)(header, token);
    }
  };

  /**
   * Keys older than Auth:Jwt:KeysRefreshSeconds: fetched again in the background (the cached ones
   * keep serving). Called for every JWT, remembered ones included (jwt-verifier.ts), so a key the
   * provider withdrew stops verifying once due even for a caller that repeats one token.
   */
  refreshIfDue(): void {
    if (this.local !== null && this.now() - this.fetchedAt >= this.options.refreshMs) void this.refresh().catch(() => undefined);
  }

  /** How many keys are cached, which of them cannot verify (unusableKeys), and when they were fetched (null: never). */
  get cached(): { readonly keys: number; readonly unusable: readonly string[]; readonly fetchedAt: number | null } {
    return { keys: this.keyCount, unusable: this.unusable, fetchedAt: this.local === null ? null : this.fetchedAt };
  }

  /**
   * Whether the provider answers with a key set now (health check): without cached keys a full
   * refresh (so a provider back after an outage makes JWTs verifiable again at once); with them a
   * fetch of the key set only, which replaces nothing (the verified-token cache stays valid).
   * Throws what went wrong; waits at most Auth:Jwt:KeysTimeoutMs per request.
   */
  async probe(): Promise<void> {
    if (this.local === null) {
      await this.refresh();
      return;
    }
    await this.fetchKeySet();
  }

  /**
   * No keys yet: join a fetch under way, or start one, but not again within COLD_RETRY_MS of a
   * failed one: while the provider is down since start, a JWT gets its 503 at once instead of each
   * waiting up to Auth:Jwt:KeysTimeoutMs (twice, with discovery). The health check's probe still
   * fetches at every run, so keys are loaded as soon as the provider answers.
   */
  private coldRefresh(): Promise<void> {
    if (this.pending === null && this.now() - this.lastAttempt < COLD_RETRY_MS) {
      return Promise.reject(new JwksUnavailable('The provider keys could not be fetched (the last attempt failed just now)'));
    }
    return this.refresh();
  }

  /** One fetch at a time; failures keep the keys already cached. */
  refresh(): Promise<void> {
    this.pending ??= this.load().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async load(): Promise<void> {
    this.lastAttempt = this.now();
    try {
      const jwks = await this.fetchKeySet();
      this.local = createLocalJWKSet(jwks);
      this.keyCount = jwks.keys.length;
      this.unusable = unusableKeys(jwks);
      this.fetchedAt = this.now();
      this.generation += 1;
    } catch (error) {
      this.options.onError?.('JWT: fetching the provider keys failed (cached keys stay in use)', error);
      if (this.local === null) throw new JwksUnavailable('The provider keys could not be fetched', { cause: error });
    }
  }

  /** The provider's key set (discovering its URL the first time), each request within timeoutMs. */
  private async fetchKeySet(): Promise<JSONWebKeySet> {
    const url = this.jwksUrl ?? (this.jwksUrl = await this.discover());
    const jwks = (await fetchJson(url, this.options.timeoutMs)) as JSONWebKeySet;
    if (!jwks || !Array.isArray(jwks.keys)) throw new Error(`${url} is not a JSON Web Key Set`);
    return jwks;
  }

  private async discover(): Promise<string> {
    const base = this.options.issuer.replace(/\/+$/, '');
    const document = (await fetchJson(`${base}/.well-known/openid-configuration`, this.options.timeoutMs)) as { jwks_uri?: unknown };
    if (typeof document?.jwks_uri !== 'string') throw new Error('the openid-configuration has no jwks_uri');
    return document.jwks_uri;
  }
}
