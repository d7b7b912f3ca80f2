import { describe, expect, it } from 'vitest';
import { parseStaticContent } from '../contract/static-content.js';
import type { StaticDataset } from '../contract/static-content.js';
import { runStaticQuery } from './static-query.js';

const NONE = { remove: [], rename: {}, mask: [] };

function dataset(rows: object[]): StaticDataset {
  const parsed = parseStaticContent(JSON.stringify(rows), 'json');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.dataset;
}

describe('runStaticQuery', () => {
  const data = dataset([{ id: 1, n: 5 }, { id: 2, n: 3 }, { id: 3, n: 9 }, { id: 4, n: null }]);

  it.each([
    ['filter + order + page', { filter: 'n gt 1', orderby: 'n desc', top: '2' }, [3, 1], 3, true],
    ['next page reuses the same match', { filter: 'n gt 1', orderby: 'n desc', top: '2', skip: '2' }, [2], 3, false],
    ['other order', { filter: 'n gt 1', orderby: 'n', top: '2' }, [2, 1], 3, true],
    ['no filter: nulls last', { orderby: 'n' }, [2, 1, 3, 4], 4, false],
    ['top 0', { top: '0' }, [], 4, false],
  ])('%s', (_name, raw, ids, total, hasMore) => {
    const result = runStaticQuery(data, raw, NONE);
    expect(result.rows.map((row) => row['id'])).toEqual(ids);
    expect(result.total).toBe(total);
    expect(result.hasMore).toBe(hasMore);
  });

  it('a new version of the content is queried afresh', () => {
    const raw = { filter: 'n gt 1' };
    expect(runStaticQuery(data, raw, NONE).total).toBe(3);
    expect(runStaticQuery(dataset([{ id: 9, n: 2 }]), raw, NONE).rows).toEqual([{ id: 9, n: 2 }]);
  });

  it('transforms rename and mask in the page and its field list', () => {
    const result = runStaticQuery(data, { select: 'id,n', top: '1' }, { remove: [], rename: { id: 'key' }, mask: ['n'] });
    expect(result.rows).toEqual([{ key: 1, n: '***' }]);
    expect(result.columns).toEqual(['key', 'n']);
  });
});
