/**
 * Whether a list of CIDR ranges (ForwardedHeaders:KnownNetworks) trusts every address, however it
 * is spelled: `0.0.0.0/1` + `128.0.0.0/1`, `::/1` + `8000::/1`, `::ffff:0:0/96` (every IPv4 address
 * as the proxy check sees it: node's BlockList matches IPv4 peers against IPv4-mapped IPv6 ranges).
 * Every range is placed in the 128-bit IPv6 space (IPv4 as ::ffff:a.b.c.d), merged, and checked
 * against the whole IPv4 block and the whole rest of IPv6.
 */
import { isIP } from 'node:net';

type Range = readonly [bigint, bigint];

const ALL = (1n << 128n) - 1n;
const MAPPED_START = 0xffffn << 32n;
const MAPPED_END = MAPPED_START + 0xffffffffn;

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((sum, part) => (sum << 8n) + BigInt(Number(part)), 0n);
}

/** A valid IPv6 address (isIP() === 6) as a 128-bit number; a trailing dotted IPv4 part allowed. */
function ipv6Value(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((sum, group) => (sum << 16n) + BigInt(parseInt(group, 16)), 0n);
}

/** `base/prefix` as an inclusive range in IPv6 space; null when it is not a CIDR range. */
function rangeOf(network: string): Range | null {
  const [base = '', bits = ''] = network.trim().split('/');
  const family = isIP(base);
  if (family === 0 || !/^\d+$/.test(bits)) return null;
  const prefix = Number(bits) + (family === 4 ? 96 : 0);
  if (prefix > 128) return null;
  const value = family === 4 ? MAPPED_START + ipv4Value(base) : ipv6Value(base);
  const size = 1n << BigInt(128 - prefix);
  const start = value - (value % size);
  return [start, start + size - 1n];
}

function covers(ranges: readonly Range[], [from, to]: Range): boolean {
  let next = from;
  for (const [start, end] of ranges) {
    if (start > next) return false;
    if (end >= next) next = end + 1n;
    if (next > to) return true;
  }
  return next > to;
}

export type TrustedFamily = 'IPv4' | 'IPv6' | 'IPv4 and IPv6';

/** The family whose every address the list trusts; null when none (invalid items are ignored here). */
export function everyAddressTrusted(networks: readonly string[]): TrustedFamily | null {
  const ranges = networks.map(rangeOf).filter((range): range is Range => range !== null);
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const ipv4 = covers(ranges, [MAPPED_START, MAPPED_END]);
  const ipv6 = covers(ranges, [0n, MAPPED_START - 1n]) && covers(ranges, [MAPPED_END + 1n, ALL]);
  return ipv4 && ipv6 ? 'IPv4 and IPv6' : ipv4 ? 'IPv4' : ipv6 ? 'IPv6' : null;
}

/** The refusal text for both the settings loader and the console's settings write. */
export function everyAddressProblem(family: TrustedFamily): string {
  return `together trust every ${family} address (any client could then set its own address through X-Forwarded-For); list only your proxies' networks`;
}
