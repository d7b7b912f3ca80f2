/**
 * The `$apply` (aggregation) cases: the expected SQL per dialect (aggregate.test.ts asserts it,
 * no database needed), then each executed on PGlite and a real PostgreSQL (and SQL Server with
 * MSSQL_URL), where the rows must equal the in-memory aggregation (aggregate-rows.ts) of the table.
 */
import type { RawOptions } from '../../runtime/sql/odata/options.js';
import type { CompiledWant } from './cases.js';

export interface AggregateCase {
  readonly endpoint: string;
  readonly options: RawOptions;
  readonly minRows: number;
  readonly want: { readonly postgres: CompiledWant; readonly mssql: CompiledWant };
}

const P = 'sql:Inventory/Products';
const O = 'sql:Sales/Orders';

export const AGGREGATE_CASES: ReadonlyArray<readonly [string, AggregateCase]> = [
  ['groupby with sum, average, min, max, countdistinct and $count', {
    endpoint: P, options: { apply: 'groupby((CategoryId),aggregate(Stock with sum as Units,Price with average as AvgPrice,Price with min as Cheapest,Price with max as Dearest,Name with countdistinct as Names,$count as Products))' }, minRows: 20,
    want: {
      postgres: {
        sql: 'SELECT "t"."CategoryId", SUM("t"."UnitsInStock") AS "Units", CAST(AVG("t"."UnitPrice") AS double precision) AS "AvgPrice", MIN("t"."UnitPrice") AS "Cheapest", MAX("t"."UnitPrice") AS "Dearest", COUNT(DISTINCT "t"."ProductName") AS "Names", COUNT(*) AS "Products" FROM "inventory"."Products" AS "t" GROUP BY "t"."CategoryId" ORDER BY "CategoryId" ASC LIMIT $1 OFFSET $2',
        params: ['int:101', 'int:0'],
      },
      mssql: {
        sql: 'SELECT [t].[CategoryId], SUM([t].[UnitsInStock]) AS [Units], AVG(CAST([t].[UnitPrice] AS float)) AS [AvgPrice], MIN([t].[UnitPrice]) AS [Cheapest], MAX([t].[UnitPrice]) AS [Dearest], COUNT(DISTINCT [t].[ProductName]) AS [Names], COUNT(*) AS [Products] FROM [inventory].[Products] AS [t] GROUP BY [t].[CategoryId] ORDER BY [CategoryId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ['int:0', 'int:101'],
      },
    },
  }],
  ['filter before groupby, $orderby on an alias, $top', {
    endpoint: O, options: { apply: "filter(Total gt 100 and Status ne 'Cancelled')/groupby((Status),aggregate(Total with sum as Revenue,$count as Orders))", orderby: 'Revenue desc', top: '3' }, minRows: 2,
    want: {
      postgres: {
        sql: 'SELECT "t"."Status", SUM("t"."TotalAmount") AS "Revenue", COUNT(*) AS "Orders" FROM "sales"."Orders" AS "t" WHERE ("TotalAmount" > $1 AND "Status" <> $2) GROUP BY "t"."Status" ORDER BY "Revenue" DESC, "Status" ASC LIMIT $3 OFFSET $4',
        params: ['int:100', 'string:Cancelled', 'int:4', 'int:0'],
      },
      mssql: {
        sql: 'SELECT [t].[Status], SUM([t].[TotalAmount]) AS [Revenue], COUNT(*) AS [Orders] FROM [sales].[Orders] AS [t] WHERE ([TotalAmount] > @p1 AND [Status] <> @p2) GROUP BY [t].[Status] ORDER BY [Revenue] DESC, [Status] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ['int:100', 'string:Cancelled', 'int:0', 'int:4'],
      },
    },
  }],
  ['two grouping columns by alias, two filters ANDed, $skip', {
    endpoint: P, options: { apply: 'filter(Price lt 200)/filter(Stock gt 10)/groupby((CategoryId,Stock),aggregate($count as N))', orderby: 'N desc,CategoryId', skip: '5', top: '10' }, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."CategoryId", "t"."UnitsInStock" AS "Stock", COUNT(*) AS "N" FROM "inventory"."Products" AS "t" WHERE ("UnitPrice" < $1 AND "UnitsInStock" > $2) GROUP BY "t"."CategoryId", "t"."UnitsInStock" ORDER BY "N" DESC, "CategoryId" ASC, "Stock" ASC LIMIT $3 OFFSET $4',
        params: ['int:200', 'int:10', 'int:11', 'int:5'],
      },
      mssql: {
        sql: 'SELECT [t].[CategoryId], [t].[UnitsInStock] AS [Stock], COUNT(*) AS [N] FROM [inventory].[Products] AS [t] WHERE ([UnitPrice] < @p1 AND [UnitsInStock] > @p2) GROUP BY [t].[CategoryId], [t].[UnitsInStock] ORDER BY [N] DESC, [CategoryId] ASC, [Stock] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ['int:200', 'int:10', 'int:5', 'int:11'],
      },
    },
  }],
  ['aggregate without groupby: one row', {
    endpoint: O, options: { apply: 'aggregate(Total with sum as Revenue,Total with max as Largest,CustomerId with countdistinct as Customers,$count as Orders)' }, minRows: 1,
    want: {
      postgres: {
        sql: 'SELECT SUM("t"."TotalAmount") AS "Revenue", MAX("t"."TotalAmount") AS "Largest", COUNT(DISTINCT "t"."CustomerId") AS "Customers", COUNT(*) AS "Orders" FROM "sales"."Orders" AS "t"',
        params: [],
      },
      mssql: {
        sql: 'SELECT SUM([t].[TotalAmount]) AS [Revenue], MAX([t].[TotalAmount]) AS [Largest], COUNT(DISTINCT [t].[CustomerId]) AS [Customers], COUNT(*) AS [Orders] FROM [sales].[Orders] AS [t]',
        params: [],
      },
    },
  }],
];
