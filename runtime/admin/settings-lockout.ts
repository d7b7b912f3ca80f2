/**
 * Anti-lockout of PUT /ui/api/settings: a change that would cut this very caller off the console is
 * refused with 400 naming the key and why; nothing is saved. Refused:
 *   - WebUi:PublicOrigins leaving out the origin of this request (from outside the local networks);
 *   - ForwardedHeaders:KnownProxies / KnownNetworks no longer trusting the proxy this request came
 *     through (the other list as the next start has it: saved earlier and pending, else in force);
 *   - WebUi:SecureCookies true while this request was made over plain HTTP (its Origin, else the
 *     connection's scheme) to a host other than loopback: the browser would never send the session
 *     cookies back (browsers treat http://localhost and 127.0.0.1 as secure, and keep them there);
 *   - a RateLimiting:* change (Enabled, IpLimit, IpWindow) leaving the console's own per-IP budget
 *     below CONSOLE_MIN_REQUESTS requests per window and per minute (each key as the next start has it).
 */
import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { getByPath } from '../settings/overrides-file.js';
import type { ConsoleGateway } from './console-gateway.js';
import { consoleReachable, requestOrigin } from './console-access.js';
import { badRequest } from './console-errors.js';

/** The fewest requests per window, and per minute, the console needs of RateLimiting:IpLimit: one page load sends about 10. */
export const CONSOLE_MIN_REQUESTS = 30;

export interface LockoutOptions {
  readonly gateway: Pick<ConsoleGateway, 'access'>;
}

const lockedOut = (key: string, why: string) => badRequest(`Saving '${key}' would lock you out of the console: ${why}`, key);

/** Would the TCP peer of this request still be a trusted proxy under the new lists? */
function stillTrusted(remote: string, proxies: readonly string[], networks: readonly string[]): boolean {
  const list = new BlockList();
  const normalized = remote.replace(/^::ffff:/, '');
  for (const proxy of proxies) {
    const family = isIP(proxy);
    if (family) list.addAddress(proxy, family === 4 ? 'ipv4' : 'ipv6');
  }
  for (const network of networks) {
    const [base = '', bits = ''] = network.split('/');
    const family = isIP(base);
    if (family) list.addSubnet(base, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  const family = isIP(normalized);
  return family !== 0 && list.check(normalized, family === 4 ? 'ipv4' : 'ipv6');
}

/** A key's value as the next start has it: given now, else saved earlier and pending, else in force. */
function nextValue<T>(values: Map<string, unknown>, saved: Record<string, unknown>, key: string, inForce: T): T {
  if (values.has(key)) return values.get(key) as T;
  const pending = getByPath(saved, key);
  return pending.found && pending.value !== null && typeof pending.value === typeof inForce ? (pending.value as T) : inForce;
}

function checkProxies(request: FastifyRequest, options: LockoutOptions, values: Map<string, unknown>, saved: Record<string, unknown>): void {
  const client = request.wharfConsole!.client;
  const forwarded = options.gateway.access.settings.forwardedHeaders;
  for (const key of ['ForwardedHeaders:KnownProxies', 'ForwardedHeaders:KnownNetworks'] as const) {
    if (!values.has(key) || !client.forwarded) continue;
    const list = (name: string, inForce: readonly string[]): readonly string[] => {
      const pending = getByPath(saved, name);
      return (values.get(name) as string[] | undefined) ?? (pending.found && Array.isArray(pending.value) ? (pending.value as string[]) : inForce);
    };
    const proxies = list('ForwardedHeaders:KnownProxies', forwarded.knownProxies);
    const networks = list('ForwardedHeaders:KnownNetworks', forwarded.knownNetworks);
    if (!stillTrusted(client.remoteAddress, proxies, networks)) {
      throw lockedOut(key, `your request arrives through the proxy ${client.remoteAddress}, which would no longer be trusted`);
    }
  }
}

function checkRateLimit(options: LockoutOptions, values: Map<string, unknown>, saved: Record<string, unknown>): void {
  const keys = ['RateLimiting:IpLimit', 'RateLimiting:IpWindow', 'RateLimiting:Enabled'];
  const key = keys.find((name) => values.has(name));
  if (key === undefined) return;
  const inForce = options.gateway.access.settings.rateLimiting;
  const enabled = nextValue(values, saved, 'RateLimiting:Enabled', inForce.enabled);
  const limit = nextValue(values, saved, 'RateLimiting:IpLimit', inForce.ipLimit);
  const window = nextValue(values, saved, 'RateLimiting:IpWindow', inForce.ipWindowSeconds);
  if (!enabled || (limit >= CONSOLE_MIN_REQUESTS && (limit * 60) / window >= CONSOLE_MIN_REQUESTS)) return;
  throw lockedOut(
    key,
    `the console counts against the per-IP budget, and ${limit} requests per ${window} seconds is below the ${CONSOLE_MIN_REQUESTS} per window and per minute it needs`,
  );
}

/** Would a browser on `origin` keep and send back a Secure cookie? HTTPS, or a loopback host (a "potentially trustworthy" origin). */
function secureForCookies(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** Throws the 400 for the first change that would lock this caller out; `saved`: the overrides saved now. */
export function checkLockout(request: FastifyRequest, options: LockoutOptions, values: Map<string, unknown>, saved: Record<string, unknown>): void {
  const client = request.wharfConsole!.client;
  const origin = requestOrigin(request);
  const origins = values.get('WebUi:PublicOrigins') as string[] | undefined;
  if (origins !== undefined && !consoleReachable(client, origin, origins)) {
    throw lockedOut('WebUi:PublicOrigins', `this request comes from ${origin}, which is not in the new list`);
  }
  checkProxies(request, options, values, saved);
  if (values.get('WebUi:SecureCookies') === true && !secureForCookies(origin)) {
    throw lockedOut('WebUi:SecureCookies', `this request comes over plain HTTP (${origin}), and a browser never sends a Secure cookie back over HTTP`);
  }
  checkRateLimit(options, values, saved);
}
