import { describe, expect, it } from 'vitest';
import { WharfError } from '../errors/wharf-error.js';
import { parseApiPath } from './api-path.js';

describe('parseApiPath', () => {
  it.each([
    ['/api', { env: null, segments: [] }],
    ['/api/', { env: null, segments: [] }],
    ['/api/demo', { env: 'demo', segments: [] }],
    ['/api/demo/', { env: 'demo', segments: [] }],
    ['/api/demo/WMS/Bins', { env: 'demo', segments: ['WMS', 'Bins'] }],
    ['/api/demo/WMS/Bins/?$filter=a/b', { env: 'demo', segments: ['WMS', 'Bins'] }],
    ['/api/d%65mo/A%20B/%C3%A9', { env: 'demo', segments: ['A B', 'é'] }],
    ['/api/demo/x#frag', { env: 'demo', segments: ['x'] }],
    ['/api/demo/x#frag?q=1', { env: 'demo', segments: ['x'] }],
    ['/api/demo/x?q=1#frag/y', { env: 'demo', segments: ['x'] }],
  ])('%s', (url, want) => {
    expect(parseApiPath(url)).toEqual(want);
  });

  it.each([
    ['/api/demo/../secret', "Invalid path segment: '..' is not allowed."],
    ['/api/demo/./x', "Invalid path segment: '.' is not allowed."],
    ['/api/demo/%2e%2E/x', "Invalid path segment: '%2e%2E' is not allowed."],
    ['/api/demo//x', "Invalid path segment: empty segment ('//') in the path."],
    ['/api/demo/x//', "Invalid path segment: empty segment ('//') in the path."],
    ['/api/demo/a%2Fb', "Invalid path segment: 'a%2Fb' contains an encoded '/', '\\' or a control character."],
    ['/api/demo/a%5Cb', "Invalid path segment: 'a%5Cb' contains an encoded '/', '\\' or a control character."],
    ['/api/demo/a%00', "Invalid path segment: 'a%00' contains an encoded '/', '\\' or a control character."],
    ['/api/demo/%E0%A4%A', "Invalid path segment: malformed percent-encoding in '%E0%A4%A'."],
  ])('%s is refused', (url, message) => {
    let caught: unknown;
    try {
      parseApiPath(url);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WharfError);
    expect((caught as WharfError).status).toBe(400);
    expect((caught as WharfError).message).toBe(message);
  });
});
