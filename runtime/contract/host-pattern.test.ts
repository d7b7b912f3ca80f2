import { describe, expect, it } from 'vitest';
import { hostPatternProblem, parseHostName, parseHostPattern } from './host-pattern.js';

describe('parseHostName (a Host header)', () => {
  it.each([
    ['name', 'docs.example.com', { name: 'docs.example.com', port: null }],
    ['any case, trailing dot, port', 'Docs.Example.COM.:8080', { name: 'docs.example.com', port: '8080' }],
    ['leading zeros of the port', 'localhost:0080', { name: 'localhost', port: '80' }],
    ['IPv6 canonical', '[::0001]:5080', { name: '[::1]', port: '5080' }],
    ['IPv4 in another notation', '0x7f.1', { name: '127.0.0.1', port: null }],
    ['empty port', 'localhost:', { name: 'localhost', port: null }],
    ['no host', ':80', null],
    ['a path', 'a/b', null],
    ['userinfo', 'u@h', null],
    ['port too large', 'h:70000', null],
  ] as const)('%s: %j', (_name, given, want) => {
    expect(parseHostName(given)).toEqual(want);
  });
});

describe('host patterns (item format `host` of Docs:AllowedHosts, Health:AllowedHosts)', () => {
  it.each([
    ['name', 'docs.example.com', { name: 'docs.example.com', port: null, subdomains: false }],
    ['subdomains with port', '*.Example.com:8443', { name: 'example.com', port: '8443', subdomains: true }],
    ['IPv4 with port', '10.0.0.5:8080', { name: '10.0.0.5', port: '8080', subdomains: false }],
    ['IPv6', '[::1]', { name: '[::1]', port: null, subdomains: false }],
    ['* alone is no pattern but allowed', '*', null],
    ['a scheme', 'https://docs.example.com', null],
    ['a path', 'docs.example.com/x', null],
    ['a * inside', 'a*.example.com', null],
    ['subdomains of an IP', '*.10.0.0.5', null],
    ['empty', '', null],
  ] as const)('%s: %j', (_name, given, want) => {
    expect(parseHostPattern(given)).toEqual(want);
  });

  it.each(['*', 'docs.example.com', '*.example.com', 'localhost:5080', '10.0.0.5', '[::1]:2455'])('%j is a host pattern', (item) => {
    expect(hostPatternProblem(item)).toBeNull();
  });

  it.each(['https://docs.example.com', 'docs.example.com/', 'a b', '*example.com', 'x:99999'])('%j is refused with an example', (item) => {
    expect(hostPatternProblem(item)).toBe(`has '${item}', which is not a host such as docs.example.com, *.example.com, 10.0.0.5:8080 or * (no scheme, no path)`);
  });
});
