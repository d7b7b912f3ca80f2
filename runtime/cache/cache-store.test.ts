import { describe, expect, it } from 'vitest';
import { cacheKeyHash, canonicalQuery } from './cache-key.js';
import { MemoryCacheStore } from './cache-store.js';
import type { CachedResponse } from './cache-store.js';
import { etagOf, ifNoneMatchHits } from './etag.js';
import { decodeEntry, encodeEntry } from './redis-cache-store.js';

const entry = (body: string): CachedResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(body),
  etag: etagOf(body),
});

describe('MemoryCacheStore', () => {
  it('stores under the current version; a bump hides older entries', async () => {
    const store = new MemoryCacheStore(1024 * 1024);
    expect(await store.get('sql:A', 'k')).toEqual({ version: '0', entry: null });
    await store.set('sql:A', '0', 'k', entry('one'), 60_000);
    expect((await store.get('sql:A', 'k')).entry?.body.toString()).toBe('one');
    await store.bump(['sql:A']);
    expect(await store.get('sql:A', 'k')).toEqual({ version: '1', entry: null });
    await store.set('sql:A', '0', 'k', entry('stale'), 60_000); // a read that began before the write
    expect((await store.get('sql:A', 'k')).entry).toBeNull();
    expect(store.stats.entries).toBe(0);
  });

  it('expires entries after their TTL', async () => {
    let clock = 0;
    const store = new MemoryCacheStore(1024 * 1024, () => clock);
    await store.set('sql:A', '0', 'k', entry('one'), 1000);
    clock = 999;
    expect((await store.get('sql:A', 'k')).entry).not.toBeNull();
    clock = 1000;
    expect((await store.get('sql:A', 'k')).entry).toBeNull();
  });

  it('evicts the least recently used entries beyond the size limit', async () => {
    const body = 'x'.repeat(1000);
    const store = new MemoryCacheStore(3 * 1400);
    for (const key of ['a', 'b', 'c']) await store.set('sql:A', '0', key, entry(body), 60_000);
    await store.get('sql:A', 'a'); // a is now most recent
    await store.set('sql:A', '0', 'd', entry(body), 60_000);
    const present = [];
    for (const key of ['a', 'b', 'c', 'd']) if ((await store.get('sql:A', key)).entry) present.push(key);
    expect(present).toEqual(['a', 'c', 'd']);
    expect(store.stats.bytes).toBeLessThanOrEqual(3 * 1400);
  });
});

describe('cache key', () => {
  const base = { env: 'dev', endpointId: 'sql:A', method: 'GET', path: '/api/dev/A', query: '' };
  it('ignores parameter order and env case, keeps everything else apart', () => {
    expect(canonicalQuery('b=2&a=1&a=0')).toBe('a=1&a=0&b=2');
    // pairs as received, never decoded: spellings a reader may take differently stay apart
    expect(canonicalQuery('%24top=1&$skip=0&?x=1')).toBe('$skip=0&%24top=1&?x=1');
    expect(canonicalQuery('Top=2&b=1&top=1')).toBe('b=1&Top=2&top=1');
    // a `;` (a pair separator to some upstreams): kept as received
    expect(canonicalQuery('q=1;p=2&p=1')).toBe('q=1;p=2&p=1');
    expect(cacheKeyHash({ ...base, query: '%24top=1' })).not.toBe(cacheKeyHash({ ...base, query: '$top=1' }));
    expect(cacheKeyHash({ ...base, query: '$top=1&$skip=2' })).toBe(cacheKeyHash({ ...base, query: '$skip=2&$top=1' }));
    expect(cacheKeyHash({ ...base, env: 'DEV' })).toBe(cacheKeyHash(base));
    expect(cacheKeyHash({ ...base, method: 'HEAD' })).toBe(cacheKeyHash(base));
    const query = { ...base, method: 'QUERY' };
    expect(cacheKeyHash({ ...query, body: { top: 1, filter: 'x' } })).toBe(cacheKeyHash({ ...query, body: { filter: 'x', top: 1 } }));
    const distinct = [
      base,
      { ...base, env: 'prod' },
      { ...base, endpointId: 'sql:B' },
      { ...base, path: '/api/dev/A/1' },
      { ...base, query: '$top=1' },
      query,
      { ...query, body: { filter: 'x' } },
      { ...query, body: { filter: 'y' } },
      { ...base, accept: 'text/csv' },
      { ...base, build: 'hash-v2' },
    ].map(cacheKeyHash);
    expect(new Set(distinct).size).toBe(distinct.length);
  });
});

describe('etag', () => {
  const tag = etagOf('hello');
  it('is the quoted SHA-256 of the body', () => {
    expect(tag).toBe('"2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"');
  });
  const TABLE: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    [tag, true],
    [`W/${tag}`, true],
    [`"other", ${tag}`, true],
    ['*', true],
    ['"other"', false],
  ];
  it.each(TABLE)('If-None-Match %j -> %s', (header, want) => {
    expect(ifNoneMatchHits(header, tag)).toBe(want);
  });
});

describe('redis entry encoding', () => {
  it('round-trips binary bodies', () => {
    const body = Buffer.from([0, 255, 10, 13, 0x7b]);
    const original: CachedResponse = { status: 200, headers: { 'content-type': 'application/octet-stream' }, body, etag: etagOf(body) };
    expect(decodeEntry(encodeEntry(original))).toEqual(original);
  });
});
