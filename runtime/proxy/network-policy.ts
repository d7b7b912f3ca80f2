/**
 * Network access policy (SSRF guard) from `environments/network-access-policy.json`:
 *   { "allowedHosts": ["api.internal", "*.svc.example"], "blockedIpRanges": ["169.254.0.0/16", ...] }
 * allowedHosts empty or absent = any host name; `*` stands for one or more leading labels.
 * blockedIpRanges absent = DEFAULT_BLOCKED_RANGES (link-local and cloud metadata addresses).
 * The address check runs on what a host name RESOLVES to, at connect time (upstream-agent.ts), so
 * a DNS name pointing at a metadata address is refused as well as the literal address.
 */
import { BlockList, isIP } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { normalizeAddress } from '../traffic/client-ip.js';

export const POLICY_FILE = 'network-access-policy.json';

export const DEFAULT_BLOCKED_RANGES: readonly string[] = [
  '169.254.0.0/16', // IPv4 link-local, incl. 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata)
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254/128', // AWS IMDS over IPv6
  '100.100.100.200/32', // Alibaba Cloud metadata
  '0.0.0.0/8', // "this network"
];

export interface NetworkPolicyConfig {
  readonly allowedHosts: readonly string[];
  readonly blockedIpRanges: readonly string[];
}

export class NetworkPolicy {
  readonly #blocked = new BlockList();
  readonly #hosts: readonly RegExp[];

  constructor(readonly config: NetworkPolicyConfig) {
    for (const range of config.blockedIpRanges) {
      const [base = '', bits] = range.split('/');
      const address = normalizeAddress(base);
      const version = isIP(address);
      if (version === 0) throw new Error(`${POLICY_FILE}: '${range}' is not an IP address or CIDR range`);
      const type = version === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.#blocked.addAddress(address, type);
      else {
        const prefix = Number(bits);
        if (!/^\d+$/.test(bits) || prefix > (version === 4 ? 32 : 128)) {
          throw new Error(`${POLICY_FILE}: '${range}' has an invalid prefix length`);
        }
        this.#blocked.addSubnet(address, prefix, type);
      }
    }
    this.#hosts = config.allowedHosts.map((pattern) => {
      const escaped = pattern.toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+');
      return new RegExp(`^${escaped}$`);
    });
  }

  /** true when the host name (or literal address) may be called at all. */
  hostAllowed(hostname: string): boolean {
    if (this.#hosts.length === 0) return true;
    const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return this.#hosts.some((pattern) => pattern.test(host));
  }

  /** true when a (resolved) address falls in a blocked range. */
  addressBlocked(address: string): boolean {
    const normalized = normalizeAddress(address);
    const version = isIP(normalized);
    if (version === 0) return false;
    return this.#blocked.check(normalized, version === 4 ? 'ipv4' : 'ipv6');
  }

  /** The check before an attempt: host allow-list, and the address when the URL names one literally. */
  urlBlocked(url: URL): boolean {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.hostAllowed(host)) return true;
    return isIP(host) !== 0 && this.addressBlocked(host);
  }
}

function stringList(value: unknown, key: string): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    throw new Error(`${POLICY_FILE}: ${key} must be an array of strings`);
  }
  return value as string[];
}

export function parseNetworkPolicy(text: string): NetworkPolicy {
  const json = JSON.parse(text) as Record<string, unknown>;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${POLICY_FILE} must be a JSON object`);
  return new NetworkPolicy({
    allowedHosts: stringList(json['allowedHosts'], 'allowedHosts') ?? [],
    blockedIpRanges: stringList(json['blockedIpRanges'], 'blockedIpRanges') ?? DEFAULT_BLOCKED_RANGES,
  });
}

/** The policy of an environments folder; the default policy when the file is absent. */
export async function loadNetworkPolicy(environmentsDir: string): Promise<NetworkPolicy> {
  let text: string;
  try {
    text = await readFile(path.join(environmentsDir, POLICY_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return new NetworkPolicy({ allowedHosts: [], blockedIpRanges: DEFAULT_BLOCKED_RANGES });
    }
    throw error;
  }
  return parseNetworkPolicy(text);
}
