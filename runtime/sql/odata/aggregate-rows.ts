/**
 * `$apply` in memory over plain rows (Static endpoints with EnableFiltering, and the oracle of the
 * SQL aggregation tests): filter -> group (by the grouping members' values; rows keyed by exposed
 * name) -> aggregate like SQL (NULLs ignored; sum/average/min/max of no values is null; $count
 * counts rows, countdistinct distinct non-null values) -> the result's rows, grouping names then aliases.
 */
import type { ApplyQuery } from './apply-ast.js';
import { filterRows, type Row } from './evaluate.js';

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function present(values: readonly unknown[]): unknown[] {
  return values.filter((v) => v !== null && v !== undefined);
}

function aggregateValue(method: string, values: readonly unknown[]): unknown {
  const given = present(values);
  switch (method) {
    case 'countdistinct':
      return new Set(given.map((v) => (typeof v === 'object' ? JSON.stringify(v) : v))).size;
    case 'sum':
    case 'average': {
      if (given.length === 0) return null;
      const sum = given.reduce<number>((s, v) => s + Number(v), 0);
      return method === 'sum' ? sum : sum / given.length;
    }
    case 'min':
    case 'max': {
      if (given.length === 0) return null;
      return given.reduce((best, v) => ((method === 'min' ? compare(v, best) < 0 : compare(v, best) > 0) ? v : best));
    }
    default:
      throw new Error(`unknown aggregation method ${method}`);
  }
}

export function aggregateRows(rows: readonly Row[], apply: ApplyQuery): Row[] {
  const matching = filterRows(rows, apply.filter);
  const groups = new Map<string, Row[]>();
  for (const row of matching) {
    const key = JSON.stringify(apply.groupBy.map((m) => row[m.name] ?? null));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(row);
  }
  // aggregate(...) without groupby: one row, even over no rows
  if (apply.groupBy.length === 0 && groups.size === 0) groups.set('[]', []);
  return [...groups.values()].map((group) => {
    const out: Record<string, unknown> = {};
    for (const m of apply.groupBy) out[m.name] = group[0]?.[m.name] ?? null;
    for (const a of apply.aggregates) {
      out[a.alias] = a.kind === 'count' ? group.length : aggregateValue(a.method, group.map((r) => r[a.member.name]));
    }
    return out;
  });
}
