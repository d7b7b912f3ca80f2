import { describe, expect, it } from 'vitest';
import { hostFilter, isLoopbackAddress, type HostPolicy } from './allowed-hosts.js';

const policy = (given: Partial<HostPolicy>): HostPolicy => ({ allowedHosts: [], listenHost: '127.0.0.1', setting: 'Docs:AllowedHosts', ...given });

describe('isLoopbackAddress (the listen address)', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['LOCALHOST.', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['::ffff:10.0.0.5', false],
    ['docs.internal', false],
  ] as const)('%s: %s', (address, want) => {
    expect(isLoopbackAddress(address)).toBe(want);
  });
});

describe('hostFilter (which Host headers a server answers)', () => {
  it.each([
    // automatic (the list empty), listening on loopback: names that cannot be rebound only
    ['loopback: localhost', {}, 'localhost', true],
    ['loopback: localhost with port', {}, 'localhost:5080', true],
    ['loopback: a name below localhost', {}, 'app.localhost:5080', true],
    ['loopback: 127.0.0.1 with port', {}, '127.0.0.1:5080', true],
    ['loopback: [::1] with port', {}, '[::1]:5080', true],
    ['loopback: any IP literal (probes, tunnels)', {}, '10.0.0.5', true],
    ['loopback: an attacker name', {}, 'evil.example', false],
    ['loopback: an attacker name with port', {}, 'evil.example:5080', false],
    ['loopback: a name ending in localhost', {}, 'evillocalhost', false],
    ['loopback: localhost as a label', {}, 'localhost.evil.example', false],
    ['loopback on ::1', { listenHost: '::1' }, 'evil.example', false],
    ['loopback: the public URL host', { publicUrl: 'https://docs.example.com' }, 'docs.example.com', true],
    ['loopback: the public URL host, any case, any port', { publicUrl: 'https://docs.example.com/prefix' }, 'DOCS.example.com.:8443', true],
    ['loopback: not a name below the public host', { publicUrl: 'https://docs.example.com' }, 'a.docs.example.com', false],
    ['loopback: no Host (HTTP/1.0)', {}, undefined, true],
    // automatic, listening beyond loopback: any Host, as before
    ['0.0.0.0: any name', { listenHost: '0.0.0.0' }, 'evil.example', true],
    [':: any name', { listenHost: '::' }, 'evil.example', true],
    ['a LAN address: any name', { listenHost: '10.0.0.5' }, 'docs.internal', true],
    // a list: its hosts, loopback names, IP literals and the public host, wherever it listens
    ['listed name', { allowedHosts: ['docs.example.com'] }, 'docs.example.com:5080', true],
    ['listed name, other case and trailing dot', { allowedHosts: ['Docs.Example.com.'] }, 'docs.example.COM', true],
    ['unlisted name', { allowedHosts: ['docs.example.com'] }, 'evil.example', false],
    ['listed, listening on 0.0.0.0: unlisted refused', { allowedHosts: ['docs.example.com'], listenHost: '0.0.0.0' }, 'evil.example', false],
    ['listed, listening on 0.0.0.0: localhost still answered', { allowedHosts: ['docs.example.com'], listenHost: '0.0.0.0' }, 'localhost:5080', true],
    ['listed, listening on 0.0.0.0: IP literal still answered', { allowedHosts: ['docs.example.com'], listenHost: '0.0.0.0' }, '192.0.2.7:5080', true],
    ['listed with port: that port', { allowedHosts: ['docs.example.com:8443'] }, 'docs.example.com:8443', true],
    ['listed with port: another port', { allowedHosts: ['docs.example.com:8443'] }, 'docs.example.com:8080', false],
    ['listed with port: no port', { allowedHosts: ['docs.example.com:8443'] }, 'docs.example.com', false],
    ['wildcard: a subdomain', { allowedHosts: ['*.example.com'] }, 'a.example.com', true],
    ['wildcard: a deeper subdomain', { allowedHosts: ['*.example.com'] }, 'a.b.example.com', true],
    ['wildcard: not the domain itself', { allowedHosts: ['*.example.com'] }, 'example.com', false],
    ['wildcard: not a look-alike', { allowedHosts: ['*.example.com'] }, 'evilexample.com', false],
    ['* alone: anything', { allowedHosts: ['*'] }, 'evil.example', true],
    ['* among others: anything', { allowedHosts: ['docs.example.com', '*'] }, 'evil.example', true],
  ] as const)('%s', (_name, given, host, want) => {
    expect(hostFilter(policy(given))(host)).toBe(want);
  });
});
