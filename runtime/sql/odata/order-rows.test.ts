import { describe, expect, it } from 'vitest';
import type { OrderItem } from './ast.js';
import { orderRows } from './order-rows.js';

const rows = [
  { id: 1, name: 'b', n: 2, ok: true },
  { id: 2, name: 'a', n: null, ok: false },
  { id: 3, name: 'B', n: 10, ok: null },
  { id: 4, name: 'a', n: 2, ok: true },
];
const by = (column: string, direction: 'asc' | 'desc' = 'asc'): OrderItem => ({ member: { kind: 'member', name: column, column }, direction });

describe('orderRows', () => {
  it.each([
    ['numbers, nulls last ascending, ties keep input order', [by('n')], [1, 4, 3, 2]],
    ['numbers descending, nulls first', [by('n', 'desc')], [2, 3, 1, 4]],
    ['strings by code unit', [by('name')], [3, 2, 4, 1]],
    ['two fields', [by('name'), by('id', 'desc')], [3, 4, 2, 1]],
    ['booleans, false first', [by('ok')], [2, 1, 4, 3]],
    ['nothing', [], [1, 2, 3, 4]],
  ])('%s', (_name, order, ids) => {
    expect(orderRows(rows, order).map((row) => row.id)).toEqual(ids);
  });
});
