/**
 * The SQL Server column types our users have, through the driver with the parameters the write
 * and filter paths build (TypedValue -> mssql-types.ts), only when MSSQL_URL is set: each value
 * written, read back (the JS value and its JSON), and found again by a typed comparison.
 * The table lives in its own schema `wharf_types` and is recreated per run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TypedValue } from '../../runtime/sql/plan.js';
import { MSSQL_SKIP_REASON, MSSQL_URL, openMssql } from './databases.js';

const driver = openMssql();
afterAll(async () => {
  await driver?.close();
});

const LONG = `${'Zürich 🚢 '.repeat(1200)}end`;

/** column, SQL type, the value as the write path types it, the value read back, its JSON. */
const TYPES: Array<[string, string, TypedValue, unknown, string]> = [
  ['Dto', 'datetimeoffset(7)', { type: 'datetime', value: '2024-05-06T09:08:09.123+02:00' }, new Date('2024-05-06T07:08:09.123Z'), '"2024-05-06T07:08:09.123Z"'],
  ['Dt2', 'datetime2(3)', { type: 'datetime', value: '2024-05-06T07:08:09.123Z' }, new Date('2024-05-06T07:08:09.123Z'), '"2024-05-06T07:08:09.123Z"'],
  ['Dec', 'decimal(12, 2)', { type: 'decimal', value: '1234567.89' }, 1234567.89, '1234567.89'],
  ['Mon', 'money', { type: 'decimal', value: '12.3456' }, 12.3456, '12.3456'],
  ['Guid', 'uniqueidentifier', { type: 'guid', value: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' }, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"'],
  ['Text', 'nvarchar(max)', { type: 'string', value: LONG }, LONG, JSON.stringify(LONG)],
  ['Flag', 'bit', { type: 'boolean', value: true }, true, 'true'],
  // date and time as the PostgreSQL drivers render them (the driver turns tedious's Date into text)
  ['Day', 'date', { type: 'date', value: '2024-02-29' }, '2024-02-29', '"2024-02-29"'],
  ['Tm', 'time(3)', { type: 'time', value: '08:30:15.250' }, '08:30:15.250', '"08:30:15.250"'],
];

describe.skipIf(!MSSQL_URL)('SQL Server column types (MSSQL_URL)', () => {
  beforeAll(async () => {
    await driver!.query(`IF SCHEMA_ID('wharf_types') IS NULL EXEC('CREATE SCHEMA wharf_types')`, []);
    await driver!.query(`DROP TABLE IF EXISTS wharf_types.AllTypes`, []);
    await driver!.query(`CREATE TABLE wharf_types.AllTypes (Id int IDENTITY(1,1) PRIMARY KEY, ${TYPES.map(([c, t]) => `${c} ${t} NULL`).join(', ')}, Bin varbinary(max) NULL)`, []);
    await driver!.query(
      `INSERT INTO wharf_types.AllTypes (${TYPES.map(([c]) => c).join(', ')}, Bin) VALUES (${TYPES.map((_, i) => `@p${i + 1}`).join(', ')}, 0x0001FF)`,
      TYPES.map(([, , value]) => value),
    );
  }, 60_000);

  it.each(TYPES)('%s %s: written, read back, rendered', async (column, _type, value, want, json) => {
    const [row] = await driver!.query(`SELECT ${column} AS v FROM wharf_types.AllTypes`, []);
    const got = row?.['v'];
    // Babelfish answers uniqueidentifier in lower case, SQL Server in upper case
    if (column === 'Guid') {
      expect(String(got).toUpperCase()).toBe(want);
      expect(JSON.stringify(got).toUpperCase()).toBe(json);
    } else {
      expect(got).toEqual(want);
      expect(JSON.stringify(got)).toBe(json);
    }
    const found = await driver!.query(`SELECT COUNT(*) AS n FROM wharf_types.AllTypes WHERE ${column} = @p1`, [value]);
    if (column !== 'Text') expect(found).toEqual([{ n: 1 }]);
  });

  it('varbinary comes back as bytes', async () => {
    const [row] = await driver!.query('SELECT Bin AS v FROM wharf_types.AllTypes', []);
    expect(Buffer.isBuffer(row?.['v'])).toBe(true);
    expect([...(row?.['v'] as Buffer)]).toEqual([0, 1, 255]);
  });

  it('NULL in every column', async () => {
    await driver!.query('INSERT INTO wharf_types.AllTypes (Flag) VALUES (@p1)', [{ type: 'boolean', value: null }]);
    const rows = await driver!.query(`SELECT ${TYPES.map(([c]) => c).join(', ')}, Bin FROM wharf_types.AllTypes WHERE Flag IS NULL`, []);
    expect(rows).toEqual([Object.fromEntries([...TYPES.map(([c]) => [c, null]), ['Bin', null]])]);
  });
});

if (!MSSQL_URL) describe('SQL Server column types', () => {
  it.skip(MSSQL_SKIP_REASON, () => undefined);
});
