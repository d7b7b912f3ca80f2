import { describe, expect, it } from 'vitest';
import { ClientIpResolver } from './client-ip.js';

const resolver = new ClientIpResolver({ knownProxies: ['10.0.0.5', '::1'], knownNetworks: ['192.168.0.0/16', 'fd00::/8'] });

// [name, remote, X-Forwarded-For, want ip, forwarded, forwardedIgnored]
const TABLE: [string, string, string | undefined, string, boolean, boolean][] = [
  ['no header', '203.0.113.9', undefined, '203.0.113.9', false, false],
  ['empty header', '203.0.113.9', ' ', '203.0.113.9', false, false],
  ['untrusted peer: header ignored', '203.0.113.9', '1.2.3.4', '203.0.113.9', false, true],
  ['trusted proxy address', '10.0.0.5', '1.2.3.4', '1.2.3.4', true, false],
  ['ipv4-mapped trusted proxy', '::ffff:10.0.0.5', '1.2.3.4', '1.2.3.4', true, false],
  ['trusted network', '192.168.4.4', '1.2.3.4', '1.2.3.4', true, false],
  ['rightmost untrusted wins over a forged left part', '10.0.0.5', '6.6.6.6, 1.2.3.4', '1.2.3.4', true, false],
  ['chain of trusted proxies skipped', '10.0.0.5', '1.2.3.4, 192.168.1.1, 192.168.1.2', '1.2.3.4', true, false],
  ['all hops trusted: leftmost', '10.0.0.5', '192.168.1.1, 192.168.1.2', '192.168.1.1', true, false],
  ['garbage hop stops the walk', '10.0.0.5', '1.2.3.4, nonsense, 192.168.1.2', '192.168.1.2', true, false],
  ['only garbage: peer address', '10.0.0.5', 'nonsense', '10.0.0.5', false, false],
  ['ipv6 trusted network', 'fd00::1', '2001:db8::7', '2001:db8::7', true, false],
  ['ipv6 loopback proxy', '::1', '198.51.100.1', '198.51.100.1', true, false],
  ['next to a trusted network', '192.169.0.1', '1.2.3.4', '192.169.0.1', false, true],
];

describe('ClientIpResolver', () => {
  it.each(TABLE)('%s', (_name, remote, header, ip, forwarded, forwardedIgnored) => {
    expect(resolver.resolve(remote, header)).toEqual({
      ip,
      remoteAddress: remote.replace(/^::ffff:/, ''),
      forwarded,
      forwardedIgnored,
    });
  });

  it('records ignored forwarded headers for the console', () => {
    const fresh = new ClientIpResolver({ knownProxies: [], knownNetworks: [] });
    expect(fresh.forwardedIgnoredStatus()).toEqual({ ignored: false, count: 0, lastAt: null });
    fresh.resolve('127.0.0.1', undefined);
    expect(fresh.forwardedIgnoredStatus().ignored).toBe(false);
    fresh.resolve('127.0.0.1', '1.2.3.4');
    fresh.resolve('127.0.0.1', ['1.2.3.4', '5.6.7.8']);
    expect(fresh.forwardedIgnoredStatus()).toMatchObject({ ignored: true, count: 2 });
    expect(fresh.trustsAnyProxy).toBe(false);
  });

  const BAD: [string, string[], string[], string][] = [
    ['proxy not an address', ['proxy.local'], [], "ForwardedHeaders:KnownProxies: 'proxy.local' is not an IP address"],
    ['network /0', [], ['0.0.0.0/0'], "ForwardedHeaders:KnownNetworks: '0.0.0.0/0' is not a CIDR range such as 10.0.0.0/8 (/0 is refused)"],
    ['network without prefix', [], ['10.0.0.0'], "ForwardedHeaders:KnownNetworks: '10.0.0.0' is not a CIDR range such as 10.0.0.0/8 (/0 is refused)"],
    ['ipv4 prefix too long', [], ['10.0.0.0/33'], "ForwardedHeaders:KnownNetworks: '10.0.0.0/33' is not a CIDR range such as 10.0.0.0/8 (/0 is refused)"],
    ['every IPv4 address in two halves', [], ['0.0.0.0/1', '128.0.0.0/1'], 'ForwardedHeaders:KnownNetworks: ["0.0.0.0/1","128.0.0.0/1"] together trust every IPv4 address'],
    ['every IPv6 address in two halves', [], ['::/1', '8000::/1'], 'ForwardedHeaders:KnownNetworks: ["::/1","8000::/1"] together trust every IPv4 and IPv6 address'],
  ];
  it.each(BAD)('refuses %s', (_name, knownProxies, knownNetworks, message) => {
    expect(() => new ClientIpResolver({ knownProxies, knownNetworks })).toThrow(message);
  });
});
