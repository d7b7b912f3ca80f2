/**
 * The client address a request is counted and logged under.
 * `X-Forwarded-For` is believed only when the connection comes from a trusted proxy
 * (`ForwardedHeaders:KnownProxies` addresses, `ForwardedHeaders:KnownNetworks` CIDR ranges).
 * Then the list is read from the right, skipping further trusted proxies; the first untrusted
 * address is the client. From anyone else the header is ignored (it is trivially forged) and the
 * resolver records that it happened, for the console's `security.forwarded_ignored`.
 */
import { BlockList, isIP } from 'node:net';
import type { ConfigSource } from '../settings/config-source.js';
import { everyAddressProblem, everyAddressTrusted } from './network-coverage.js';
import { memoByText } from '../lifecycle/text-memo.js';

export interface ForwardedHeadersSettings {
  readonly knownProxies: readonly string[];
  readonly knownNetworks: readonly string[];
}

export interface ClientAddress {
  /** The address to count and log. */
  readonly ip: string;
  /** The TCP peer. */
  readonly remoteAddress: string;
  /** True when X-Forwarded-For from a trusted proxy decided `ip`. */
  readonly forwarded: boolean;
  /** True when an X-Forwarded-For header arrived from an untrusted peer and was ignored. */
  readonly forwardedIgnored: boolean;
}

export function readForwardedHeadersSettings(source: ConfigSource): ForwardedHeadersSettings {
  return {
    knownProxies: source.stringList('ForwardedHeaders:KnownProxies') ?? [],
    knownNetworks: source.stringList('ForwardedHeaders:KnownNetworks') ?? [],
  };
}

/** `::ffff:10.0.0.1` -> `10.0.0.1`; strips an IPv6 zone. */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped) return mapped[1]!;
  return trimmed.replace(/%.*$/, '').toLowerCase();
}

/** normalizeAddress of a socket's remote address, remembered (a client keeps its address across its requests). */
export const normalizeRemote = memoByText(normalizeAddress, 1024);

function family(address: string): 'ipv4' | 'ipv6' | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

export class ClientIpResolver {
  private readonly trusted = new BlockList();
  readonly trustsAnyProxy: boolean;
  private ignoredCount = 0;
  private lastIgnoredAt: number | null = null;

  constructor(readonly settings: ForwardedHeadersSettings) {
    for (const proxy of settings.knownProxies) {
      const address = normalizeAddress(proxy);
      const kind = family(address);
      if (!kind) throw new Error(`ForwardedHeaders:KnownProxies: '${proxy}' is not an IP address`);
      this.trusted.addAddress(address, kind);
    }
    for (const network of settings.knownNetworks) {
      const [base = '', bits = ''] = network.split('/');
      const address = normalizeAddress(base);
      const kind = family(address);
      const prefix = Number(bits);
      const max = kind === 'ipv4' ? 32 : 128;
      if (!kind || !/^\d+$/.test(bits) || prefix < 1 || prefix > max) {
        throw new Error(`ForwardedHeaders:KnownNetworks: '${network}' is not a CIDR range such as 10.0.0.0/8 (/0 is refused)`);
      }
      this.trusted.addSubnet(address, prefix, kind);
    }
    const every = everyAddressTrusted(settings.knownNetworks);
    if (every) throw new Error(`ForwardedHeaders:KnownNetworks: ${JSON.stringify(settings.knownNetworks)} ${everyAddressProblem(every)}`);
    this.trustsAnyProxy = settings.knownProxies.length + settings.knownNetworks.length > 0;
  }

  isTrusted(address: string): boolean {
    const normalized = normalizeAddress(address);
    const kind = family(normalized);
    return kind !== null && this.trusted.check(normalized, kind);
  }

  resolve(remoteAddress: string | undefined, forwardedFor: string | string[] | undefined): ClientAddress {
    const remote = normalizeRemote(remoteAddress ?? '');
    const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    if (header === undefined || header.trim() === '') {
      return { ip: remote, remoteAddress: remote, forwarded: false, forwardedIgnored: false };
    }
    if (!this.isTrusted(remote)) {
      this.ignoredCount += 1;
      this.lastIgnoredAt = Date.now();
      return { ip: remote, remoteAddress: remote, forwarded: false, forwardedIgnored: true };
    }
    const hops = header.split(',').map(normalizeAddress).filter((hop) => hop.length > 0);
    let ip: string | null = null;
    for (let index = hops.length - 1; index >= 0; index -= 1) {
      const hop = hops[index]!;
      if (family(hop) === null) break; // garbage: believe nothing further left
      ip = hop;
      if (!this.isTrusted(hop)) break;
    }
    return ip === null
      ? { ip: remote, remoteAddress: remote, forwarded: false, forwardedIgnored: false }
      : { ip, remoteAddress: remote, forwarded: true, forwardedIgnored: false };
  }

  /** For the console: has a forwarded address been ignored, how often, when last. */
  forwardedIgnoredStatus(): { readonly ignored: boolean; readonly count: number; readonly lastAt: number | null } {
    return { ignored: this.ignoredCount > 0, count: this.ignoredCount, lastAt: this.lastIgnoredAt };
  }
}
