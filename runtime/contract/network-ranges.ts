/**
 * Blocked address ranges of the network access policy, shared by the runtime (every upstream
 * connection) and the compiler (a warning for a literal-address Url in a blocked range).
 */
import { BlockList, isIP } from 'node:net';

/** Used when environments/network-access-policy.json (or its blockedIpRanges) is absent. */
export const DEFAULT_BLOCKED_RANGES: readonly string[] = [
  '169.254.0.0/16', // IPv4 link-local, incl. 169.254.169.254 (AWS, GCP, Azure, OpenStack metadata)
  'fe80::/10', // IPv6 link-local
  'fd00:ec2::254/128', // AWS IMDS over IPv6
  '100.100.100.200/32', // Alibaba Cloud metadata
  '0.0.0.0/8', // "this network"
];

/** `::ffff:10.0.0.1` -> `10.0.0.1`; strips brackets and an IPv6 zone. */
function plain(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed.replace(/%.*$/, '').toLowerCase();
}

/** A BlockList of `ranges` (addresses or CIDR); throws naming the first bad entry. */
export function blockListOf(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [base = '', bits] = range.split('/');
    const address = plain(base);
    const version = isIP(address);
    if (version === 0) throw new Error(`'${range}' is not an IP address or CIDR range`);
    const type = version === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) {
      list.addAddress(address, type);
      continue;
    }
    const prefix = Number(bits);
    if (!/^\d+$/.test(bits) || prefix > (version === 4 ? 32 : 128)) throw new Error(`'${range}' has an invalid prefix length`);
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** true when `address` is an IP literal inside the list. */
export function isBlockedAddress(list: BlockList, address: string): boolean {
  const normalized = plain(address);
  const version = isIP(normalized);
  return version !== 0 && list.check(normalized, version === 4 ? 'ipv4' : 'ipv6');
}
