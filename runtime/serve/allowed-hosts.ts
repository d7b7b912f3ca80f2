/**
 * Which Host headers the documentation-site server and the sync health/dashboard listener answer:
 * the defence against DNS rebinding. A web page the operator opens can point its own name at
 * 127.0.0.1 and then read, as same-origin, whatever a loopback server answers; the browser still
 * sends that name as Host. So a server bound to loopback answers only names that cannot be rebound:
 *   - loopback names (`localhost`, `*.localhost`: browsers resolve them to loopback themselves);
 *   - IP literals (`127.0.0.1:5080`, `[::1]`; probes and tunnels use them, no DNS answer moves them);
 *   - the host of its public URL (`Docs:PublicBaseUrl` / `--base-url`), when it has one;
 *   - the hosts of `Docs:AllowedHosts` / `Health:AllowedHosts` (`*` = any host).
 * With the list empty (the default) a server listening on 0.0.0.0, :: or another non-loopback
 * address answers any Host, as before (it is reachable from the network anyway); with the list set,
 * only the above, wherever it listens. A refused Host is 400 REQUEST_HOST_NOT_ALLOWED naming the
 * setting (never the Host), with Connection: close (serve/listener-basics.ts). Pure.
 */
import { isIP } from 'node:net';
import { WharfError } from '../errors/wharf-error.js';
import { isIpLiteral, matchesHostPattern, parseHostName, parseHostPattern, type HostPattern } from '../contract/host-pattern.js';

export interface HostPolicy {
  /** The AllowedHosts setting's items (validated by the loader; one that is no pattern matches nothing). */
  readonly allowedHosts: readonly string[];
  /** The address the server listens on (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`). */
  readonly listenHost: string;
  /** The host of the server's public URL (`https://docs.example.com` gives `docs.example.com`), if any. */
  readonly publicUrl?: string | null;
  /** The setting a refusal names: `Docs:AllowedHosts` or `Health:AllowedHosts`. */
  readonly setting: string;
}

/** `localhost` and the names below it, which browsers resolve to loopback themselves (no DNS answer moves them). */
function isLoopbackName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and `localhost`; 0.0.0.0, :: and other addresses are not. */
export function isLoopbackAddress(address: string): boolean {
  const host = address.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isLoopbackName(host)) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) !== 6) return false;
  const canonical = new URL(`http://[${host}]/`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** The host part of an absolute URL, canonical; null when there is none or it does not parse. */
function hostOfUrl(url: string | null | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  return parseHostName(new URL(url).host)?.name ?? null;
}

/**
 * The decision for one server: a function from the Host header (after the absolute-form rewrite)
 * to true when it is answered. undefined (HTTP/1.0 without Host; HTTP/1.1 without one is refused
 * before) is answered: browsers always send Host.
 */
export function hostFilter(policy: HostPolicy): (host: string | undefined) => boolean {
  if (policy.allowedHosts.some((item) => item.trim() === '*')) return () => true;
  const patterns = policy.allowedHosts.map(parseHostPattern).filter((p): p is HostPattern => p !== null);
  const publicHost = hostOfUrl(policy.publicUrl);
  const anyHost = policy.allowedHosts.length === 0 && !isLoopbackAddress(policy.listenHost);
  return (text) => {
    if (text === undefined || anyHost) return true;
    const host = parseHostName(text);
    if (host === null) return false;
    if (isIpLiteral(host) || isLoopbackName(host.name) || host.name === publicHost) return true;
    return patterns.some((pattern) => matchesHostPattern(pattern, host));
  };
}

/** 400 REQUEST_HOST_NOT_ALLOWED naming the setting to change; the Host itself is not echoed. */
export function hostNotAllowed(setting: string): WharfError {
  return new WharfError('REQUEST_HOST_NOT_ALLOWED', { setting }, { headers: { connection: 'close' } });
}
