import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../../test/setup/postgres.js';
import { createPgDriver } from './drivers/pg.js';
import type { Row, SqlDriver } from './drivers/driver.js';
import { listEnvelopeJson, rowWritersMade, valueJson, type ListEnvelope } from './list-json.js';
import { applyTransforms } from '../transforms/response-transforms.js';

function envelope(value: readonly Row[], nextLink: string | null = null): ListEnvelope {
  return { success: true, count: value.length, value, nextLink };
}

/** The whole point: the text is JSON.stringify's, byte for byte. */
function expectSameAsStringify(body: ListEnvelope): void {
  const text = listEnvelopeJson(body);
  expect(text).toBe(JSON.stringify(body));
}

/** Every kind of column value PostgreSQL gives through the driver's type parsers. */
const KINDS_SQL = `
SELECT 1::int2 AS "small", 2147483647::int4 AS "int", 9007199254740991::int8 AS "safeBig", 9223372036854775807::int8 AS "bigAsText",
  (-0.0)::float8 AS "minusZero", 1e300::float8 AS "huge", 1.5e-7::float8 AS "tiny", 'NaN'::float8 AS "nanFloat", 'Infinity'::float4 AS "infFloat",
  55.32::numeric(10,2) AS "money", 10.50::numeric AS "trailingZero", 1234567890.123456789::numeric AS "longNumeric", 'NaN'::numeric AS "nanNumeric",
  true AS "yes", false AS "no", NULL::text AS "nothing",
  'plain' AS "text", E'quote " backslash \\\\ tab \\t newline \\n bell \\x07' AS "escaped", 'ünïcødé 日本 🚢' AS "unicode", E'line\\u2028sep\\u2029' AS "separators",
  '' AS "empty", 'x'::char(3) AS "padded",
  DATE '2024-02-29' AS "date", TIME '08:30:15.25' AS "time", TIMESTAMP '2024-01-01 00:37:00.123456' AS "timestamp",
  TIMESTAMPTZ '2024-01-01 00:37:00+00' AS "timestamptz", TIMESTAMPTZ '2024-06-01 12:00:00.5+05:30' AS "zoned",
  '{"a":[1,2,{"b":null}],"c":"ü"}'::jsonb AS "jsonb", '[1, "two", false]'::json AS "json",
  ARRAY[1,2,3] AS "intArray", ARRAY['a', NULL, 'c"'] AS "textArray",
  '\\xdeadbeef'::bytea AS "bytes", 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS "uuid", interval '1 day 2 hours' AS "interval",
  12.5::money AS "cash", 'a'::"char" AS "char1", B'1010' AS "bits", '192.168.0.1'::inet AS "inet", 1::oid AS "oid",
  g AS "row"
FROM generate_series(1, 3) AS g`;

describe('list-json: the envelope as JSON.stringify writes it', () => {
  let server: TestPostgres;
  let driver: SqlDriver;

  beforeAll(async () => {
    server = await startPostgres();
    driver = createPgDriver({ connectionString: server.url, max: 1 });
  }, 120_000);
  afterAll(async () => {
    await driver?.close();
    await server?.stop();
  });

  it('every column kind of PostgreSQL, through the driver, gives the same bytes', async () => {
    const rows = await driver.query(KINDS_SQL, []);
    expect(rows).toHaveLength(3);
    expectSameAsStringify(envelope(rows, '/api/pg/T?$top=3&$skip=3'));
    expectSameAsStringify(envelope(rows));
    // the kinds really vary: numbers, texts, nulls, booleans, parsed JSON, arrays, a Buffer
    const first = rows[0]!;
    expect(typeof first['safeBig']).toBe('number');
    expect(first['bigAsText']).toBe('9223372036854775807');
    expect(first['longNumeric']).toBe('1234567890.123456789');
    expect(Number.isNaN(first['nanFloat'])).toBe(true);
    expect(first['nothing']).toBeNull();
    expect(typeof first['jsonb']).toBe('object');
    expect(Buffer.isBuffer(first['bytes'])).toBe(true);
  });

  it('values of every JavaScript kind give the same bytes as JSON.stringify', () => {
    const row = {
      int: 42, negative: -7, minusZero: -0, fraction: 0.1 + 0.2, exp: 1e21, small: 5e-324, nan: Number.NaN, inf: -Infinity,
      t: true, f: false, n: null,
      s: 'a"b\\c\u0000\u001f\u007f\u2028\u2029', lone: '\ud800x\udc00', pair: '\ud83d\udea2', empty: '',
      date: new Date(Date.UTC(2024, 0, 1, 0, 37)), nested: { a: [1, { b: 'x' }], u: undefined }, list: [1, undefined, null, 'z'],
      buffer: Buffer.from([1, 2]),
    };
    expectSameAsStringify(envelope([row, { ...row, int: 43 }], 'next "quoted"'));
  });

  it('column names that need escaping, are numeric, or look special keep JSON.stringify order and text', () => {
    const row: Row = { 'quo"te': 1, 'back\\slash': 2, 'ü': 3, 10: 'ten', 2: 'two', __proto__x: 4, toJSON: 'not a function', constructor: 5, '': 6 };
    expectSameAsStringify(envelope([row, { ...row }]));
  });

  it('an empty page, rows without columns, and rows after transforms (rename, mask, remove)', () => {
    expectSameAsStringify(envelope([]));
    expectSameAsStringify(envelope([{}, {}]));
    const t = { remove: ['Secret'], mask: ['Email'], rename: { Name: 'DisplayName' } };
    const rows = [{ Id: 1, Name: 'a', Email: 'a@x', Secret: 's' }, { Id: 2, Name: 'b', Email: null, Secret: 't' }].map((r) => applyTransforms(r, t));
    expectSameAsStringify(envelope(rows));
  });

  it('leaves to JSON.stringify what it would leave out or refuse', () => {
    expect(listEnvelopeJson(envelope([{ a: 1, b: undefined }]))).toBeUndefined();
    expect(listEnvelopeJson(envelope([{ a: 1 }, { a: () => 1 }]))).toBeUndefined();
    expect(listEnvelopeJson(envelope([{ a: Symbol('s') }]))).toBeUndefined();
    expect(listEnvelopeJson(envelope([{ a: 1n }]))).toBeUndefined();
    expect(listEnvelopeJson(envelope([{ a: { toJSON: () => undefined } }]))).toBeUndefined();
    expect(listEnvelopeJson(envelope([[1, 2] as unknown as Row]))).toBeUndefined();
    expect(valueJson(undefined)).toBeUndefined();
  });

  it('makes one row writer per list of column names, not one per request', () => {
    const rows = [{ OnlyHere: 1, AndHere: 'x' }];
    const before = rowWritersMade;
    for (let i = 0; i < 5; i++) listEnvelopeJson(envelope(rows.map((r) => ({ ...r }))));
    expect(rowWritersMade - before).toBe(1);
  });
});
