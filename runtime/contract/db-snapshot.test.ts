import { describe, expect, it } from 'vitest';
import { columnJsonSchema, columnTsType, diffSnapshots, formatDrift, parseDbSnapshot, type DbSnapshot, type SnapshotColumn } from './db-snapshot.js';

const col = (name: string, type: string, extra: Partial<SnapshotColumn> = {}): SnapshotColumn => ({ name, type, nullable: false, ...extra });

describe('column types', () => {
  const cases: [string, { given: SnapshotColumn; schema: Record<string, unknown>; ts: string }][] = [
    ['integer identity', { given: col('Id', 'integer', { identity: true }), schema: { type: 'integer', format: 'int32', readOnly: true }, ts: 'number' }],
    ['bigint (SQL Server spelling too)', { given: col('N', 'bigint'), schema: { type: 'integer', format: 'int64' }, ts: 'number' }],
    ['nullable numeric', { given: col('P', 'numeric', { nullable: true, precision: 10, scale: 2 }), schema: { type: ['number', 'null'], format: 'decimal' }, ts: 'number | null' }],
    ['varchar(12)', { given: col('C', 'character varying', { maxLength: 12 }), schema: { type: 'string', maxLength: 12 }, ts: 'string' }],
    ['nvarchar(max) has no maxLength', { given: col('C', 'nvarchar', { maxLength: -1 }), schema: { type: 'string' }, ts: 'string' }],
    ['bit', { given: col('B', 'bit'), schema: { type: 'boolean' }, ts: 'boolean' }],
    ['timestamptz', { given: col('T', 'timestamp with time zone'), schema: { type: 'string', format: 'date-time' }, ts: 'string' }],
    ['date', { given: col('D', 'date'), schema: { type: 'string', format: 'date' }, ts: 'string' }],
    ['uniqueidentifier', { given: col('G', 'uniqueidentifier'), schema: { type: 'string', format: 'uuid' }, ts: 'string' }],
    ['generated column', { given: col('X', 'text', { generated: true }), schema: { type: 'string', readOnly: true }, ts: 'string' }],
  ];
  it.each(cases)('%s', (_name, { given, schema, ts }) => {
    expect(columnJsonSchema(given)).toEqual(schema);
    expect(columnTsType(given)).toBe(ts);
  });
});

describe('diffSnapshots', () => {
  const base: DbSnapshot = {
    format: 1,
    dialect: 'postgres',
    objects: {
      's.T': { type: 'Table', columns: [col('Id', 'integer', { identity: true }), col('Name', 'text')], primaryKey: ['Id'] },
      's.F': { type: 'Function', columns: [col('A', 'integer')], parameters: [{ name: 'p', type: 'integer', mode: 'IN' }] },
    },
  };
  const cases: [string, { live: DbSnapshot; want: string[] }][] = [
    ['the same', { live: base, want: [] }],
    ['a dropped object', { live: { ...base, objects: { 's.F': base.objects['s.F']! } }, want: ['s.T: expected table, found missing'] }],
    [
      'a dropped, a changed and an added column; a changed key',
      {
        live: { ...base, objects: { ...base.objects, 's.T': { type: 'Table', columns: [col('Id', 'bigint', { identity: true }), col('Extra', 'text', { nullable: true })] } } },
        want: [
          's.T.Id: expected integer not null identity, found bigint not null identity',
          's.T.Name: expected text not null, found missing',
          's.T.Extra: expected absent, found text null',
          's.T: expected primary key Id, found primary key none',
        ],
      },
    ],
    ['a lost parameter', { live: { ...base, objects: { ...base.objects, 's.F': { ...base.objects['s.F']!, parameters: [] } } }, want: ['s.F.@p: expected integer IN, found missing'] }],
    [
      'another dialect compares presence and nullability only',
      { live: { ...base, dialect: 'mssql', objects: { ...base.objects, 's.T': { ...base.objects['s.T']!, columns: [col('Id', 'int', { identity: true }), col('Name', 'nvarchar', { nullable: true })] } } }, want: ['s.T.Name: expected text not null, found nvarchar null'] },
    ],
  ];
  it.each(cases)('%s', (_name, { live, want }) => {
    expect(diffSnapshots(base, live).map(formatDrift)).toEqual(want);
  });
});

describe('parseDbSnapshot', () => {
  it.each([
    ['not an object', '7', 'the snapshot is not a JSON object'],
    ['another format', '{"format":2,"dialect":"postgres","objects":{}}', 'unknown snapshot format 2'],
    ['an unknown dialect', '{"format":1,"dialect":"oracle","objects":{}}', 'unknown dialect oracle'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseDbSnapshot(text)).toThrow(message);
  });
});

describe('parseDbSnapshot: object shapes', () => {
  it.each([
    ['an object without a schema', '{"format":1,"dialect":"postgres","objects":{"T":{"type":"Table","columns":[]}}}', 'objects["T"] is not a schema.name object'],
    ['an unknown type', '{"format":1,"dialect":"postgres","objects":{"s.T":{"type":"Sequence","columns":[]}}}', 'objects["s.T"].type must be one of'],
    ['a column without nullable', '{"format":1,"dialect":"postgres","objects":{"s.T":{"type":"Table","columns":[{"name":"a","type":"int"}]}}}', 'objects["s.T"].columns must be a list of {name, type, nullable}'],
  ])('refuses %s', (_name, text, message) => {
    expect(() => parseDbSnapshot(text)).toThrow(message);
  });
});
