import type { JWK } from 'jose';

export interface LocalIdpClient {
  readonly client_id: string;
  readonly client_secret: string;
  /** Scopes the client may ask for, space-separated. */
  readonly scope: string;
  /** Extra claims of every token of this client. */
  readonly claims?: Record<string, unknown>;
  /** A sign-in client (authorization code flow with PKCE) with these redirect URIs. */
  readonly redirect_uris?: readonly string[];
}

export interface LocalIdpUser {
  readonly preferred_username?: string;
  readonly roles?: readonly string[];
}

export interface LocalIdpOptions {
  readonly port?: number;
  readonly audience: string;
  readonly clients: readonly LocalIdpClient[];
  readonly scopes: readonly string[];
  readonly accessTokenTTL?: number;
  readonly alg?: 'RS256' | 'ES256' | 'EdDSA';
  /** Claims of the users of sign-in clients, by login (any login is accepted). */
  readonly users?: Readonly<Record<string, LocalIdpUser>>;
}

export interface LocalIdp {
  readonly issuer: string;
  /** The private signing keys, newest first. */
  readonly keys: readonly (JWK & { kid: string; alg: string })[];
  token(clientId: string, scope?: string): Promise<string>;
  rotate(keepOld?: boolean): Promise<JWK & { kid: string; alg: string }>;
  /** `METHOD /path` of every request received, oldest first. */
  readonly served: string[];
  setReachable(value: boolean | 'hang'): void;
  readonly reachable: boolean;
  close(): Promise<void>;
}

export function newSigningKey(alg?: string, kid?: string): Promise<JWK & { kid: string; alg: string }>;
export function startLocalIdp(options: LocalIdpOptions): Promise<LocalIdp>;
