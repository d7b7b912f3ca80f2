/**
 * Sign-in routes (no session needed; network rule and rate limit still apply):
 *   GET    /ui/api/auth/csrf      {csrf}; sets gateway_signin_csrf (HttpOnly, Path=/ui/api/auth; never
 *                                 gateway_csrf, which belongs to the session); one-time: a sign-in or
 *                                 password change consumes it (valid 1 hour)
 *   POST   /ui/api/auth           {username, password, csrf} -> {ok:true} + gateway_auth, gateway_csrf
 *                                 (must_change_password: {ok:false, must_change_password:true}, no cookies)
 *                                 {apiKey} when WebUi:AdminApiKey is set -> {ok:true, expires}
 *   POST   /ui/api/auth/password  {username, password, newPassword, csrf} -> {ok:true} + cookies
 *   DELETE /ui/api/auth           sign-out (session + CSRF; viewers too) -> {ok:true}, cookies cleared
 * With WebUi:LocalPasswords false the two password routes answer 403 (single sign-on: oidc-routes.ts).
 * Failed attempts are logged with username and IP, never the password.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';
import type { AccountRow } from './account-store.js';
import type { AccountService } from './accounts.js';
import { AccountRuleError } from './accounts.js';
import { consoleContext, denied } from './console-access.js';
import type { ConsoleGuardOptions } from './console-access.js';
import { badRequest, objectBody } from './console-errors.js';
import type { ConsoleSettings } from './console-settings.js';
import { AUTH_COOKIE, CSRF_COOKIE, SIGN_IN_CSRF_COOKIE, SIGN_IN_CSRF_PATH, readCookies, setCookie } from './cookies.js';
import { passwordProblem } from './password.js';
import { API_KEY_ACCOUNT } from './sessions.js';
import type { SessionService } from './sessions.js';
import type { SignInLimiter } from './sign-in-limiter.js';
import { sameSecret } from '../auth/same-secret.js';

export interface AuthRouteOptions extends ConsoleGuardOptions {
  readonly accounts: AccountService;
  readonly sessions: SessionService;
  readonly limiter: SignInLimiter;
  readonly settings: () => ConsoleSettings;
  readonly guard: (request: FastifyRequest) => Promise<unknown>;
  /** WebUi:LocalPasswords: false refuses the password routes (403; single sign-on only). */
  readonly localPasswords: boolean;
}

function refuseWhenPasswordsOff(options: AuthRouteOptions): void {
  if (!options.localPasswords) throw denied('password sign-in is turned off (WebUi:LocalPasswords); sign in with single sign-on');
}

type Body = Record<string, unknown>;

function text(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw badRequest(`${field} is required`, field);
  return value;
}

function secure(request: FastifyRequest, settings: ConsoleSettings): boolean {
  return request.protocol === 'https' || settings.secureCookies;
}

const CSRF_SECONDS = 3600;
/** Usernames are at most 100 characters (accounts.ts): a failed sign-in logs no more of what was sent. */
const MAX_LOGGED_USERNAME = 100;

const CSRF_REFUSED = 'missing, invalid or already used CSRF token (GET /ui/api/auth/csrf first)';

/**
 * Before sign-in, step 1: body `csrf` (or X-CSRF-Token) equal to the gateway_signin_csrf cookie
 * (double submit). A script that sends the value back as gateway_csrf (what GET /auth/csrf set
 * before) is accepted too: no response sets gateway_csrf to a sign-in value any more, so only the
 * client itself can have put it there.
 */
function signInCsrf(request: FastifyRequest, body: Body): string {
  const sent = typeof body['csrf'] === 'string' ? body['csrf'] : request.headers['x-csrf-token'];
  const cookies = readCookies(request.headers.cookie);
  if (typeof sent !== 'string' || sent === '' || (sent !== cookies.get(SIGN_IN_CSRF_COOKIE) && sent !== cookies.get(CSRF_COOKIE))) throw denied(CSRF_REFUSED);
  return sent;
}

/**
 * Step 2, once the input is well-formed and before the password is checked: the value must be one
 * GET /ui/api/auth/csrf issued and nobody used yet. It is consumed here, in the store the sessions
 * live in, so it serves one attempt across every instance sharing that store.
 */
async function consumeSignInCsrf(value: string, sessions: SessionService): Promise<void> {
  if (!(await sessions.consumeCsrf(value))) throw denied(CSRF_REFUSED);
}

/** Sets gateway_auth and gateway_csrf for `account`: password, API key and single sign-on alike. */
export async function startSession(request: FastifyRequest, reply: FastifyReply, options: AuthRouteOptions, account: AccountRow) {
  const session = await options.sessions.create(account);
  const settings = options.settings();
  const maxAge = Math.floor(options.sessions.lifetimeMs / 1000);
  reply.header('set-cookie', [
    setCookie(AUTH_COOKIE, session.id, { httpOnly: true, secure: secure(request, settings), maxAge }),
    setCookie(CSRF_COOKIE, session.row.csrf, { httpOnly: false, secure: secure(request, settings), maxAge }),
  ]);
  request.log.info({ username: account.username, ip: consoleContext(request, options.access).clientIp }, 'console sign-in');
  return session;
}

async function checkPassword(request: FastifyRequest, options: AuthRouteOptions, username: string, password: string): Promise<AccountRow> {
  const ip = consoleContext(request, options.access).clientIp;
  const wait = await options.limiter.hit(ip);
  if (wait !== null) throw new WharfError('CONSOLE_SIGN_IN_RATE_LIMITED', { seconds: wait }, { headers: { 'Retry-After': String(wait) } });
  const result = await options.accounts.signIn(username, password);
  if (result.ok) return result.account;
  // as given, but cut: a 10 MB username per attempt was kept whole in the log (and the console's log ring)
  const shown = username.length > MAX_LOGGED_USERNAME ? `${username.slice(0, MAX_LOGGED_USERNAME)}…` : username;
  request.log.warn({ username: shown, ip, reason: result.reason }, 'console sign-in failed');
  if (result.reason === 'locked') {
    const seconds = result.retryAfterSeconds;
    throw new WharfError('CONSOLE_ACCOUNT_LOCKED', { seconds }, { headers: { 'Retry-After': String(seconds) } });
  }
  throw new WharfError('CONSOLE_SIGN_IN_FAILED');
}

export function authRoutes(app: FastifyInstance, options: AuthRouteOptions): void {
  app.get('/auth/csrf', async (request, reply) => {
    const csrf = await options.sessions.issueCsrf(CSRF_SECONDS * 1000);
    const cookie = { httpOnly: true, secure: secure(request, options.settings()), maxAge: CSRF_SECONDS, path: SIGN_IN_CSRF_PATH };
    reply.header('set-cookie', setCookie(SIGN_IN_CSRF_COOKIE, csrf, cookie));
    reply.header('cache-control', 'no-store');
    return { csrf };
  });

  app.post('/auth', async (request, reply) => {
    const body = objectBody(request);
    if (body['apiKey'] !== undefined) {
      const key = options.settings().adminApiKey;
      const ip = consoleContext(request, options.access).clientIp;
      const wait = await options.limiter.hit(ip);
      if (wait !== null) throw new WharfError('CONSOLE_SIGN_IN_RATE_LIMITED', { seconds: wait }, { headers: { 'Retry-After': String(wait) } });
      if (key === null || typeof body['apiKey'] !== 'string' || !sameSecret(body['apiKey'], key)) {
        request.log.warn({ ip }, 'console sign-in with an API key failed');
        throw new WharfError('CONSOLE_SIGN_IN_FAILED');
      }
      const session = await startSession(request, reply, options, API_KEY_ACCOUNT);
      return { ok: true, expires: new Date(session.row.expiresAt).toISOString() };
    }
    refuseWhenPasswordsOff(options);
    const csrf = signInCsrf(request, body);
    const username = text(body, 'username');
    const password = text(body, 'password');
    await consumeSignInCsrf(csrf, options.sessions);
    const account = await checkPassword(request, options, username, password);
    if (account.mustChangePassword) return { ok: false, must_change_password: true };
    await startSession(request, reply, options, account);
    return { ok: true };
  });

  app.post('/auth/password', async (request, reply) => {
    refuseWhenPasswordsOff(options);
    const body = objectBody(request);
    const csrf = signInCsrf(request, body);
    const username = text(body, 'username');
    const current = text(body, 'password');
    const next = body['newPassword'];
    const problem = passwordProblem(next);
    if (problem) throw badRequest(problem, 'newPassword');
    if (next === current) throw badRequest('The new password must differ from the current one', 'newPassword');
    await consumeSignInCsrf(csrf, options.sessions);
    const account = await checkPassword(request, options, username, current);
    try {
      const updated = await options.accounts.setPassword(account.username, next as string, false);
      await startSession(request, reply, options, updated);
    } catch (error) {
      if (error instanceof AccountRuleError) throw badRequest(error.message, 'newPassword');
      throw error;
    }
    return { ok: true };
  });

  app.delete('/auth', { preHandler: options.guard }, async (request, reply) => {
    await options.sessions.end(readCookies(request.headers.cookie).get(AUTH_COOKIE));
    const settings = options.settings();
    reply.header('set-cookie', [
      setCookie(AUTH_COOKIE, '', { httpOnly: true, secure: secure(request, settings), maxAge: 0 }),
      setCookie(CSRF_COOKIE, '', { httpOnly: false, secure: secure(request, settings), maxAge: 0 }),
    ]);
    return { ok: true };
  });
}
