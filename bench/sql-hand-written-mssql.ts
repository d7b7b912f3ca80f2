/**
 * The SQL Server baseline of the SQL benchmark (row "fastify + mssql", when MSSQL_URL is set):
 * what a developer would write by hand with fastify + mssql for the same two requests as
 * sql-hand-written.ts (same T-SQL shape as Wharf's: OFFSET/FETCH with the key as tie-breaker,
 * typed parameters, same JSON envelope, same numeric conversion).
 */
import Fastify from 'fastify';
import sql from 'mssql';
import { parseMssqlConnectionString } from '../runtime/contract/connection-string.js';

export async function handWrittenMssql(connectionString: string, poolSize: number) {
  const pool = await new sql.ConnectionPool({ ...parseMssqlConnectionString(connectionString), pool: { min: 1, max: poolSize } }).connect();
  const app = Fastify({ logger: false });
  app.get('/products', async (request) => {
    const q = request.query as Record<string, string>;
    const top = Number(q['top'] ?? 50);
    const result = await pool.request()
      .input('minPrice', sql.Decimal(10, 2), Number(q['minPrice']))
      .input('categoryId', sql.Int, Number(q['categoryId']))
      .input('fetch', sql.Int, top + 1)
      .query<{ ProductId: number; Name: string; Price: number }>(
        'SELECT [ProductId], [ProductName] AS [Name], [UnitPrice] AS [Price] FROM [inventory].[Products] ' +
          'WHERE [UnitPrice] > @minPrice AND [CategoryId] = @categoryId ORDER BY [UnitPrice] DESC, [ProductId] ASC OFFSET 0 ROWS FETCH NEXT @fetch ROWS ONLY',
      );
    const rows = result.recordset.map((r) => ({ ...r, Price: Number(r.Price) }));
    const more = rows.length > top;
    const value = rows.slice(0, top);
    return { success: true, count: value.length, value, nextLink: more ? `/products?minPrice=${q['minPrice']}&categoryId=${q['categoryId']}&top=${top}&skip=${top}` : null };
  });
  app.get('/products/:id', async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const result = await pool.request().input('id', sql.Int, id).query<Record<string, unknown>>(
      'SELECT [ProductId], [Sku], [ProductName] AS [Name], [CategoryId], [UnitPrice] AS [Price], [UnitsInStock] AS [Stock], [CreatedAt] FROM [inventory].[Products] WHERE [ProductId] = @id',
    );
    const row = result.recordset[0];
    if (!row) return reply.code(404).send({ success: false, error: `No record found with ProductId = ${id}` });
    return { ...row, Price: Number(row['Price']) };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}`, close: async () => { await app.close(); await pool.close(); } };
}
