/**
 * Console single sign-on with the OpenID Connect provider of Auth:Jwt:Issuer (WebUi:Oidc:*),
 * authorization code flow with PKCE (openid-client). Routes under /ui/api (docs/console.md#single-sign-on):
 *   GET    /auth/oidc            {enabled, name, local_passwords} (no session; the sign-in page asks)
 *   GET    /auth/oidc/start      ?return=/ui/...  302 to the provider (no session)
 *   GET    /auth/oidc/callback   the provider's redirect: code exchanged, ID token verified (signature,
 *                                iss, aud, exp, nonce), then 302 to `return` with the session cookies
 *   GET    /auth/oidc/identity   {linked: [{issuer, subject, linked_at}]} of the signed-in account
 *   POST   /auth/oidc/identity   {return?} -> {url}: start linking the signed-in account (viewers too)
 *   DELETE /auth/oidc/identity   unlink it (viewers too) -> {ok:true}; 404 when none
 * The pending flow: `state` is a one-time value issued into the shared store (the sign-in CSRF
 * table: one use, 10 minutes, on whichever instance the provider sends the browser back to); the
 * state, nonce, PKCE verifier, return path and the account being linked ride in the HttpOnly,
 * SameSite=Lax cookie gateway_oidc (Path /ui/api/auth/oidc), cleared by the callback. `return` is a
 * path under /ui/ only (no open redirect).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { WharfError } from '../errors/wharf-error.js';
import { IdentityLinkedError } from './account-store.js';
import type { AccountRow } from './account-store.js';
import type { AccountService } from './accounts.js';
import { AccountRuleError } from './accounts.js';
import { startSession } from './auth-routes.js';
import type { AuthRouteOptions } from './auth-routes.js';
import type { ConsoleActor } from './console-access.js';
import { denied } from './console-access.js';
import { badRequest, conflict, notFound, objectBody } from './console-errors.js';
import { AUTH_COOKIE, OIDC_COOKIE, readCookies, setCookie } from './cookies.js';
import { randomPassword } from './password.js';
import { roleFromClaims } from './oidc-settings.js';
import { answerSignInError, providerUnreachable } from './sso-errors.js';
import type { ConsoleOidcSettings, SignInMethods } from './oidc-settings.js';

const FLOW_SECONDS = 600;
const COOKIE_PATH = '/ui/api/auth/oidc';
const CALLBACK = '/ui/api/auth/oidc/callback';
const USERNAME = /^[A-Za-z0-9._@-]{1,100}$/;

export interface OidcRouteOptions extends AuthRouteOptions {
  readonly methods: SignInMethods;
  readonly accounts: AccountService;
  readonly guard: (request: FastifyRequest) => Promise<ConsoleActor>;
}

interface PendingFlow {
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly returnTo: string;
  /** Account id being linked; null for a sign-in. */
  readonly link: number | null;
}

/** A path under /ui/ and nothing else: no scheme, no host, no `//`, no backslash, no control character. */
export function safeReturn(value: unknown, fallback: string): string {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !value.startsWith('/ui/') || value.includes('//') || /[\\\u0000-\u001f\u007f]/.test(value) || value.length > 500) {
    throw badRequest('return must be a path under /ui/', 'return');
  }
  return value;
}

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${String(request.headers.host ?? '')}`;
}

/** The callback URL registered at the provider: WebUi:Oidc:RedirectUri, else this request's origin (protocol and Host). */
function redirectUriOf(request: FastifyRequest, settings: ConsoleOidcSettings): string {
  return settings.redirectUri ?? originOf(request) + CALLBACK;
}

function isSecure(request: FastifyRequest, options: OidcRouteOptions): boolean {
  return request.protocol === 'https' || options.settings().secureCookies;
}

/** Discovery once per process (retried after a failure). */
function discoverer(settings: ConsoleOidcSettings): () => Promise<client.Configuration> {
  let pending: Promise<client.Configuration> | null = null;
  return () => {
    pending ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        settings.clientSecret === null ? client.None() : client.ClientSecretBasic(settings.clientSecret),
        { execute: settings.issuer.startsWith('http:') ? [client.allowInsecureRequests] : [], timeout: 10 },
      )
      .catch((error: unknown) => {
        pending = null;
        throw new WharfError('CONSOLE_SSO_UNAVAILABLE', {}, { cause: error });
      });
    return pending;
  };
}

function readFlow(request: FastifyRequest): PendingFlow | null {
  const raw = readCookies(request.headers.cookie).get(OIDC_COOKIE);
  if (!raw) return null;
  try {
    const flow = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as PendingFlow;
    return typeof flow.state === 'string' && typeof flow.nonce === 'string' && typeof flow.verifier === 'string' ? flow : null;
  } catch {
    return null;
  }
}

/** First sign-in of an identity linked to no account, with WebUi:Oidc:CreateAccounts. */
async function createAccount(accounts: AccountService, claims: Record<string, unknown>, role: 'administrator' | 'viewer'): Promise<AccountRow> {
  const preferred = claims['preferred_username'];
  const username = typeof preferred === 'string' && USERNAME.test(preferred) ? preferred : String(claims['sub']);
  if (!USERNAME.test(username)) throw denied('the identity has no usable username for a new console account');
  try {
    // a random password nobody knows: the account signs in through the provider (an administrator may set one)
    return await accounts.create(username, randomPassword(), role, false);
  } catch (error) {
    if (error instanceof AccountRuleError && error.kind === 'conflict') throw denied(`a console account named '${username}' exists but is not linked to this identity`);
    throw error;
  }
}

export function oidcRoutes(app: FastifyInstance, options: OidcRouteOptions): void {
  const settings = options.methods.oidc;
  app.get('/auth/oidc', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { enabled: settings !== null, name: settings?.displayName ?? null, local_passwords: options.methods.localPasswords };
  });
  if (settings === null) return;
  const configuration = discoverer(settings);

  /** The provider's authorization URL; the flow cookie on `reply`. */
  const begin = async (request: FastifyRequest, reply: FastifyReply, returnTo: string, link: number | null): Promise<string> => {
    const config = await configuration();
    const state = await options.sessions.issueCsrf(FLOW_SECONDS * 1000);
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const flow: PendingFlow = { state, nonce, verifier, returnTo, link };
    reply.header(
      'set-cookie',
      setCookie(OIDC_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
        httpOnly: true,
        secure: isSecure(request, options),
        maxAge: FLOW_SECONDS,
        sameSite: 'Lax',
        path: COOKIE_PATH,
      }),
    );
    reply.header('cache-control', 'no-store');
    return client
      .buildAuthorizationUrl(config, {
        redirect_uri: redirectUriOf(request, settings),
        scope: settings.scopes,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })
      .toString();
  };

  // a browser navigates to these two: their errors are a page for it (sso-errors.ts)
  app.get('/auth/oidc/start', { errorHandler: answerSignInError }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const url = await begin(request, reply, safeReturn(query['return'], '/ui/'), null);
    return reply.redirect(url, 302);
  });

  app.get('/auth/oidc/callback', { errorHandler: answerSignInError }, async (request, reply) => {
    const flow = readFlow(request);
    reply.header('set-cookie', setCookie(OIDC_COOKIE, '', { httpOnly: true, secure: isSecure(request, options), maxAge: 0, sameSite: 'Lax', path: COOKIE_PATH }));
    reply.header('cache-control', 'no-store');
    const query = request.query as Record<string, unknown>;
    const ip = request.wharfConsole?.clientIp;
    // the state must be the one of this browser's flow, issued by the gateway and not used yet
    if (!flow || query['state'] !== flow.state || !(await options.sessions.consumeCsrf(flow.state))) {
      request.log.warn({ ip }, 'console single sign-on: unknown, reused or foreign state');
      throw denied('single sign-on state missing, foreign, expired or already used (start again)');
    }
    const config = await configuration();
    let claims: Record<string, unknown>;
    try {
      // the provider's parameters on the registered callback URL (its redirect_uri goes to the token endpoint)
      const current = new URL(redirectUriOf(request, settings));
      current.search = new URL(request.url, 'http://callback').search;
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims()! };
    } catch (error) {
      // the provider down or failing (try again) is not the provider's answer refused (start again)
      const unreachable = providerUnreachable(error);
      request.log.warn({ ip, err: error }, unreachable ? 'console single sign-on: the provider cannot be reached' : 'console single sign-on failed');
      throw new WharfError(unreachable ? 'CONSOLE_SSO_UNAVAILABLE' : 'CONSOLE_SSO_FAILED', {}, { cause: error });
    }
    const issuer = String(claims['iss']);
    const subject = String(claims['sub']);
    if (flow.link !== null) {
      const session = await options.sessions.resolve(readCookies(request.headers.cookie).get(AUTH_COOKIE));
      if (!session || session.account.id !== flow.link) throw denied('linking needs the session that started it');
      try {
        await options.accounts.store.linkIdentity({ accountId: flow.link, issuer, subject, linkedAt: Date.now() });
      } catch (error) {
        if (error instanceof IdentityLinkedError) throw conflict(error.message);
        throw error;
      }
      request.log.info({ username: session.account.username, ip }, 'console single sign-on identity linked');
      return reply.redirect(flow.returnTo, 302);
    }
    const role = roleFromClaims(claims, settings);
    let account = await options.accounts.store.findByIdentity(issuer, subject);
    if (!account) {
      if (!settings.createAccounts) {
        request.log.warn({ ip, subject }, 'console single sign-on: no account linked to this identity');
        throw denied('no console account is linked to this identity');
      }
      account = await createAccount(options.accounts, claims, role);
      await options.accounts.store.linkIdentity({ accountId: account.id, issuer, subject, linkedAt: Date.now() });
    }
    if (account.disabled) throw denied('this console account is disabled');
    if (account.role !== role) {
      try {
        account = await options.accounts.setRole(account.username, role);
      } catch (error) {
        if (!(error instanceof AccountRuleError)) throw error;
        request.log.warn({ username: account.username }, `console single sign-on: role ${role} not applied (${error.message})`);
      }
    }
    account = (await options.accounts.store.update(account.id, { lastSignInAt: Date.now() }))!;
    if (account.mustChangePassword) throw denied('this account must first choose its password at a password sign-in');
    await startSession(request, reply, options, account);
    return reply.redirect(flow.returnTo, 302);
  });

  const own = async (request: FastifyRequest): Promise<AccountRow> => {
    const actor = await options.guard(request);
    if (actor.kind !== 'session' || actor.account === null || actor.account.id === 0) throw denied('only a signed-in console account has an identity to link');
    return actor.account;
  };

  app.get('/auth/oidc/identity', async (request, reply) => {
    const account = await own(request);
    reply.header('cache-control', 'no-store');
    const linked = await options.accounts.store.identitiesOf(account.id);
    return { linked: linked.map((row) => ({ issuer: row.issuer, subject: row.subject, linked_at: new Date(row.linkedAt).toISOString() })) };
  });

  app.post('/auth/oidc/identity', async (request, reply) => {
    const account = await own(request);
    const body = request.body === undefined || request.body === null ? {} : objectBody(request);
    const returnTo = safeReturn(body['return'], '/ui/#/account');
    if ((await options.accounts.store.identitiesOf(account.id)).some((row) => row.issuer === settings.issuer)) {
      throw conflict('this account is linked to an identity of this provider already (unlink it first)');
    }
    return { url: await begin(request, reply, returnTo, account.id) };
  });

  app.delete('/auth/oidc/identity', async (request) => {
    const account = await own(request);
    if (!(await options.accounts.store.unlinkIdentity(account.id, settings.issuer))) throw notFound('this account has no linked identity');
    request.log.info({ username: account.username }, 'console single sign-on identity unlinked');
    return { ok: true };
  });
}
