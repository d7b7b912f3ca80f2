/**
 * The baseline of the SQL benchmark: what a developer would write by hand with fastify + pg for
 * the same two requests (same SQL shape, same JSON envelope, same numeric conversion).
 */
import Fastify from 'fastify';
import pg from 'pg';

export async function handWrittenSql(pgUrl: string, poolSize: number) {
  const pool = new pg.Pool({ connectionString: pgUrl, max: poolSize });
  const app = Fastify({ logger: false });
  app.get('/products', async (request) => {
    const q = request.query as Record<string, string>;
    const top = Number(q['top'] ?? 50);
    const result = await pool.query(
      'SELECT "ProductId", "ProductName" AS "Name", "UnitPrice" AS "Price" FROM inventory."Products" ' +
        'WHERE "UnitPrice" > $1 AND "CategoryId" = $2 ORDER BY "UnitPrice" DESC, "ProductId" ASC LIMIT $3',
      [q['minPrice'], q['categoryId'], top + 1],
    );
    const rows = result.rows.map((r: { ProductId: number; Name: string; Price: string }) => ({ ...r, Price: Number(r.Price) }));
    const more = rows.length > top;
    const value = rows.slice(0, top);
    return { success: true, count: value.length, value, nextLink: more ? `/products?minPrice=${q['minPrice']}&categoryId=${q['categoryId']}&top=${top}&skip=${top}` : null };
  });
  app.get('/products/:id', async (request, reply) => {
    const id = Number((request.params as { id: string }).id);
    const result = await pool.query(
      'SELECT "ProductId", "Sku", "ProductName" AS "Name", "CategoryId", "UnitPrice" AS "Price", "UnitsInStock" AS "Stock", "CreatedAt" FROM inventory."Products" WHERE "ProductId" = $1',
      [id],
    );
    const row = result.rows[0] as Record<string, unknown> | undefined;
    if (!row) return reply.code(404).send({ success: false, error: `No record found with ProductId = ${id}` });
    return { ...row, Price: Number(row['Price']) };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}`, close: async () => { await app.close(); await pool.end(); } };
}
