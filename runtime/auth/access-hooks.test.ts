import { describe, expect, it } from 'vitest';
import { isApiUrl, isProtectedUrl } from './access-hooks.js';
import { bearerToken } from './authorize.js';

// [url, isApiUrl, isProtectedUrl]
const URLS: [string, boolean, boolean][] = [
  ['/api', true, true],
  ['/api/dev/Products', true, true],
  ['/api?x=1', true, true],
  ['/apis/dev', false, false],
  ['/health', false, true],
  ['/health?full=1', false, true],
  ['/health/details', false, true],
  ['/health/live', false, false],
  ['/docs', false, false],
  // judged as the router matches them: percent-decoded (an encoded letter served the route without a token)
  ['/health/%64etails', false, true],
  ['/%68ealth', false, true],
  ['/health/detail%73?x=1', false, true],
  ['/%61pi/dev/Products', true, true],
  ['/a%70i', true, true],
  ['/health/live%20', false, false],
  ['/health/%zz', false, false],
];

describe('protected URLs', () => {
  it.each(URLS)('%s', (url, api, protectedUrl) => {
    expect([isApiUrl(url), isProtectedUrl(url)]).toEqual([api, protectedUrl]);
  });
});

const HEADERS: [string | undefined, string | null][] = [
  [undefined, null],
  ['', null],
  ['Bearer', null],
  ['Bearer ', null],
  ['Basic abc', null],
  ['Bearer abc', 'abc'],
  ['BEARER abc', 'abc'],
  ['Bearer abc def', null],
  // RFC 6750 read strictly (issue 18): one space, a b64token, nothing around it
  ['bearer  abc', null],
  ['Bearer\tabc', null],
  ['Bearer abc ', null],
  [' Bearer abc', null],
  ['Bearer whf_Ab-9.~+/xyz==', 'whf_Ab-9.~+/xyz=='],
  ['Bearer abc=def', null],
  ['Bearer a,b', null],
];

describe('bearerToken', () => {
  it.each(HEADERS)('%j -> %j', (header, want) => {
    expect(bearerToken(header)).toBe(want);
  });
});
