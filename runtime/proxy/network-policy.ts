/**
 * Network access policy (SSRF guard) from `environments/network-access-policy.json`:
 *   { "allowedHosts": ["api.internal", "*.svc.example"], "blockedIpRanges": ["169.254.0.0/16", ...] }
 * allowedHosts empty or absent = any host name; `*` stands for one or more leading labels.
 * blockedIpRanges absent = DEFAULT_BLOCKED_RANGES (link-local and cloud metadata addresses).
 * The address check runs on what a host name RESOLVES to, at connect time (upstream-agent.ts), so
 * a DNS name pointing at a metadata address is refused as well as the literal address.
 */
import { isIP } from 'node:net';
import type { BlockList } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_BLOCKED_RANGES, blockListOf, isBlockedAddress } from '../contract/network-ranges.js';

export { DEFAULT_BLOCKED_RANGES } from '../contract/network-ranges.js';

export const POLICY_FILE = 'network-access-policy.json';

export interface NetworkPolicyConfig {
  readonly allowedHosts: readonly string[];
  readonly blockedIpRanges: readonly string[];
}

export class NetworkPolicy {
  readonly #blocked: BlockList;
  readonly #hosts: readonly RegExp[];
  /** urlBlocked per host (the policy never changes while it serves); bounded. */
  readonly #verdicts = new Map<string, boolean>();

  constructor(readonly config: NetworkPolicyConfig) {
    try {
      this.#blocked = blockListOf(config.blockedIpRanges);
    } catch (error) {
      throw new Error(`${POLICY_FILE}: blockedIpRanges: ${(error as Error).message}`);
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
    return isBlockedAddress(this.#blocked, address);
  }

  /** The check before an attempt: host allow-list, and the address when the URL names one literally. */
  urlBlocked(url: URL): boolean {
    const known = this.#verdicts.get(url.hostname);
    if (known !== undefined) return known;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const blocked = !this.hostAllowed(host) || (isIP(host) !== 0 && this.addressBlocked(host));
    if (this.#verdicts.size < 10_000) this.#verdicts.set(url.hostname, blocked);
    return blocked;
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
