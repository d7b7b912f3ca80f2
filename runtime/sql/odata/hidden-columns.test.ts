import { describe, expect, it } from 'vitest';
import { parseQueryOptions } from './options.js';
import { hiddenColumns } from './hidden-columns.js';

const columns = [
  { db: 'CustomerId', name: 'CustomerId' },
  { db: 'CustomerName', name: 'Name' },
  { db: 'email_address', name: 'Email' },
  { db: 'Phone', name: 'Phone' },
];
const map = Object.fromEntries(columns.map((c) => [c.name, c.db]));

function err(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe('hiddenColumns', () => {
  it.each([
    ['no transforms: nothing hidden', { remove: [], mask: [] }, []],
    ['mask by exposed name', { remove: [], mask: ['Email'] }, [['Email', 'masked']]],
    ['mask by database name, any case', { remove: [], mask: ['EMAIL_ADDRESS'] }, [['Email', 'masked']]],
    ['remove wins over mask', { remove: ['Phone'], mask: ['Phone', 'Email'] }, [['Email', 'masked'], ['Phone', 'removed']]],
  ] as const)('%s', (_n, t, want) => {
    expect([...hiddenColumns(columns, t)].sort()).toEqual(want);
  });
});

describe('hidden columns are refused where they would be an oracle', () => {
  const ctx = { columns: map, relationships: null, hidden: hiddenColumns(columns, { remove: ['Phone'], mask: ['Email'] }) };
  it.each([
    ['$filter compare', { filter: "Email eq 'a'" }, "$filter: column 'Email' is masked in responses and cannot be filtered on at position 1"],
    ['$filter inside a function', { filter: "CustomerId eq 1 and endswith(Email,'.org')" }, "$filter: column 'Email' is masked in responses and cannot be filtered on at position 30"],
    ['$filter on a removed column', { filter: "Phone ne null" }, "$filter: column 'Phone' is removed from responses and cannot be filtered on at position 1"],
    ['$filter in a list', { filter: "Email in ('a','b')" }, "$filter: column 'Email' is masked in responses and cannot be filtered on at position 1"],
    ['$orderby', { orderby: 'Name,Phone desc' }, "$orderby: column 'Phone' is removed from responses and cannot be used for ordering at position 6"],
  ])('%s', (_n, raw, want) => {
    expect(err(() => parseQueryOptions(raw, ctx))).toBe(want);
  });

  it('visible columns and $select of a hidden one still parse', () => {
    const q = parseQueryOptions({ filter: "Name eq 'x'", orderby: 'CustomerId', select: 'Email,Phone' }, ctx);
    expect(q.select?.map((m) => m.name)).toEqual(['Email', 'Phone']);
  });
});
