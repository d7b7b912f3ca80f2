import { describe, expect, it } from 'vitest';
import type { RouteTarget } from '../routing/route-table.js';
import type { DeletePattern } from '../contract/model.js';
import { partsOf, targetUrl } from './target-url.js';

const collection: RouteTarget = { kind: 'collection' };
const item = (id: string): RouteTarget => ({ kind: 'item', id });
const sub = (...segments: string[]): RouteTarget => ({ kind: 'subpath', segments });
const pattern = (style: DeletePattern['style'], parameter: string | null = null): DeletePattern[] => [{ style, parameter }];

describe('targetUrl', () => {
  it.each([
    ['collection', 'http://u/api/orders', 'GET', collection, '', [], 'http://u/api/orders'],
    ['trailing slash in Url', 'http://u/api/orders/', 'GET', item('7'), '', [], 'http://u/api/orders/7'],
    ['sub-path, encoded again', 'http://u/a', 'GET', sub('x y', 'z?'), '', [], 'http://u/a/x%20y/z%3F'],
    ['client query appended raw', 'http://u/a', 'GET', collection, "$filter=A%20eq%20'b'&x=1", [], "http://u/a?$filter=A%20eq%20%27b%27&x=1"],
    ['baked parameters win', 'http://u/a?key=1&v=2', 'GET', collection, 'key=evil&y=3', [], 'http://u/a?key=1&v=2&y=3'],
    ['baked parameters win in any case', 'http://u/a?key=1', 'GET', collection, 'KEY=evil&Key=evil&y=3', [], 'http://u/a?key=1&y=3'],
    ['baked parameters win over a ; part', 'http://u/a?key=1', 'GET', collection, 'y=3;key=evil&z=4%3BKey%3Devil&w=5', [], 'http://u/a?key=1&w=5'],
    ['baked parameters win encoded or padded', 'http://u/a?key=1', 'GET', collection, '%6Bey=evil&key%20=evil&+key=evil&y=3', [], 'http://u/a?key=1&y=3'],
    ['the DELETE id parameter wins', 'http://u/a', 'DELETE', item('5'), 'orderid=6&OrderId=7', pattern('QueryParameter', 'orderId'), 'http://u/a?orderId=5'],
    ['DELETE PathParameter', 'http://u/a', 'DELETE', item('a b'), '', pattern('PathParameter'), 'http://u/a/a%20b'],
    ['DELETE QueryParameter uses Parameter', 'http://u/a', 'DELETE', item('5&x=1'), '', pattern('QueryParameter', 'orderId'), 'http://u/a?orderId=5%26x%3D1'],
    ['DELETE ODataKey', 'http://u/odata/P', 'DELETE', item('42'), '', pattern('ODataKey'), 'http://u/odata/P(42)'],
    ['DELETE ODataGuid', 'http://u/odata/P', 'DELETE', item('0F8FAD5B-D9CB-469F-A165-70867728950E'), '', pattern('ODataGuid'), "http://u/odata/P(guid'0f8fad5b-d9cb-469f-a165-70867728950e')"],
    ['DELETE sub-path ignores patterns', 'http://u/a', 'DELETE', sub('x', 'y'), '', pattern('ODataKey'), 'http://u/a/x/y'],
  ] as const)('%s', (_name, base, method, target, query, patterns, want) => {
    expect(targetUrl(base, { method, target, query, deletePatterns: patterns }).href).toBe(want);
  });

  it('a request to the collection without a query: its base parsed once, one shared URL per base (issue 30)', () => {
    const plain = (base: string, method = 'GET') => targetUrl(base, { method, target: collection, query: '', deletePatterns: pattern('QueryParameter', 'id') });
    const first = plain('http://u/a?x=1&&y=2');
    expect(first.href).toBe('http://u/a?x=1&y=2');
    expect(plain('http://u/a?x=1&&y=2', 'POST')).toBe(first);
    expect(plain('http://u/b')).not.toBe(first);
    expect(plain('http://u/b').href).toBe('http://u/b');
    // with a query or below the collection, a URL of its own
    expect(targetUrl('http://u/a?x=1&&y=2', { method: 'GET', target: collection, query: 'z=3', deletePatterns: [] })).not.toBe(first);
    expect(targetUrl('http://u/a?x=1&&y=2', { method: 'DELETE', target: item('5'), query: '', deletePatterns: [] }).href).toBe('http://u/a/5?x=1&y=2');
  });

  it('the origin and path of a shared URL are made with it, not read from its getters per request (issue 30)', () => {
    const shared = targetUrl('http://u:81/a?x=1', { method: 'GET', target: collection, query: '', deletePatterns: [] });
    expect(partsOf(shared)).toBe(partsOf(shared));
    expect(partsOf(shared)).toEqual({ origin: 'http://u:81', path: '/a?x=1' });
    const own = targetUrl('http://u:81/a?x=1', { method: 'GET', target: item('7'), query: 'y=2', deletePatterns: [] });
    expect(partsOf(own)).toEqual({ origin: 'http://u:81', path: '/a/7?x=1&y=2' });
  });

  it('refuses an ODataGuid id that is not a GUID', () => {
    expect(() => targetUrl('http://u/a', { method: 'DELETE', target: item("1')/x"), query: '', deletePatterns: pattern('ODataGuid') })).toThrow('is not a GUID');
  });
});
