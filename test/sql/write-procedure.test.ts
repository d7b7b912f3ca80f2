/**
 * The procedure strategy against objects the sample endpoints do not have: a PostgreSQL FUNCTION
 * (CALL answers 42809, Wharf then selects from it), a procedure whose own error is not P0001
 * (a 500, never a 400), on PGlite and a real PostgreSQL through handleSqlWrite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresCompiler } from '../../runtime/sql/compile/dialects/postgres.js';
import type { SqlDriver } from '../../runtime/sql/drivers/driver.js';
import { SqlDriverError } from '../../runtime/sql/drivers/driver.js';
import { handleSqlWrite } from '../../runtime/sql/write-handler.js';
import { openTestDatabases, type TestDatabases } from './databases.js';
import { endpoint } from './fixtures.js';

const SETUP = `
CREATE OR REPLACE FUNCTION sales."SaveOrderFn"("Method" text, "OrderId" integer DEFAULT NULL, "Status" text DEFAULT NULL)
RETURNS SETOF sales."Orders" LANGUAGE plpgsql AS $fn$
BEGIN
  IF "Method" = 'PATCH' THEN
    UPDATE sales."Orders" o SET "Status" = coalesce($3, o."Status") WHERE o."OrderId" = $2;
    IF NOT FOUND THEN RAISE EXCEPTION 'Order % does not exist', $2; END IF;
  ELSIF "Method" = 'DELETE' THEN
    RAISE EXCEPTION 'not today' USING ERRCODE = '22023';
  END IF;
  RETURN QUERY SELECT * FROM sales."Orders" o WHERE o."OrderId" = $2;
END
$fn$;`;

let dbs: TestDatabases;
beforeAll(async () => {
  dbs = await openTestDatabases();
  for (const d of [dbs.pglite, dbs.postgres]) await d.query(SETUP, []);
}, 180_000);
afterAll(async () => {
  await dbs?.close();
});

const FN = { ...endpoint('sql:Sales/Orders'), procedure: 'sales.SaveOrderFn' };
const req = (method: 'PATCH' | 'DELETE', body: unknown) => ({ method, body, pathId: '3', query: {}, endpointPath: '/api/x/Sales/Orders' });

describe.each([['pglite', () => dbs.pglite], ['postgres', () => dbs.postgres]] as const)('procedure as a function on %s', (_name, driver: () => SqlDriver) => {
  it('is selected from after CALL fails; the first row, aliased and transformed, is the result', async () => {
    const res = await handleSqlWrite(FN, req('PATCH', { Status: 'Shipped' }), { driver: driver(), compiler: postgresCompiler });
    expect(res).toEqual({ status: 200, headers: {}, body: { success: true, message: 'Record partially updated successfully',
      result: { OrderId: 3, CustomerId: 52, OrderDate: '2024-01-04', OrderStatus: 'Shipped', Total: expect.any(Number) }, id: 3 } });
  });

  it('RAISE EXCEPTION (P0001) is a 400 with its message', async () => {
    const missing = { ...req('PATCH', { Status: 'Paid' }), pathId: '999999' };
    await expect(handleSqlWrite(FN, missing, { driver: driver(), compiler: postgresCompiler })).rejects.toMatchObject({ code: 'SQL_PROCEDURE_REFUSED', status: 400, message: 'Order 999999 does not exist' });
  });

  it('an error with another SQLSTATE stays a server error (500)', async () => {
    const error = await handleSqlWrite(FN, req('DELETE', undefined), { driver: driver(), compiler: postgresCompiler }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SqlDriverError);
    expect((error as SqlDriverError).code).toBe('22023');
  });
});
