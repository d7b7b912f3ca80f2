/**
 * The per-dialect pieces of an aggregation query (compiler.ts compileAggregate): the aggregate
 * functions (SQL Server's AVG of an integer column is an integer, so it averages a float; PostgreSQL's
 * AVG is a numeric of 20 digits, text in JSON once it repeats, so it is read as a double: an average
 * is a JSON number on every database) and the
 * ORDER BY + paging tail over the result's fields (SQL Server needs ORDER BY for OFFSET/FETCH).
 */
import type { AggregateItem } from '../aggregate-plan.js';
import type { DialectName } from './dialect-name.js';

export function aggregateCall(dialect: DialectName, item: AggregateItem, column: string): string {
  switch (item.method) {
    case 'count': return 'COUNT(*)';
    case 'countdistinct': return `COUNT(DISTINCT ${column})`;
    // SQL Server's SUM of an int is an int: past 2^31 it fails (8115) where PostgreSQL's is a bigint
    case 'sum': return dialect === 'mssql' && item.integer === true ? `SUM(CAST(${column} AS bigint))` : `SUM(${column})`;
    case 'min': return `MIN(${column})`;
    case 'max': return `MAX(${column})`;
    case 'average': return dialect === 'mssql' ? `AVG(CAST(${column} AS float))` : `CAST(AVG(${column}) AS double precision)`;
  }
}

/** `ORDER BY <order>` plus the page; `fetch` and `skip` are placeholders already. */
export function aggregateTail(dialect: DialectName, order: string, page: { readonly skip: string; readonly fetch: string } | null): string {
  if (page === null) return order === '' ? '' : `ORDER BY ${order}`;
  if (dialect === 'mssql') return `ORDER BY ${order === '' ? '(SELECT NULL)' : order} OFFSET ${page.skip} ROWS FETCH NEXT ${page.fetch} ROWS ONLY`;
  return `${order === '' ? '' : `ORDER BY ${order} `}LIMIT ${page.fetch} OFFSET ${page.skip}`;
}
