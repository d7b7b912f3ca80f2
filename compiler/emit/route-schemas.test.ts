import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { EndpointModel, SqlEndpoint } from '../../runtime/contract/index.js';
import { byCategory, countries, customers, invoices, products, shipments } from './__golden__/models.js';
import { buildRouteSchemas, itemSchema, listSchema, queryBodySchema, writeBodySchema, type ColumnTypes } from './route-schemas.js';
import type { SnapshotColumn } from '../../runtime/contract/db-snapshot.js';

const ajv = new Ajv({ strict: true, allErrors: true });

describe('buildRouteSchemas: which schemas an endpoint gets', () => {
  const cases: [string, { given: EndpointModel; want: Record<'queryBody' | 'writeBody' | 'item' | 'list', boolean> }][] = [
    ['SQL with every method', { given: products, want: { queryBody: true, writeBody: true, item: true, list: true } }],
    ['SQL GET only', { given: customers, want: { queryBody: false, writeBody: false, item: true, list: true } }],
    ['SQL with QUERY only added', { given: { ...customers, methods: ['GET', 'QUERY'] }, want: { queryBody: true, writeBody: false, item: true, list: true } }],
    ['SQL with PATCH only as write', { given: { ...customers, methods: ['PATCH'] }, want: { queryBody: false, writeBody: true, item: true, list: true } }],
    ['SQL DELETE needs no body', { given: { ...customers, methods: ['GET', 'DELETE'] }, want: { queryBody: false, writeBody: false, item: true, list: true } }],
    ['Static with QUERY', { given: countries, want: { queryBody: true, writeBody: false, item: false, list: false } }],
    ['Proxy passes bodies through', { given: shipments, want: { queryBody: false, writeBody: false, item: false, list: false } }],
    ['Files', { given: invoices, want: { queryBody: false, writeBody: false, item: false, list: false } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const schemas = buildRouteSchemas(given);
    expect({
      queryBody: schemas.queryBody !== null,
      writeBody: schemas.writeBody !== null,
      item: schemas.item !== null,
      list: schemas.list !== null,
    }).toEqual(want);
  });
});

describe('itemSchema', () => {
  const cases: [string, { given: SqlEndpoint; want: string[] }][] = [
    ['aliases, Remove drops, Rename renames, relationship added', { given: products, want: ['ProductId', 'Name', 'UnitPrice', 'Category'] }],
    ['Mask keeps the field', { given: customers, want: ['Id', 'Email'] }],
    ['table-valued functions have no navigation properties', { given: { ...byCategory, relationships: products.relationships }, want: ['ProductId', 'Name'] }],
    ['Remove wins over Rename', { given: { ...customers, responseTransforms: { remove: ['Email'], rename: { Email: 'Mail' }, mask: ['Email'] } }, want: ['Id'] }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(Object.keys(itemSchema(given).properties as object)).toEqual(want);
  });

  it('describes ToMany relationships as arrays', () => {
    const model: SqlEndpoint = { ...products, relationships: [{ ...products.relationships[0]!, multiplicity: 'ToMany' }] };
    expect((itemSchema(model).properties as Record<string, unknown>).Category).toMatchObject({ type: 'array' });
  });
});

describe('the schemas validate what the spec says (Ajv, draft-07)', () => {
  const list = ajv.compile(listSchema(itemSchema(products)));
  const query = ajv.compile(queryBodySchema());
  const write = ajv.compile(writeBodySchema(products));
  const cases: [string, { validate: (v: unknown) => boolean; given: unknown; want: boolean }][] = [
    ['list: last page', { validate: list, given: { success: true, count: 1, value: [{ ProductId: 1, Name: null }], nextLink: null }, want: true }],
    ['list: next page', { validate: list, given: { success: true, count: 0, value: [], nextLink: '/api/dev/x?$top=1&$skip=1' }, want: true }],
    ['list: success false', { validate: list, given: { success: false, count: 0, value: [], nextLink: null }, want: false }],
    ['list: nextLink missing', { validate: list, given: { success: true, count: 0, value: [] }, want: false }],
    ['list: row not an object', { validate: list, given: { success: true, count: 1, value: [3], nextLink: null }, want: false }],
    ['query: all fields', { validate: query, given: { select: 'Name', filter: 'Price gt 1', orderby: 'Name', top: 1000, skip: 0 }, want: true }],
    ['query: empty body', { validate: query, given: {}, want: true }],
    ['query: top above 1000', { validate: query, given: { top: 1001 }, want: false }],
    ['query: negative skip', { validate: query, given: { skip: -1 }, want: false }],
    ['query: $-prefixed name', { validate: query, given: { $top: 1 }, want: false }],
    ['write: exposed names', { validate: write, given: { Name: 'x', Price: 2 }, want: true }],
    ['write: database name of an aliased column', { validate: write, given: { ProductName: 'x' }, want: false }],
  ];
  it.each(cases)('%s', (_name, { validate, given, want }) => {
    expect(validate(given)).toBe(want);
  });
});

describe('writeBodySchema per write method', () => {
  const model: SqlEndpoint = {
    ...products,
    requiredColumns: ['ProductName'],
    columnValidation: [{ column: 'ProductId', regex: '^[0-9]+$', message: null }],
  };
  const cases: [string, { kind: 'create' | 'replace' | 'update'; body: unknown; valid: boolean }][] = [
    ['POST needs the required column', { kind: 'create', body: { Price: 1 }, valid: false }],
    ['POST with it', { kind: 'create', body: { Name: 'x' }, valid: true }],
    ['PUT needs it too', { kind: 'replace', body: { ProductId: '1' }, valid: false }],
    ['PATCH does not', { kind: 'update', body: { Price: 2 }, valid: true }],
    ['PATCH with nothing', { kind: 'update', body: {}, valid: false }],
    ['pattern applies to strings', { kind: 'update', body: { ProductId: 'x1' }, valid: false }],
    ['a validated column takes a string or null', { kind: 'update', body: { ProductId: null }, valid: true }],
    ['unknown property', { kind: 'update', body: { Colour: 'red' }, valid: false }],
  ];
  it.each(cases)('%s', (_name, { kind, body, valid }) => {
    const schema = writeBodySchema(model, kind);
    expect(ajv.validate(schema, body)).toBe(valid);
  });

  it('names required columns by their exposed name and carries the default pattern message', () => {
    const schema = writeBodySchema(model, 'create') as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(['Name']);
    expect(schema.properties['ProductId']).toEqual({ type: ['string', 'null'], pattern: '^[0-9]+$', description: 'ProductId does not match the required format' });
  });
});

describe('with the database snapshot: typed columns', () => {
  const catalogue: Record<string, SnapshotColumn> = {
    ProductId: { name: 'ProductId', type: 'integer', nullable: false, identity: true },
    ProductName: { name: 'ProductName', type: 'character varying', nullable: false, maxLength: 40 },
    UnitPrice: { name: 'UnitPrice', type: 'numeric', nullable: false, precision: 10, scale: 2 },
    CostPrice: { name: 'CostPrice', type: 'numeric', nullable: true, default: '0' },
  };
  const types: ColumnTypes = (db) => catalogue[db];
  const model: SqlEndpoint = { ...products, requiredColumns: [], columnValidation: [], responseTransforms: { remove: [], rename: {}, mask: [] } };
  // OpenAPI's formats (int32, decimal) are annotations here
  const typedAjv = new Ajv({ strict: true, allErrors: true, validateFormats: false });

  it('types every item property: type, format, nullable, maxLength, readOnly for identity', () => {
    expect(itemSchema(model, types).properties).toMatchObject({
      ProductId: { type: 'integer', format: 'int32', readOnly: true },
      Name: { type: 'string', maxLength: 40 },
      Price: { type: 'number', format: 'decimal' },
      Cost: { type: ['number', 'null'], format: 'decimal' },
    });
  });

  it('a POST body requires the NOT NULL columns the database does not fill; PATCH requires none', () => {
    const create = writeBodySchema(model, 'create', types) as { required: string[] };
    expect(create.required).toEqual(['Name', 'Price']);
    expect((writeBodySchema(model, 'update', types) as { required?: string[] }).required).toBeUndefined();
  });

  const cases: [string, { body: unknown; valid: boolean }][] = [
    ['a string in an integer column', { body: { Name: 'x', Price: 1, ProductId: 'seven' }, valid: false }],
    ['null in a NOT NULL column', { body: { Name: null, Price: 1 }, valid: false }],
    ['null in a nullable column', { body: { Name: 'x', Price: 1, Cost: null }, valid: true }],
    ['a string longer than the column', { body: { Name: 'x'.repeat(41), Price: 1 }, valid: false }],
  ];
  it.each(cases)('POST body: %s', (_name, { body, valid }) => {
    expect(typedAjv.validate(writeBodySchema(model, 'create', types), body)).toBe(valid);
  });

  it('a masked column is the mask text; without a snapshot nothing changes', () => {
    const masked: SqlEndpoint = { ...model, responseTransforms: { ...model.responseTransforms, mask: ['Cost'] } };
    expect((itemSchema(masked, types).properties as Record<string, unknown>)['Cost']).toEqual({ type: 'string', const: '***', description: 'Masked by ResponseTransforms.' });
    expect(itemSchema(model)).toEqual(itemSchema(model, () => undefined));
    expect((itemSchema(model).properties as Record<string, unknown>)['Price']).toEqual({});
  });
});
