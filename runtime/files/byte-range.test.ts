import { describe, expect, it } from 'vitest';
import { decideRange, etagFor, parseRange } from './byte-range.js';

describe('parseRange (size 100)', () => {
  it.each([
    ['absent', undefined, null],
    ['a-b', 'bytes=0-9', { kind: 'partial', start: 0, end: 9 }],
    ['open', 'bytes=90-', { kind: 'partial', start: 90, end: 99 }],
    ['suffix', 'bytes=-10', { kind: 'partial', start: 90, end: 99 }],
    ['suffix longer than the file', 'bytes=-500', { kind: 'partial', start: 0, end: 99 }],
    ['end past the file is clipped', 'bytes=95-500', { kind: 'partial', start: 95, end: 99 }],
    ['start at the end', 'bytes=100-', { kind: 'unsatisfiable' }],
    ['empty suffix', 'bytes=-0', { kind: 'unsatisfiable' }],
    ['reversed: ignored', 'bytes=9-0', null],
    ['several ranges: ignored', 'bytes=0-1,5-6', null],
    ['other unit: ignored', 'items=0-1', null],
    ['no numbers: ignored', 'bytes=-', null],
    ['spaces and case', ' Bytes = 1 - 2 ', { kind: 'partial', start: 1, end: 2 }],
  ])('%s', (_name, header, want) => {
    expect(parseRange(header, 100)).toEqual(want);
  });
});

describe('decideRange', () => {
  const version = { size: 100, mtimeMs: Date.UTC(2026, 0, 2, 3, 4, 5, 678) };
  const etag = etagFor(version);
  const lastModified = new Date(version.mtimeMs).toUTCString();
  it.each([
    ['nothing', {}, { kind: 'full' }],
    ['If-None-Match hit', { ifNoneMatch: etag }, { kind: 'not-modified' }],
    ['If-None-Match weak hit', { ifNoneMatch: `W/${etag}` }, { kind: 'not-modified' }],
    ['If-None-Match *', { ifNoneMatch: '*' }, { kind: 'not-modified' }],
    ['If-None-Match miss wins over a matching date', { ifNoneMatch: '"x"', ifModifiedSince: lastModified }, { kind: 'full' }],
    ['If-Modified-Since at the second', { ifModifiedSince: lastModified }, { kind: 'not-modified' }],
    ['If-Modified-Since earlier', { ifModifiedSince: 'Thu, 01 Jan 2026 00:00:00 GMT' }, { kind: 'full' }],
    ['If-Range matching tag', { range: 'bytes=0-0', ifRange: etag }, { kind: 'partial', start: 0, end: 0 }],
    ['If-Range other tag', { range: 'bytes=0-0', ifRange: '"x"' }, { kind: 'full' }],
    ['If-Range date', { range: 'bytes=0-0', ifRange: lastModified }, { kind: 'partial', start: 0, end: 0 }],
    ['If-Range later date', { range: 'bytes=0-0', ifRange: 'Fri, 01 Jan 2100 00:00:00 GMT' }, { kind: 'full' }],
  ])('%s', (_name, headers, want) => {
    expect(decideRange(headers, version)).toEqual(want);
  });
});
