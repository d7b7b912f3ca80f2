/** validateWrite: what a write body becomes (db columns, typed values, the key) or why it is refused. */
import { describe, expect, it } from 'vitest';
import { endpoint } from '../../test/sql/fixtures.js';
import { typedValue, validateWrite, type WriteInput } from './write-body.js';
import type { WharfError } from '../errors/wharf-error.js';

const W = endpoint('sql:Inventory/Warehouses');
const input = (method: WriteInput['method'], body: unknown, pathId: string | null = null, query: Record<string, unknown> = {}): WriteInput => ({ method, body, pathId, query });

const accepted: [string, { given: WriteInput; kinds?: ReadonlyMap<string, 'string' | 'number' | 'boolean'>; want: { values: string[]; key: string | null } }][] = [
  ['kinds known: a decimal number as text, a boolean, null for an optional column', { given: input('PATCH', { Capacity: '12.50', IsActive: false, City: null }, '4'), kinds: new Map([['Capacity', 'number'], ['IsActive', 'boolean'], ['City', 'string']]), want: { values: ['Capacity=string:12.50', 'IsActive=boolean:false', 'City=string:null'], key: 'int:4' } }],
  ['aliases and db names, any case, to db columns', { given: input('POST', { code: 'NL-001', WAREHOUSENAME: 'x', contactid: 3 }), want: { values: ['Code=string:NL-001', 'WarehouseName=string:x', 'ContactCustomerId=int:3'], key: null } }],
  ['objects as JSON text, decimals as text', { given: input('PATCH', { Notes: { a: [1, 'b'] }, Capacity: 1.5 }, '4'), want: { values: ['Notes=string:{"a":[1,"b"]}', 'Capacity=decimal:1.5'], key: 'int:4' } }],
  ['PUT key from the body when the path has none', { given: input('PUT', { WarehouseId: 7, Code: 'NL-001', Name: 'x' }), want: { values: ['WarehouseId=int:7', 'Code=string:NL-001', 'WarehouseName=string:x'], key: 'int:7' } }],
  ['DELETE key from ?id=', { given: input('DELETE', undefined, null, { id: 'abc' }), want: { values: [], key: 'string:abc' } }],
  ['PATCH may leave required columns out', { given: input('PATCH', { City: null }, '4'), want: { values: ['City=string:null'], key: 'int:4' } }],
];

const PATTERN = 'Code must be a country code and three digits, like NL-001';
const KINDS = new Map([['Code', 'string'], ['Capacity', 'number'], ['IsActive', 'boolean']] as const);

const refused: [string, { given: WriteInput; kinds?: typeof KINDS; status: number; message: string; details?: unknown }][] = [
  ['a number for a patterned column (its text does not match)', { given: input('PATCH', { Code: 12 }, '4'), status: 422, message: 'Validation failed', details: [{ field: 'Code', message: PATTERN }] }],
  ['a list for a patterned column, even of a matching value', { given: input('PATCH', { Code: ['NL-001'] }, '4'), status: 422, message: 'Validation failed', details: [{ field: 'Code', message: PATTERN }] }],
  ['an object for a patterned column', { given: input('PATCH', { Code: { v: 'NL-001' } }, '4'), status: 422, message: 'Validation failed', details: [{ field: 'Code', message: PATTERN }] }],
  ['kinds known: wrong JSON types, each named', { given: input('PATCH', { Code: 12, Capacity: 'lots', IsActive: 'yes' }, '4'), kinds: KINDS, status: 422, message: 'Validation failed',
    details: [{ field: 'Code', message: 'Code must be a string' }, { field: 'Capacity', message: 'Capacity must be a number' }, { field: 'IsActive', message: 'IsActive must be true or false' }] }],
  ['kinds known: 1 for a boolean column', { given: input('PATCH', { IsActive: 1 }, '4'), kinds: KINDS, status: 422, message: 'Validation failed', details: [{ field: 'IsActive', message: 'IsActive must be true or false' }] }],
  ['kinds known: a list for a number column', { given: input('PATCH', { Capacity: [1] }, '4'), kinds: KINDS, status: 422, message: 'Validation failed', details: [{ field: 'Capacity', message: 'Capacity must be a number' }] }],
  ['no body', { given: input('POST', undefined), status: 400, message: 'Request body cannot be empty' }],
  ['{}', { given: input('POST', {}), status: 400, message: 'Request body cannot be empty' }],
  ['an array', { given: input('POST', [{ Code: 'x' }]), status: 400, message: 'Request body must be a JSON object' }],
  ['a string', { given: input('POST', 'x'), status: 400, message: 'Request body must be a JSON object' }],
  ['the same column twice (alias and db name)', { given: input('PATCH', { Name: 'a', WarehouseName: 'b' }, '1'), status: 422, message: 'Validation failed',
    details: [{ field: 'WarehouseName', message: 'Name is given more than once' }] }],
  ['PUT without required columns', { given: input('PUT', { City: 'x' }, '1'), status: 422, message: 'Validation failed',
    details: [{ field: 'Code', message: 'Code is required' }, { field: 'Name', message: 'Name is required' }] }],
  ['PATCH blanking a required column', { given: input('PATCH', { Name: null }, '1'), status: 422, message: 'Validation failed', details: [{ field: 'Name', message: 'Name is required' }] }],
  ['key disagreement', { given: input('PATCH', { WarehouseId: 2, City: 'x' }, '1'), status: 400, message: 'The WarehouseId in the body does not match the key in the URL' }],
  ['PATCH without key', { given: input('PATCH', { City: 'x' }), status: 400, message: 'ID field is required for this operation' }],
  ['DELETE without key', { given: input('DELETE', undefined), status: 400, message: 'ID field is required for this operation' }],
  ['a key that is too long', { given: input('DELETE', undefined, 'x'.repeat(401)), status: 400, message: 'Invalid key: length must be 1 to 400 characters' }],
];

describe('validateWrite accepts', () => {
  it.each(accepted)('%s', (_name, { given, kinds, want }) => {
    const v = validateWrite(W, given, kinds);
    expect({
      values: v.values.map((c) => `${c.column}=${c.value.type}:${String(c.value.value)}`),
      key: v.key === null ? null : `${v.key.type}:${String(v.key.value)}`,
    }).toEqual(want);
  });
});

describe('validateWrite refuses', () => {
  it.each(refused)('%s', (_name, { given, kinds, status, message, details }) => {
    let error: unknown;
    try {
      validateWrite(W, given, kinds);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    const e = error as WharfError;
    expect({ status: e.status, message: e.message, details: e.details }).toEqual({ status, message, details });
  });
});

describe('typedValue', () => {
  it.each([
    [null, { type: 'string', value: null }],
    [true, { type: 'boolean', value: true }],
    [2_147_483_648, { type: 'bigint', value: 2_147_483_648 }],
    [2 ** 53, 'is a number outside the supported range'],
    [-0.5, { type: 'decimal', value: '-0.5' }],
  ] as const)('%s', (value, want) => {
    expect(typedValue(value)).toEqual(want);
  });
});
