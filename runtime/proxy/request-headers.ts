/**
 * The headers an upstream receives: the client's, minus hop-by-hop headers (and those named in
 * Connection), Host, Content-Length (recomputed by the client library), Expect (Wharf already has
 * the whole body), `Proxy` (httpoxy: CGI-style upstreams read it as HTTP_PROXY), any
 * client-supplied forwarding or client-address header in any spelling (`X_Forwarded_For`,
 * `True-Client-IP`, `CF-Connecting-IP`, ...: they would let a caller forge its address), the
 * client's Authorization (it is the gateway's token; Portway leaks it upstream, we never do) and
 * the gateway's cookies (proxy-cookies.ts). Then the gateway's own forwarding headers, the request
 * id, the endpoint's Content-Type/Accept and the environment's Headers (upstream credentials come
 * from settings, never from the client).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { downstreamSetCookie, upstreamCookie } from './proxy-cookies.js';
import { memoByText } from '../lifecycle/text-memo.js';

/** RFC 9110 §7.6.1 connection-specific headers: never cross the proxy in either direction. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade']);

/**
 * Client headers the gateway replaces or withholds (never forwarded as the client sent them),
 * compared after `_` became `-` (many servers and CGI treat both alike).
 */
const CLIENT_ONLY = new Set([
  'host', 'content-length', 'authorization', 'expect', 'cookie',
  // httpoxy (CVE-2016-5385): a `Proxy` header becomes HTTP_PROXY in CGI-style upstreams
  'proxy',
  // client addresses as proxies and CDNs spell them; only the gateway's X-Forwarded-For is sent
  'forwarded', 'x-real-ip', 'true-client-ip', 'cf-connecting-ip', 'x-client-ip', 'client-ip',
  'x-cluster-client-ip', 'fastly-client-ip', 'x-originating-ip', 'x-original-forwarded-for',
]);

const NONE_LISTED: ReadonlySet<string> = new Set();

/** The names a Connection header text lists, one (read-only) set per text: clients send the same few (`keep-alive`). */
const listedIn = memoByText(
  (text): ReadonlySet<string> => new Set(text.split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '')),
  64,
);

/** Header names listed in a Connection header (lower case); one shared empty set without one. */
export function connectionListed(connection: string | string[] | undefined): ReadonlySet<string> {
  if (connection === undefined) return NONE_LISTED;
  return listedIn(Array.isArray(connection) ? connection.join(',') : connection);
}

/** True for a hop-by-hop header (fixed list, `Proxy-*`, or named in Connection). */
export function isHopByHop(name: string, listed: ReadonlySet<string>): boolean {
  return HOP_BY_HOP.has(name) || name.startsWith('proxy-') || listed.has(name);
}

function isClientOnly(name: string): boolean {
  const canonical = name.includes('_') ? name.replaceAll('_', '-') : name;
  return CLIENT_ONLY.has(canonical) || canonical.startsWith('x-forwarded-') || canonical.startsWith('proxy-');
}

function mediaTypeOf(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  return text.split(';')[0]!.trim().toLowerCase();
}

export interface ForwardingFacts {
  /** The client address as the trusted-proxy rules resolved it. */
  readonly clientIp: string;
  readonly proto: 'http' | 'https';
  /** The host of Proxy:PublicBaseUrl; null when not configured (no X-Forwarded-Host is sent). */
  readonly publicHost: string | null;
  readonly requestId: string;
  /** The endpoint's CustomProperties.ContentType. */
  readonly contentType: string;
  /** The environment's Headers. */
  readonly environmentHeaders: Readonly<Record<string, string>>;
  /** True when a body is forwarded (then Content-Type is set). */
  readonly hasBody: boolean;
  /** The endpoint's ForwardCookies: the client's cookies (minus the gateway's) are forwarded. */
  readonly forwardCookies: boolean;
  /** Authorization rule ForwardClaims (claim-headers.ts): the client's value dropped, the claim's sent (null: none). */
  readonly claimHeaders?: Readonly<Record<string, string | null>>;
}

export function upstreamRequestHeaders(client: IncomingHttpHeaders, facts: ForwardingFacts): Record<string, string | string[]> {
  const listed = connectionListed(client.connection);
  const headers: Record<string, string | string[]> = {};
  // Object.keys (own names only, like Object.entries) without an [name, value] array per header
  for (const name of Object.keys(client)) {
    const value = client[name];
    if (value === undefined || isHopByHop(name, listed) || isClientOnly(name)) continue;
    headers[name] = value;
  }
  headers['x-forwarded-for'] = facts.clientIp;
  headers['x-forwarded-proto'] = facts.proto;
  if (facts.publicHost !== null) headers['x-forwarded-host'] = facts.publicHost;
  const cookie = upstreamCookie(client.cookie, facts.forwardCookies);
  if (cookie !== undefined) headers['cookie'] = cookie;
  headers['x-request-id'] = facts.requestId;
  // The endpoint's ContentType: Accept unless the client asked for something specific; Content-Type
  // of a forwarded body (the client's own value is kept when it names the same media type).
  const accept = mediaTypeOf(client.accept);
  if (accept === '' || accept === '*/*') headers['accept'] = facts.contentType;
  if (!facts.hasBody) delete headers['content-type'];
  else if (mediaTypeOf(client['content-type']) !== mediaTypeOf(facts.contentType)) headers['content-type'] = facts.contentType;
  for (const [name, value] of Object.entries(facts.claimHeaders ?? {})) {
    delete headers[name];
    if (value !== null) headers[name] = value;
  }
  for (const [name, value] of Object.entries(facts.environmentHeaders)) headers[name.toLowerCase()] = value;
  return headers;
}

/**
 * Upstream response headers minus hop-by-hop ones (and Content-Length when the body is rewritten);
 * Set-Cookie only as proxy-cookies.ts allows.
 */
export function downstreamResponseHeaders(
  upstream: Readonly<Record<string, string | string[] | undefined>>,
  keepLength: boolean,
  forwardCookies: boolean,
): Record<string, string | string[]> {
  const listed = connectionListed(upstream['connection']);
  const headers: Record<string, string | string[]> = {};
  for (const name of Object.keys(upstream)) {
    const value = upstream[name];
    const lower = name.toLowerCase();
    if (value === undefined || isHopByHop(lower, listed)) continue;
    if (lower === 'content-length' && !keepLength) continue;
    if (lower === 'set-cookie2') continue; // obsolete (RFC 6265), never passed on
    if (lower === 'set-cookie') {
      const cookies = downstreamSetCookie(value, forwardCookies);
      if (cookies.length > 0) headers[lower] = cookies;
      continue;
    }
    headers[lower] = value;
  }
  return headers;
}
