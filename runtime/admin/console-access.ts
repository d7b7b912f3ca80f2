/**
 * Who may use the console, checked before every /ui/api route (docs/console-api.md):
 *   network  a client outside loopback / private networks only through an origin in WebUi:PublicOrigins (403)
 *   rate     the IP budget of RateLimiting:* on its own counter `ui:<ip>` (429)
 *   identity the gateway_auth session cookie, or `Authorization: Bearer <token>` (401); a token must have
 *            scope `*` AND environments `*` (403 otherwise): console actions (tokens, settings,
 *            environments, logs) are not limited to an environment, so an environment-limited
 *            token gets nothing there and so can never mint or widen a token beyond its own reach
 *   CSRF     POST/PUT/PATCH/DELETE with a session: X-CSRF-Token = gateway_csrf cookie = the session's value (403)
 *   role     viewer: 403 on POST/PUT/PATCH/DELETE (sign-out and linking/unlinking one's own single
 *            sign-on identity excepted)
 * The account is re-read on every request (sessions.ts).
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/authorize.js';
import { WharfError } from '../errors/wharf-error.js';
import type { ClientAddress } from '../traffic/client-ip.js';
import type { AccountRow, Role } from './account-store.js';
import type { ConsoleAccess } from './console-gateway.js';
import { AUTH_COOKIE, CSRF_COOKIE, readCookies } from './cookies.js';
import type { SessionService } from './sessions.js';
import { sameSecret } from '../auth/same-secret.js';

export interface ConsoleActor {
  /** `session` for a signed-in account (or the admin API key), `token` for a bearer token. */
  readonly kind: 'session' | 'token';
  readonly username: string;
  readonly role: Role;
  readonly account: AccountRow | null;
  readonly sessionCsrf: string | null;
}

export interface ConsoleRequestContext {
  readonly client: ClientAddress;
  readonly clientIp: string;
  actor: ConsoleActor | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    wharfConsole: ConsoleRequestContext | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const LOCAL = new BlockList();
for (const [net, prefix] of [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], ['127.0.0.0', 8], ['169.254.0.0', 16]] as const) {
  LOCAL.addSubnet(net, prefix, 'ipv4');
}
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

export function isLocalAddress(ip: string): boolean {
  const family = isIP(ip);
  return family !== 0 && LOCAL.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** The origin a request was made from: its Origin header, else scheme://Host. */
export function requestOrigin(request: FastifyRequest): string {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '' && origin !== 'null') return origin.toLowerCase();
  return `${request.protocol}://${String(request.headers.host ?? '')}`.toLowerCase();
}

/** Whether the console answers this client at all (network rule). */
export function consoleReachable(client: ClientAddress, origin: string, publicOrigins: readonly string[]): boolean {
  return isLocalAddress(client.ip) || publicOrigins.some((allowed) => allowed.toLowerCase() === origin);
}

export function denied(reason: string): WharfError {
  return new WharfError('CONSOLE_ACCESS_DENIED', { reason });
}

export function consoleContext(request: FastifyRequest, access: Pick<ConsoleAccess, 'control'>): ConsoleRequestContext {
  if (request.wharfConsole) return request.wharfConsole;
  const client = access.control.clientIp.resolve(request.raw.socket.remoteAddress, request.headers['x-forwarded-for']);
  request.wharfConsole = { client, clientIp: client.ip, actor: null };
  return request.wharfConsole;
}

export interface ConsoleGuardOptions {
  readonly access: Pick<ConsoleAccess, 'control'>;
  readonly sessions: SessionService;
  readonly publicOrigins: () => readonly string[];
}

/** Network rule and rate limit: every /ui/api request, sign-in routes included. */
export async function admitConsoleRequest(request: FastifyRequest, options: ConsoleGuardOptions): Promise<ConsoleRequestContext> {
  const context = consoleContext(request, options.access);
  if (!consoleReachable(context.client, requestOrigin(request), options.publicOrigins())) {
    throw denied('the console is reachable from local networks and WebUi:PublicOrigins only');
  }
  const limiter = options.access.control.limiter;
  if (limiter?.enabled) {
    const decision = await limiter.check('ip', `ui:${context.clientIp}`);
    if (!decision.allowed) throw limiter.exceeded(decision);
  }
  return context;
}

/** Identity, CSRF and role: every /ui/api route except the sign-in routes. */
export async function requireConsoleActor(request: FastifyRequest, options: ConsoleGuardOptions): Promise<ConsoleActor> {
  const context = consoleContext(request, options.access);
  const actor = await identify(request, options);
  if (!actor) throw new WharfError('CONSOLE_UNAUTHORIZED');
  context.actor = actor;
  if (!UNSAFE.has(request.method)) return actor;
  if (actor.kind === 'session') {
    const header = request.headers['x-csrf-token'];
    const cookie = readCookies(request.headers.cookie).get(CSRF_COOKIE);
    if (typeof header !== 'string' || header === '' || cookie === undefined || actor.sessionCsrf === null || !sameSecret(header, cookie) || !sameSecret(header, actor.sessionCsrf)) {
      throw denied('missing or invalid X-CSRF-Token');
    }
  }
  const signOut = request.method === 'DELETE' && request.routeOptions.url === '/ui/api/auth';
  const ownIdentity = request.routeOptions.url === '/ui/api/auth/oidc/identity';
  if (actor.role === 'viewer' && !signOut && !ownIdentity) throw denied('the viewer role cannot change anything');
  return actor;
}

async function identify(request: FastifyRequest, options: ConsoleGuardOptions): Promise<ConsoleActor | null> {
  const token = bearerToken(request.headers.authorization);
  if (token !== null) {
    const verification = await options.access.control.tokens.verify(token);
    if (!verification.ok) return null;
    const { scopes, environments } = verification.principal;
    if (!scopes.all || !environments.all) throw denied('console routes need a token with scope * and environments *');
    return { kind: 'token', username: verification.principal.username, role: 'administrator', account: null, sessionCsrf: null };
  }
  const session = await options.sessions.resolve(readCookies(request.headers.cookie).get(AUTH_COOKIE));
  if (!session) return null;
  return {
    kind: 'session',
    username: session.account.username,
    role: session.account.role,
    account: session.account,
    sessionCsrf: session.row.csrf,
  };
}
