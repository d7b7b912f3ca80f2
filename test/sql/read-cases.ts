/**
 * The SQL read cases (status, headers, literal JSON) on environment `pg`, shared by the in-process
 * HTTP test (http.test.ts) and the black-box suite (black-box.test.ts), which runs them through a
 * real gateway process on PostgreSQL and on SQL Server. Values follow from the deterministic seed
 * formulas in runtime/sql/demo/seed.sql and mssql.sql (e.g. product 7: price
 * ((7*7919) % 50000)/100 + 0.99 = 55.32).
 */
import type { ErrorCode } from '../../runtime/errors/registry.js';

export interface ReadGiven {
  readonly method?: 'GET' | 'QUERY';
  readonly url: string;
  readonly contentType?: string;
  readonly payload?: unknown;
}
export interface ReadWant {
  readonly status: number;
  /** The registry code of a refusal, as the request's log line names it (http.test.ts). */
  readonly code?: ErrorCode;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
}

export const P = '/api/pg/Inventory/Products';
const TVF = '/api/pg/Inventory/ProductsByCategory';

export const READ_CASES: Array<[string, { given: ReadGiven; want: ReadWant }]> = [
  ['list: $select, $filter, $orderby, $top, nextLink', {
    given: { url: `${P}?$select=ProductId,Name,Price&$filter=Price gt 499&$orderby=Price desc&$top=2` },
    want: { status: 200, headers: { 'x-total-records': undefined }, body: {
      success: true, count: 2,
      value: [{ ProductId: 8568, Name: 'Large Chair 8568', Price: 500.91 }, { ProductId: 5531, Name: 'Blue Bolt 5531', Price: 500.88 }],
      nextLink: '/api/pg/Inventory/Products?$filter=Price%20gt%20499&$orderby=Price%20desc&$select=ProductId,Name,Price&$top=2&$skip=2',
    } },
  }],
  ['list: last page has nextLink null', {
    given: { url: `${P}?$select=ProductId&$filter=Price gt 500.8&$orderby=Price desc&$top=2&$skip=2` },
    want: { status: 200, body: { success: true, count: 1, value: [{ ProductId: 2494 }], nextLink: null } },
  }],
  ['list: $count=true sets X-Total-Records', {
    given: { url: `${P}?$select=Sku&$filter=CategoryId eq 4 and Stock lt 20&$count=true&$top=2` },
    want: { status: 200, headers: { 'x-total-records': '20' }, body: {
      success: true, count: 2, value: [{ Sku: 'SKU-00323' }, { Sku: 'SKU-00823' }],
      nextLink: '/api/pg/Inventory/Products?$filter=CategoryId%20eq%204%20and%20Stock%20lt%2020&$select=Sku&$count=true&$top=2&$skip=2',
    } },
  }],
  ['by id: bare row with aliases', {
    given: { url: `${P}/7` },
    want: { status: 200, body: { ProductId: 7, Sku: 'SKU-00007', Name: 'Tiny Widget 7', CategoryId: 8, Price: 55.32, Stock: 217, CreatedAt: '2024-01-01T04:19:00.000Z' } },
  }],
  ['by id: $select and $expand', {
    given: { url: `${P}/7?$select=Name&$expand=Category($select=Name)` },
    want: { status: 200, body: { Name: 'Tiny Widget 7', Category: { Name: 'Seafood' } } },
  }],
  ['by id: absent', { given: { url: `${P}/999999` }, want: { status: 404, code: 'SQL_RECORD_NOT_FOUND', body: { success: false, error: 'No record found with ProductId = 999999' } } }],
  // no record can have it: the 404 of a missing record, as on every method (docs/sql.md, Keys)
  ['by id: key of the wrong type', { given: { url: `${P}/abc` }, want: { status: 404, code: 'SQL_RECORD_NOT_FOUND', body: { success: false, error: 'No record found with ProductId = abc' } } }],
  ['by id: $filter does not apply', { given: { url: `${P}/7?$filter=Price gt 1` }, want: { status: 400, body: { success: false, error: '$filter does not apply when reading one record' } } }],
  ['TVF: path parameter and query parameter', {
    given: { url: `${TVF}/3?MinPrice=400&$top=2&$select=ProductId,Price` },
    want: { status: 200, body: { success: true, count: 2, value: [{ ProductId: 62, Price: 410.77 }, { ProductId: 82, Price: 494.57 }],
      nextLink: '/api/pg/Inventory/ProductsByCategory/3?$select=ProductId,Price&$top=2&$skip=2&MinPrice=400' } },
  }],
  ['TVF: DEFAULT parameter', {
    given: { url: `${TVF}/3?$top=1&$select=ProductId,Name,Price` },
    want: { status: 200, body: { success: true, count: 1, value: [{ ProductId: 2, Name: 'Green Widget 2', Price: 159.37 }],
      nextLink: '/api/pg/Inventory/ProductsByCategory/3?$select=ProductId,Name,Price&$top=1&$skip=1' } },
  }],
  ['TVF: required parameter missing', { given: { url: TVF }, want: { status: 400, code: 'SQL_PARAMETER_MISSING', body: { success: false, error: "Required parameter 'CategoryId' not provided" } } }],
  ['TVF: ValidationPattern (path)', { given: { url: `${TVF}/x1` }, want: { status: 400, code: 'SQL_PARAMETER_INVALID', body: { success: false, error: "Invalid value for parameter 'CategoryId'" } } }],
  ['TVF: ValidationPattern (query)', { given: { url: `${TVF}/3?MinPrice=4.567` }, want: { status: 400, body: { success: false, error: "Invalid value for parameter 'MinPrice'" } } }],
  ['TVF: no $expand', { given: { url: `${TVF}/3?$expand=Category` }, want: { status: 400, body: { success: false, error: '$expand is not supported on this endpoint' } } }],
  ['error: unknown orderby field', { given: { url: `${P}?$orderby=Secret` }, want: { status: 400, body: { success: false, error: 'Invalid orderby field: Secret' } } }],
  ['error: empty orderby', { given: { url: `${P}?$orderby=` }, want: { status: 400, body: { success: false, error: 'Empty orderby clause' } } }],
  ['error: negative skip', { given: { url: `${P}?$skip=-1` }, want: { status: 400, body: { success: false, error: '$skip cannot be negative' } } }],
  ['error: top above 1000', { given: { url: `${P}?$top=1001` }, want: { status: 400, body: { success: false, error: '$top cannot exceed 1000' } } }],
  ['error: filter syntax with position', { given: { url: `${P}?$filter=${encodeURIComponent('Price gt 10 and (Stock)) ')}` }, want: { status: 400, code: 'SQL_BAD_REQUEST', body: { success: false, error: "$filter: unexpected ')' at position 24" } } }],
  ['error: $select outside the allow-list', { given: { url: `${P}?$select=Password` }, want: { status: 400, code: 'SQL_UNKNOWN_COLUMN', body: { success: false, error: "$select: unknown column 'Password' at position 1" } } }],
  ['error: db name instead of the alias', { given: { url: `${P}?$filter=UnitPrice gt 1` }, want: { status: 400, code: 'SQL_UNKNOWN_COLUMN', body: { success: false, error: "$filter: unknown column 'UnitPrice' at position 1" } } }],
  ['error: value of the wrong type', { given: { url: `${P}?$filter=ProductId eq 'x'` }, want: { status: 400, body: { success: false, error: "$filter: 'ProductId' is a number and cannot be compared with a string at position 1" } } }],
  ['error: unsupported option', { given: { url: `${P}?$search=x` }, want: { status: 400, body: { success: false, error: "Unsupported query option '$search'" } } }],
  ['expand to-many', {
    given: { url: '/api/pg/Inventory/Categories?$select=Name&$expand=Products($select=ProductId)&$top=1&$filter=CategoryId eq 20&$orderby=Name' },
    want: { status: 200, body: { success: true, count: 1, value: [{ Name: 'Outdoor', Products: Array.from({ length: 500 }, (_, i) => ({ ProductId: 19 + 20 * i })) }], nextLink: null } },
  }],
  ['ResponseTransforms: Mask', {
    given: { url: '/api/pg/Customers?$top=1' },
    want: { status: 200, body: { success: true, count: 1, value: [{ CustomerId: 1, Name: 'Ben Smith 1', Email: '***', Country: 'DE' }], nextLink: '/api/pg/Customers?$top=1&$skip=1' } },
  }],
  ['ResponseTransforms: Rename, and the target mask inside $expand', {
    given: { url: '/api/pg/Sales/Orders?$top=1&$expand=Customer($select=Name,Email)' },
    want: { status: 200, body: { success: true, count: 1,
      value: [{ OrderId: 1, CustomerId: 18, OrderDate: '2024-01-02', OrderStatus: 'Paid', Total: 3117.82, Customer: { Name: 'Ivo Jansen 18', Email: '***' } }],
      nextLink: '/api/pg/Sales/Orders?$expand=Customer($select%3DName,Email)&$top=1&$skip=1' } },
  }],
  ['masked column: not usable in $filter (the oracle of issue 18)', {
    given: { url: "/api/pg/Customers?$filter=CustomerId eq 1 and startswith(Email,'c')" },
    want: { status: 400, body: { success: false, error: "$filter: column 'Email' is masked in responses and cannot be filtered on at position 32" } },
  }],
  ['masked column: not usable inside a function or comparison', {
    given: { url: "/api/pg/Customers?$filter=length(Email) gt 3" },
    want: { status: 400, body: { success: false, error: "$filter: column 'Email' is masked in responses and cannot be filtered on at position 8" } },
  }],
  ['masked column: not usable in $orderby', {
    given: { url: '/api/pg/Customers?$orderby=Country,Email desc' },
    want: { status: 400, body: { success: false, error: "$orderby: column 'Email' is masked in responses and cannot be used for ordering at position 9" } },
  }],
  ['masked column: not usable in a QUERY body', {
    given: { method: 'QUERY', url: '/api/pg/Customers', contentType: 'application/json', payload: { filter: "Email eq 'x@example.com'" } },
    want: { status: 400, body: { success: false, error: "$filter: column 'Email' is masked in responses and cannot be filtered on at position 1" } },
  }],
  ['masked column: $select still answers ***', {
    given: { url: '/api/pg/Customers?$select=Email&$top=1' },
    want: { status: 200, body: { success: true, count: 1, value: [{ Email: '***' }], nextLink: '/api/pg/Customers?$select=Email&$top=1&$skip=1' } },
  }],
  ['view with a date filter', {
    given: { url: '/api/pg/Sales/Reports/OrderSummary?$filter=OrderDate eq 2024-01-02&$select=OrderId,LineCount,Total&$top=3' },
    want: { status: 200, body: { success: true, count: 3,
      value: [{ OrderId: 1, LineCount: 3, Total: 3117.82 }, { OrderId: 701, LineCount: 3, Total: 2926.82 }, { OrderId: 1401, LineCount: 3, Total: 2635.82 }],
      nextLink: '/api/pg/Sales/Reports/OrderSummary?$filter=OrderDate%20eq%202024-01-02&$select=OrderId,LineCount,Total&$top=3&$skip=3' } },
  }],
  ['QUERY: same as GET plus Content-Location', {
    given: { method: 'QUERY', url: P, contentType: 'application/json', payload: { select: 'ProductId,Name', filter: 'CategoryId eq 4', orderby: 'ProductId desc', top: 2, skip: 1 } },
    want: { status: 200, headers: { 'content-location': '/api/pg/Inventory/Products?$filter=CategoryId%20eq%204&$orderby=ProductId%20desc&$select=ProductId,Name&$top=2&$skip=1' },
      body: { success: true, count: 2, value: [{ ProductId: 9963, Name: 'Black Chair 9963' }, { ProductId: 9943, Name: 'Black Lamp 9943' }],
        nextLink: '/api/pg/Inventory/Products?$filter=CategoryId%20eq%204&$orderby=ProductId%20desc&$select=ProductId,Name&$top=2&$skip=3' } },
  }],
  ['QUERY: other content type', { given: { method: 'QUERY', url: P, contentType: 'text/plain', payload: 'x' }, want: { status: 415, body: { success: false, error: 'QUERY requires Content-Type: application/json' } } }],
  ['QUERY: top above 1000', { given: { method: 'QUERY', url: P, contentType: 'application/json', payload: { top: 5000 } }, want: { status: 400, body: { success: false, error: '$top cannot exceed 1000' } } }],
  ['QUERY: unknown field', { given: { method: 'QUERY', url: P, contentType: 'application/json', payload: { nope: 1 } }, want: { status: 400, body: { success: false, error: "QUERY body: unknown field 'nope'" } } }],
  ['QUERY: not an object', { given: { method: 'QUERY', url: P, contentType: 'application/json', payload: [1] }, want: { status: 400, body: { success: false, error: 'QUERY body must be a JSON object' } } }],
];

/** The cases for environment `env` instead of `pg` (paths, nextLinks, Content-Location). */
export function readCasesFor(env: string): typeof READ_CASES {
  return JSON.parse(JSON.stringify(READ_CASES).replaceAll('/api/pg/', `/api/${env}/`)) as typeof READ_CASES;
}
