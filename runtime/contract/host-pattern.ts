/**
 * The grammar of a host pattern (the items of `Docs:AllowedHosts` and `Health:AllowedHosts`,
 * registry item format `host`) and of the Host header it is compared with:
 *   `*`                    any host
 *   `docs.example.com`     that name (any case, a trailing dot ignored)
 *   `*.example.com`        any name below example.com (not example.com itself)
 *   `10.0.0.5`, `[::1]`    an IP literal (compared in canonical form: `[::0001]` is `[::1]`)
 * each but `*` optionally with `:port` (then only that port matches; without, any port). Pure; the
 * loader and `wharf check` report `hostPatternProblem`, runtime/serve/allowed-hosts.ts decides.
 */
import { isIP } from 'node:net';

export interface HostName {
  /** Lower case, canonical (punycode; IPv4 dotted, IPv6 in brackets), without a trailing dot. */
  readonly name: string;
  /** The port as written, without leading zeros; null when none. */
  readonly port: string | null;
}

export interface HostPattern extends HostName {
  /** `*.example.com`: `name` is then `example.com`. */
  readonly subdomains: boolean;
}

const SPLIT = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d*))?$/;

/** A Host header value (`Docs.Example.com.:8080`, `[::1]:80`) in canonical form; null when it names no host. */
export function parseHostName(text: string): HostName | null {
  const parts = SPLIT.exec(text.trim());
  if (!parts || parts[1] === '') return null;
  let url: URL;
  try {
    url = new URL(`http://${parts[1]}/`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  const name = url.hostname.replace(/\.$/, '');
  if (name === '') return null;
  const port = parts[2] === undefined || parts[2] === '' ? null : String(Number(parts[2]));
  if (port !== null && Number(port) > 65_535) return null;
  return { name, port };
}

/** An IP address as the host (`127.0.0.1`, `[::1]`): no DNS answer can move it elsewhere. */
export function isIpLiteral(host: HostName): boolean {
  return host.name.startsWith('[') || isIP(host.name) === 4;
}

/** One item of an AllowedHosts list; null for `*` (any host) and for an item that is no pattern. */
export function parseHostPattern(item: string): HostPattern | null {
  const text = item.trim();
  const subdomains = text.startsWith('*.');
  const rest = subdomains ? text.slice(2) : text;
  if (rest.includes('*')) return null;
  const host = parseHostName(rest);
  if (host === null || (subdomains && isIpLiteral(host))) return null;
  return { ...host, subdomains };
}

/** Why an item is not a host pattern, for "Setting 'X' (from Y) ..." messages; null when it is one. */
export function hostPatternProblem(item: string): string | null {
  if (item.trim() === '*' || parseHostPattern(item) !== null) return null;
  return `has '${item}', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)`;
}

/** Whether `host` (a parsed Host header) is one the pattern names. */
export function matchesHostPattern(pattern: HostPattern, host: HostName): boolean {
  if (pattern.port !== null && pattern.port !== host.port) return false;
  if (!pattern.subdomains) return pattern.name === host.name;
  return host.name.endsWith(`.${pattern.name}`);
}
