import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isAsteriskForm, originForm } from './request-target.js';

const request = (url: string, host = 'gateway.test'): IncomingMessage => ({ url, headers: { host } }) as unknown as IncomingMessage;

describe('originForm', () => {
  it.each([
    ['http://api.example:8080/api/demo/Items?$top=1', '/api/demo/Items?$top=1', 'api.example:8080'],
    ['HTTPS://API.example/health/live', '/health/live', 'API.example'],
    ['http://user:secret@api.example/api', '/api', 'api.example'],
    ['http://api.example', '/', 'api.example'],
    ['http://api.example?x=1', '/?x=1', 'api.example'],
    ['http:///api/demo', '/api/demo', 'gateway.test'],
  ])('serves %s as %s with Host %s', (url, path, host) => {
    const req = request(url);
    expect(originForm(req)).toBe(path);
    expect(req.headers.host).toBe(host);
  });

  it.each(['/api/demo/Items?u=http://x/y', '*', 'ftp://files.example/a', 'api/demo'])('leaves %s and the Host header as they are', (url) => {
    const req = request(url);
    expect(originForm(req)).toBe(url);
    expect(req.headers.host).toBe('gateway.test');
  });
});

describe('isAsteriskForm', () => {
  it.each([
    ['*', true],
    ['/*', false],
    ['*/', false],
    ['/', false],
    ['http://api.example/*', false],
  ])('%s -> %s', (url, want) => {
    expect(isAsteriskForm(request(url))).toBe(want);
  });
});
