/**
 * A real OpenID provider on loopback for the JWT tests (scripts/idp/local-idp.mjs, `oidc-provider`),
 * plus signing helpers for the tokens a provider would never issue (expired, wrong audience,
 * `alg: none`, HS256 with the public key as secret, ...), signed with the provider's own key
 * unless said otherwise. Always close() it in afterAll.
 */
import { SignJWT, importJWK, exportSPKI } from 'jose';
import type { JWK, JWTPayload } from 'jose';
import { newSigningKey, startLocalIdp } from '../../scripts/idp/local-idp.mjs';
import type { LocalIdp, LocalIdpOptions } from '../../scripts/idp/local-idp.mjs';

export type { LocalIdp };
export { newSigningKey };

export function startOidcProvider(options: LocalIdpOptions): Promise<LocalIdp> {
  return startLocalIdp(options);
}

/** A token signed with `key` (default: the provider's current key). `payload` replaces the defaults it names. */
export async function signToken(
  idp: LocalIdp,
  audience: string,
  payload: JWTPayload,
  key: JWK & { kid: string; alg: string } = idp.keys[0]!,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { iss: idp.issuer, aud: audience, sub: 'signed-by-test', iat: now, exp: now + 300, ...payload };
  for (const [name, value] of Object.entries(claims)) if (value === undefined) delete claims[name];
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'at+jwt' }).sign(await importJWK(key, key.alg));
}

function base64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** `alg: none`: header and payload, empty signature. */
export function unsignedToken(idp: LocalIdp, audience: string, payload: JWTPayload = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'none', kid: idp.keys[0]!.kid, typ: 'JWT' };
  return `${base64url(header)}.${base64url({ iss: idp.issuer, aud: audience, sub: 'none', exp: now + 300, scope: 'read', ...payload })}.`;
}

/** The classic confusion: HS256 with the provider's PUBLIC key (PEM) as the HMAC secret, its kid in the header. */
export async function hmacWithPublicKey(idp: LocalIdp, audience: string, payload: JWTPayload = {}): Promise<string> {
  const key = idp.keys[0]!;
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = key;
  const pem = await exportSPKI((await importJWK(publicJwk, key.alg)) as CryptoKey);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: idp.issuer, aud: audience, sub: 'hmac', exp: now + 300, scope: 'read', ...payload })
    .setProtectedHeader({ alg: 'HS256', kid: key.kid })
    .sign(new TextEncoder().encode(pem));
}
