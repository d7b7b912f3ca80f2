/** everyAddressTrusted: a list of CIDR ranges that trusts every address, whatever its spelling. */
import { describe, expect, it } from 'vitest';
import { everyAddressTrusted, type TrustedFamily } from './network-coverage.js';

const CASES: [string, { given: string[]; want: TrustedFamily | null }][] = [
  ['private networks', { given: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'], want: null }],
  ['one half of IPv4', { given: ['0.0.0.0/1'], want: null }],
  ['two halves of IPv4', { given: ['0.0.0.0/1', '128.0.0.0/1'], want: 'IPv4' }],
  ['halves in any order, unaligned bases', { given: ['200.1.2.3/1', '10.9.9.9/1'], want: 'IPv4' }],
  ['four quarters and an overlap', { given: ['192.0.0.0/2', '0.0.0.0/2', '64.0.0.0/2', '128.0.0.0/2', '10.0.0.0/8'], want: 'IPv4' }],
  ['IPv4 with one /32 missing', { given: ['0.0.0.0/1', '128.0.0.0/2', '192.0.0.0/3', '224.0.0.0/4', '240.0.0.0/5', '248.0.0.0/6', '252.0.0.0/7', '254.0.0.0/8', '255.0.0.0/9', '255.128.0.0/10', '255.192.0.0/11', '255.224.0.0/12', '255.240.0.0/13', '255.248.0.0/14', '255.252.0.0/15', '255.254.0.0/16', '255.255.0.0/17', '255.255.128.0/18', '255.255.192.0/19', '255.255.224.0/20', '255.255.240.0/21', '255.255.248.0/22', '255.255.252.0/23', '255.255.254.0/24', '255.255.255.0/25', '255.255.255.128/26', '255.255.255.192/27', '255.255.255.224/28', '255.255.255.240/29', '255.255.255.248/30', '255.255.255.252/31', '255.255.255.254/32'], want: null }],
  ['the same with the last /32', { given: ['0.0.0.0/1', '128.0.0.0/2', '192.0.0.0/3', '224.0.0.0/4', '240.0.0.0/5', '248.0.0.0/6', '252.0.0.0/7', '254.0.0.0/8', '255.0.0.0/9', '255.128.0.0/10', '255.192.0.0/11', '255.224.0.0/12', '255.240.0.0/13', '255.248.0.0/14', '255.252.0.0/15', '255.254.0.0/16', '255.255.0.0/17', '255.255.128.0/18', '255.255.192.0/19', '255.255.224.0/20', '255.255.240.0/21', '255.255.248.0/22', '255.255.252.0/23', '255.255.254.0/24', '255.255.255.0/25', '255.255.255.128/26', '255.255.255.192/27', '255.255.255.224/28', '255.255.255.240/29', '255.255.255.248/30', '255.255.255.252/31', '255.255.255.254/32', '255.255.255.255/32'], want: 'IPv4' }],
  ['IPv4 as IPv4-mapped IPv6', { given: ['::ffff:0:0/96'], want: 'IPv4' }],
  ['IPv4-mapped halves, dotted', { given: ['::ffff:0.0.0.0/97', '::ffff:128.0.0.0/97'], want: 'IPv4' }],
  ['IPv6 halves (IPv4-mapped inside ::/1)', { given: ['::/1', '8000::/1'], want: 'IPv4 and IPv6' }],
  ['a single global range', { given: ['2000::/3'], want: null }],
  ['garbage is ignored here (refused elsewhere)', { given: ['not-a-network', '0.0.0.0/1'], want: null }],
];

/** The ranges that cover all of IPv6 except the IPv4-mapped block ::ffff:0:0/96 (its siblings at every depth). */
function allButIpv4Mapped(): string[] {
  const mapped = 0xffffn << 32n;
  const text = (value: bigint) => Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
  return Array.from({ length: 96 }, (_, index) => {
    const prefix = index + 1;
    const bit = 1n << BigInt(128 - prefix);
    const sibling = (mapped ^ bit) & ~(bit - 1n);
    return `${text(sibling)}/${prefix}`;
  });
}

describe('everyAddressTrusted', () => {
  it.each(CASES)('%s', (_name, { given, want }) => {
    expect(everyAddressTrusted(given)).toBe(want);
  });

  it('every IPv6 address outside the IPv4-mapped block is every IPv6 address; one range less is not', () => {
    const ranges = allButIpv4Mapped();
    expect(everyAddressTrusted(ranges)).toBe('IPv6');
    expect(everyAddressTrusted(ranges.slice(1))).toBeNull();
    expect(everyAddressTrusted(ranges.slice(0, -1))).toBeNull();
  });
});
