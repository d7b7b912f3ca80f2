/**
 * One table of SQL features. Each case is compiled for both dialects (compile.test.ts asserts the
 * exact SQL and typed parameters) and then executed on PGlite and a real PostgreSQL
 * (execute.test.ts), where the rows are checked against the in-memory evaluator.
 */
import type { RawOptions } from '../../runtime/sql/odata/options.js';

export interface CompiledWant {
  readonly sql: string;
  /** `type:value` per parameter. */
  readonly params: readonly string[];
}

export interface SqlCase {
  readonly endpoint: string;
  readonly options: RawOptions;
  /** Table-valued functions: path segments and query string. */
  readonly segments?: readonly string[];
  readonly query?: Readonly<Record<string, string>>;
  /** The case must return at least this many rows (guards against vacuous passes). */
  readonly minRows: number;
  readonly want: { readonly postgres: CompiledWant; readonly mssql: CompiledWant };
  /** With `$count=true`: the count query per dialect (same parameters as the filter). */
  readonly count?: { readonly postgres: string; readonly mssql: string };
}

export const P = 'sql:Inventory/Products';

export const SQL_CASES: ReadonlyArray<readonly [string, SqlCase]> = [
  ['select with aliases', {
    endpoint: P, options: {"select":"Name,Price","top":"3"}, minRows: 3,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductName" AS "Name", "t"."UnitPrice" AS "Price" FROM "inventory"."Products" AS "t" ORDER BY "t"."ProductId" ASC LIMIT $1 OFFSET $2',
        params: ["int:4","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductName] AS [Name], [t].[UnitPrice] AS [Price] FROM [inventory].[Products] AS [t] ORDER BY [t].[ProductId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:0","int:4"],
      },
    },
  }],
  ['default select, key as tie-breaker', {
    endpoint: P, options: {}, minRows: 100,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."Sku", "t"."ProductName" AS "Name", "t"."CategoryId", "t"."UnitPrice" AS "Price", "t"."UnitsInStock" AS "Stock", "t"."CreatedAt" FROM "inventory"."Products" AS "t" ORDER BY "t"."ProductId" ASC LIMIT $1 OFFSET $2',
        params: ["int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[Sku], [t].[ProductName] AS [Name], [t].[CategoryId], [t].[UnitPrice] AS [Price], [t].[UnitsInStock] AS [Stock], [t].[CreatedAt] FROM [inventory].[Products] AS [t] ORDER BY [t].[ProductId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:0","int:101"],
      },
    },
  }],
  ['eq string with a quote', {
    endpoint: 'sql:Customers', options: {"select":"CustomerId,Name","filter":"Name eq 'Ada O''Brien 90'"}, minRows: 1,
    want: {
      postgres: {
        sql: 'SELECT "t"."CustomerId", "t"."CustomerName" AS "Name" FROM "sales"."Customers" AS "t" WHERE "CustomerName" = $1 ORDER BY "t"."CustomerId" ASC LIMIT $2 OFFSET $3',
        params: ["string:Ada O'Brien 90","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[CustomerId], [t].[CustomerName] AS [Name] FROM [sales].[Customers] AS [t] WHERE [CustomerName] = @p1 ORDER BY [t].[CustomerId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["string:Ada O'Brien 90","int:0","int:101"],
      },
    },
  }],
  ['numbers: int and decimal', {
    endpoint: P, options: {"select":"ProductId,Price","filter":"Price gt 100 and Price le 200.5","top":"50"}, minRows: 50,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."UnitPrice" AS "Price" FROM "inventory"."Products" AS "t" WHERE ("UnitPrice" > $1 AND "UnitPrice" <= CAST($2 AS numeric)) ORDER BY "t"."ProductId" ASC LIMIT $3 OFFSET $4',
        params: ["int:100","decimal:200.5","int:51","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[UnitPrice] AS [Price] FROM [inventory].[Products] AS [t] WHERE ([UnitPrice] > @p1 AND [UnitPrice] <= @p2) ORDER BY [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ["int:100","decimal:200.5","int:0","int:51"],
      },
    },
  }],
  ['decimal literal against an integer column', {
    endpoint: P, options: {"select":"ProductId,Stock","filter":"Stock gt 498.5"}, minRows: 1,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."UnitsInStock" AS "Stock" FROM "inventory"."Products" AS "t" WHERE "UnitsInStock" > CAST($1 AS numeric) ORDER BY "t"."ProductId" ASC LIMIT $2 OFFSET $3',
        params: ["decimal:498.5","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[UnitsInStock] AS [Stock] FROM [inventory].[Products] AS [t] WHERE [UnitsInStock] > @p1 ORDER BY [t].[ProductId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["decimal:498.5","int:0","int:101"],
      },
    },
  }],
  ['not, or, parentheses', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"not (Stock lt 10) and (CategoryId eq 1 or CategoryId eq 2)"}, minRows: 100,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE (NOT ("UnitsInStock" < $1) AND ("CategoryId" = $2 OR "CategoryId" = $3)) ORDER BY "t"."ProductId" ASC LIMIT $4 OFFSET $5',
        params: ["int:10","int:1","int:2","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE (NOT ([UnitsInStock] < @p1) AND ([CategoryId] = @p2 OR [CategoryId] = @p3)) ORDER BY [t].[ProductId] ASC OFFSET @p4 ROWS FETCH NEXT @p5 ROWS ONLY',
        params: ["int:10","int:1","int:2","int:0","int:101"],
      },
    },
  }],
  ['in list', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"CategoryId in (1, 3, 5)","top":"1000"}, minRows: 1000,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE "CategoryId" IN ($1, $2, $3) ORDER BY "t"."ProductId" ASC LIMIT $4 OFFSET $5',
        params: ["int:1","int:3","int:5","int:1001","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE [CategoryId] IN (@p1, @p2, @p3) ORDER BY [t].[ProductId] ASC OFFSET @p4 ROWS FETCH NEXT @p5 ROWS ONLY',
        params: ["int:1","int:3","int:5","int:0","int:1001"],
      },
    },
  }],
  ['null', {
    endpoint: 'sql:Inventory/Categories', options: {"select":"CategoryId,Name","filter":"Description ne null and Name ne null"}, minRows: 20,
    want: {
      postgres: {
        sql: 'SELECT "t"."CategoryId", "t"."CategoryName" AS "Name" FROM "inventory"."Categories" AS "t" WHERE ("Description" IS NOT NULL AND "CategoryName" IS NOT NULL) ORDER BY "t"."CategoryId" ASC LIMIT $1 OFFSET $2',
        params: ["int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[CategoryId], [t].[CategoryName] AS [Name] FROM [inventory].[Categories] AS [t] WHERE ([Description] IS NOT NULL AND [CategoryName] IS NOT NULL) ORDER BY [t].[CategoryId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:0","int:101"],
      },
    },
  }],
  ['contains escapes LIKE wildcards', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"contains(Name,'50%_[x]\\\\') or contains(Name,'Widget 1')"}, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE ("ProductName" LIKE $1 ESCAPE \'\\\' OR "ProductName" LIKE $2 ESCAPE \'\\\') ORDER BY "t"."ProductId" ASC LIMIT $3 OFFSET $4',
        params: ["string:%50\\%\\_[x]\\\\\\\\%","string:%Widget 1%","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE ([ProductName] LIKE @p1 ESCAPE \'\\\' OR [ProductName] LIKE @p2 ESCAPE \'\\\') ORDER BY [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ["string:%50\\%\\_\\[x]\\\\\\\\%","string:%Widget 1%","int:0","int:101"],
      },
    },
  }],
  ['startswith and endswith', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"startswith(Name,'Red') and endswith(Sku,'0')"}, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE ("ProductName" LIKE $1 ESCAPE \'\\\' AND "Sku" LIKE $2 ESCAPE \'\\\') ORDER BY "t"."ProductId" ASC LIMIT $3 OFFSET $4',
        params: ["string:Red%","string:%0","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE ([ProductName] LIKE @p1 ESCAPE \'\\\' AND [Sku] LIKE @p2 ESCAPE \'\\\') ORDER BY [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ["string:Red%","string:%0","int:0","int:101"],
      },
    },
  }],
  ['string functions', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"tolower(Name) eq 'red widget 10' or (length(trim(toupper(Sku))) eq 9 and indexof(Name,'Mug') eq 5)"}, minRows: 2,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE (LOWER("ProductName") = $1 OR (LENGTH(TRIM(UPPER("Sku"))) = $2 AND (STRPOS("ProductName", $3) - 1) = $4)) ORDER BY "t"."ProductId" ASC LIMIT $5 OFFSET $6',
        params: ["string:red widget 10","int:9","string:Mug","int:5","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE (LOWER([ProductName]) = @p1 OR (LEN(LTRIM(RTRIM(UPPER([Sku])))) = @p2 AND (CHARINDEX(@p3, [ProductName]) - 1) = @p4)) ORDER BY [t].[ProductId] ASC OFFSET @p5 ROWS FETCH NEXT @p6 ROWS ONLY',
        params: ["string:red widget 10","int:9","string:Mug","int:5","int:0","int:101"],
      },
    },
  }],
  ['date parts', {
    endpoint: P, options: {"select":"ProductId,CreatedAt","filter":"year(CreatedAt) eq 2024 and month(CreatedAt) eq 3 and day(CreatedAt) ge 10 and hour(CreatedAt) lt 12 and minute(CreatedAt) ge 30 and second(CreatedAt) eq 0"}, minRows: 20,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."CreatedAt" FROM "inventory"."Products" AS "t" WHERE (((((CAST(EXTRACT(YEAR FROM "CreatedAt") AS integer) = $1 AND CAST(EXTRACT(MONTH FROM "CreatedAt") AS integer) = $2) AND CAST(EXTRACT(DAY FROM "CreatedAt") AS integer) >= $3) AND CAST(EXTRACT(HOUR FROM "CreatedAt") AS integer) < $4) AND CAST(EXTRACT(MINUTE FROM "CreatedAt") AS integer) >= $5) AND CAST(FLOOR(EXTRACT(SECOND FROM "CreatedAt")) AS integer) = $6) ORDER BY "t"."ProductId" ASC LIMIT $7 OFFSET $8',
        params: ["int:2024","int:3","int:10","int:12","int:30","int:0","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[CreatedAt] FROM [inventory].[Products] AS [t] WHERE (((((DATEPART(year, [CreatedAt]) = @p1 AND DATEPART(month, [CreatedAt]) = @p2) AND DATEPART(day, [CreatedAt]) >= @p3) AND DATEPART(hour, [CreatedAt]) < @p4) AND DATEPART(minute, [CreatedAt]) >= @p5) AND DATEPART(second, [CreatedAt]) = @p6) ORDER BY [t].[ProductId] ASC OFFSET @p7 ROWS FETCH NEXT @p8 ROWS ONLY',
        params: ["int:2024","int:3","int:10","int:12","int:30","int:0","int:0","int:101"],
      },
    },
  }],
  ['date() and time()', {
    endpoint: P, options: {"select":"ProductId,CreatedAt","filter":"date(CreatedAt) eq 2024-01-05 and time(CreatedAt) gt 12:00"}, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."CreatedAt" FROM "inventory"."Products" AS "t" WHERE (CAST("CreatedAt" AS date) = $1 AND CAST("CreatedAt" AS time) > $2) ORDER BY "t"."ProductId" ASC LIMIT $3 OFFSET $4',
        params: ["date:2024-01-05","time:12:00","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[CreatedAt] FROM [inventory].[Products] AS [t] WHERE (CAST([CreatedAt] AS date) = @p1 AND CAST([CreatedAt] AS time) > @p2) ORDER BY [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ["date:2024-01-05","time:12:00","int:0","int:101"],
      },
    },
  }],
  ['date-time with offset', {
    endpoint: P, options: {"select":"ProductId,CreatedAt","filter":"CreatedAt ge 2024-01-03T10:00:00+02:00 and CreatedAt lt 2024-01-04T00:00:00Z"}, minRows: 20,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."CreatedAt" FROM "inventory"."Products" AS "t" WHERE ("CreatedAt" >= $1 AND "CreatedAt" < $2) ORDER BY "t"."ProductId" ASC LIMIT $3 OFFSET $4',
        params: ["datetime:2024-01-03T10:00:00+02:00","datetime:2024-01-04T00:00:00Z","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[CreatedAt] FROM [inventory].[Products] AS [t] WHERE ([CreatedAt] >= @p1 AND [CreatedAt] < @p2) ORDER BY [t].[ProductId] ASC OFFSET @p3 ROWS FETCH NEXT @p4 ROWS ONLY',
        params: ["datetime:2024-01-03T10:00:00+02:00","datetime:2024-01-04T00:00:00Z","int:0","int:101"],
      },
    },
  }],
  ['orderby several fields', {
    endpoint: P, options: {"select":"ProductId,Name,Price","orderby":"Price desc,Name","top":"5"}, minRows: 5,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name", "t"."UnitPrice" AS "Price" FROM "inventory"."Products" AS "t" ORDER BY "t"."UnitPrice" DESC, "t"."ProductName" ASC, "t"."ProductId" ASC LIMIT $1 OFFSET $2',
        params: ["int:6","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name], [t].[UnitPrice] AS [Price] FROM [inventory].[Products] AS [t] ORDER BY [t].[UnitPrice] DESC, [t].[ProductName] ASC, [t].[ProductId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:0","int:6"],
      },
    },
  }],
  ['orderby the key, skip', {
    endpoint: P, options: {"select":"ProductId,Name","orderby":"ProductId desc","top":"3","skip":"10"}, minRows: 3,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" ORDER BY "t"."ProductId" DESC LIMIT $1 OFFSET $2',
        params: ["int:4","int:10"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] ORDER BY [t].[ProductId] DESC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:10","int:4"],
      },
    },
  }],
  ['count', {
    endpoint: P, options: {"select":"ProductId,Name","filter":"CategoryId eq 4","count":"true","top":"10"}, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name" FROM "inventory"."Products" AS "t" WHERE "CategoryId" = $1 ORDER BY "t"."ProductId" ASC LIMIT $2 OFFSET $3',
        params: ["int:4","int:11","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name] FROM [inventory].[Products] AS [t] WHERE [CategoryId] = @p1 ORDER BY [t].[ProductId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["int:4","int:0","int:11"],
      },
    },
    count: {
      postgres: 'SELECT COUNT(*) AS "count" FROM "inventory"."Products" WHERE "CategoryId" = $1',
      mssql: 'SELECT COUNT(*) AS [count] FROM [inventory].[Products] WHERE [CategoryId] = @p1',
    },
  }],
  ['expand to-one with $select', {
    endpoint: P, options: {"select":"ProductId,Name","expand":"Category($select=Name)","top":"2"}, minRows: 2,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."ProductName" AS "Name", (SELECT row_to_json("j") FROM (SELECT "e"."CategoryName" AS "Name" FROM "inventory"."Categories" AS "e" WHERE "e"."CategoryId" = "t"."CategoryId" LIMIT 1) AS "j") AS "Category" FROM "inventory"."Products" AS "t" ORDER BY "t"."ProductId" ASC LIMIT $1 OFFSET $2',
        params: ["int:3","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[ProductName] AS [Name], (SELECT TOP 1 [e].[CategoryName] AS [Name] FROM [inventory].[Categories] AS [e] WHERE [e].[CategoryId] = [t].[CategoryId] FOR JSON PATH, WITHOUT_ARRAY_WRAPPER, INCLUDE_NULL_VALUES) AS [Category] FROM [inventory].[Products] AS [t] ORDER BY [t].[ProductId] ASC OFFSET @p1 ROWS FETCH NEXT @p2 ROWS ONLY',
        params: ["int:0","int:3"],
      },
    },
  }],
  ['expand to-many', {
    endpoint: 'sql:Inventory/Categories', options: {"select":"CategoryId,Name","expand":"Products($select=ProductId,Name)","top":"1"}, minRows: 1,
    want: {
      postgres: {
        sql: 'SELECT "t"."CategoryId", "t"."CategoryName" AS "Name", (SELECT COALESCE(json_agg("j"), \'[]\'::json) FROM (SELECT "e"."ProductId", "e"."ProductName" AS "Name" FROM "inventory"."Products" AS "e" WHERE "e"."CategoryId" = "t"."CategoryId" ORDER BY "e"."ProductId" LIMIT $1) AS "j") AS "Products" FROM "inventory"."Categories" AS "t" ORDER BY "t"."CategoryId" ASC LIMIT $2 OFFSET $3',
        params: ["int:1000","int:2","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[CategoryId], [t].[CategoryName] AS [Name], COALESCE((SELECT TOP (@p1) [e].[ProductId], [e].[ProductName] AS [Name] FROM [inventory].[Products] AS [e] WHERE [e].[CategoryId] = [t].[CategoryId] ORDER BY [e].[ProductId] FOR JSON PATH, INCLUDE_NULL_VALUES), \'[]\') AS [Products] FROM [inventory].[Categories] AS [t] ORDER BY [t].[CategoryId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["int:1000","int:0","int:2"],
      },
    },
  }],
  ['view with alias', {
    endpoint: 'sql:Sales/Reports/OrderSummary', options: {"select":"OrderId,Total","filter":"Total gt 3000","orderby":"Total desc","top":"10"}, minRows: 10,
    want: {
      postgres: {
        sql: 'SELECT "t"."OrderId", "t"."TotalAmount" AS "Total" FROM "sales"."OrderSummary" AS "t" WHERE "TotalAmount" > $1 ORDER BY "t"."TotalAmount" DESC, "t"."OrderId" ASC LIMIT $2 OFFSET $3',
        params: ["int:3000","int:11","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[OrderId], [t].[TotalAmount] AS [Total] FROM [sales].[OrderSummary] AS [t] WHERE [TotalAmount] > @p1 ORDER BY [t].[TotalAmount] DESC, [t].[OrderId] ASC OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["int:3000","int:0","int:11"],
      },
    },
  }],
  ['function: path parameter, DEFAULT', {
    endpoint: 'sql:Inventory/ProductsByCategory', options: {"select":"ProductId,Price","top":"5"}, segments: ["3"], minRows: 5,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."UnitPrice" AS "Price" FROM "inventory"."ProductsByCategory"("CategoryId" => $1) AS "t" LIMIT $2 OFFSET $3',
        params: ["int:3","int:6","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[UnitPrice] AS [Price] FROM [inventory].[ProductsByCategory](@p1, DEFAULT) AS [t] ORDER BY (SELECT NULL) OFFSET @p2 ROWS FETCH NEXT @p3 ROWS ONLY',
        params: ["int:3","int:0","int:6"],
      },
    },
  }],
  ['function: query parameter and $filter', {
    endpoint: 'sql:Inventory/ProductsByCategory', options: {"select":"ProductId,Price","filter":"Price lt 450","orderby":"Price"}, segments: ["3"], query: {"MinPrice":"400"}, minRows: 5,
    want: {
      postgres: {
        sql: 'SELECT "t"."ProductId", "t"."UnitPrice" AS "Price" FROM "inventory"."ProductsByCategory"("CategoryId" => $1, "MinPrice" => $2) AS "t" WHERE "UnitPrice" < $3 ORDER BY "t"."UnitPrice" ASC LIMIT $4 OFFSET $5',
        params: ["int:3","decimal:400","int:450","int:101","int:0"],
      },
      mssql: {
        sql: 'SELECT [t].[ProductId], [t].[UnitPrice] AS [Price] FROM [inventory].[ProductsByCategory](@p1, @p2) AS [t] WHERE [UnitPrice] < @p3 ORDER BY [t].[UnitPrice] ASC OFFSET @p4 ROWS FETCH NEXT @p5 ROWS ONLY',
        params: ["int:3","decimal:400","int:450","int:0","int:101"],
      },
    },
  }],
];
