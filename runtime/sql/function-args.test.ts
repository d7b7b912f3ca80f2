import { describe, it, expect } from 'vitest';
import type { FunctionParameter } from '../contract/model.js';
import { functionArgs, typedValue } from './function-args.js';

const params: FunctionParameter[] = [
  { name: 'CategoryId', sqlType: 'int', source: 'Path', position: 1, required: true, defaultValue: null, validationPattern: '^[0-9]{1,9}$' },
  { name: 'MinPrice', sqlType: 'decimal(10,2)', source: 'Query', position: null, required: false, defaultValue: 'DEFAULT', validationPattern: '^[0-9]+(\\.[0-9]{1,2})?$' },
  { name: 'Region', sqlType: 'nvarchar(20)', source: 'Query', position: null, required: false, defaultValue: 'EU', validationPattern: null },
  { name: 'Since', sqlType: 'date', source: 'Query', position: null, required: false, defaultValue: null, validationPattern: null },
];

function run(segments: string[], query: Record<string, unknown>): unknown {
  try {
    return functionArgs(params, segments, query);
  } catch (e) {
    return `${(e as { status: number }).status} ${(e as Error).message}`;
  }
}

const cases: Array<[string, { given: [string[], Record<string, unknown>]; want: unknown }]> = [
  ['path + defaults', { given: [['3'], {}], want: [
    { name: 'CategoryId', kind: 'value', value: { type: 'int', value: 3, sqlType: 'int' } },
    { name: 'MinPrice', kind: 'default' },
    { name: 'Region', kind: 'value', value: { type: 'string', value: 'EU', sqlType: 'nvarchar(20)' } },
    { name: 'Since', kind: 'value', value: { type: 'date', value: null, sqlType: 'date' } },
  ] }],
  ['query values typed', { given: [['3'], { minprice: '10.50', Region: 'NL', Since: '2024-02-01' }], want: [
    { name: 'CategoryId', kind: 'value', value: { type: 'int', value: 3, sqlType: 'int' } },
    { name: 'MinPrice', kind: 'value', value: { type: 'decimal', value: '10.50', sqlType: 'decimal(10,2)' } },
    { name: 'Region', kind: 'value', value: { type: 'string', value: 'NL', sqlType: 'nvarchar(20)' } },
    { name: 'Since', kind: 'value', value: { type: 'date', value: '2024-02-01', sqlType: 'date' } },
  ] }],
  ['required missing', { given: [[], {}], want: "400 Required parameter 'CategoryId' not provided" }],
  ['pattern mismatch', { given: [["1; DROP TABLE x"], {}], want: "400 Invalid value for parameter 'CategoryId'" }],
  ['type mismatch without a pattern', { given: [['3'], { Since: 'yesterday' }], want: "400 Invalid value for parameter 'Since': expected date" }],
  ['repeated query parameter', { given: [['3'], { Region: ['a', 'b'] }], want: "400 Parameter 'Region' given more than once" }],
  ['too many path segments', { given: [['3', '4'], {}], want: '404 Not found: too many path segments for this function' }],
];

describe('functionArgs', () => {
  it.each(cases)('%s', (_n, { given, want }) => {
    expect(run(...given)).toEqual(want);
  });
});

describe('typedValue by SqlType', () => {
  it.each([
    ['42', 'int', { type: 'int', value: 42 }],
    ['99999999999', 'int', null],
    ['9007199254740993', 'bigint', { type: 'bigint', value: '9007199254740993' }],
    ['1.5', 'float', { type: 'float', value: 1.5 }],
    ['true', 'bit', { type: 'boolean', value: true }],
    ['maybe', 'bit', null],
    ['2024-01-01T10:00:00+02:00', 'datetimeoffset', { type: 'datetime', value: '2024-01-01T10:00:00+02:00' }],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', 'uniqueidentifier', { type: 'guid', value: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ['x', 'uniqueidentifier', null],
    ["O'Brien", 'nvarchar(50)', { type: 'string', value: "O'Brien" }],
  ] as const)('%s as %s', (text, sqlType, want) => {
    expect(typedValue(text, sqlType)).toEqual(want === null ? null : { ...want, sqlType });
  });
});
