/** Table test of the OpenAPI diff: each row a base and head document and the exact changes. */
import { describe, expect, it } from 'vitest';
import { diffOpenApi, formatChange, hasBreaking } from './diff.js';

const ORDER = {
  type: 'object',
  properties: { Id: { type: 'integer' }, Status: { type: 'string', enum: ['open', 'shipped'] }, Total: { type: ['number', 'null'] } },
  required: ['Id'],
};
const INPUT = { type: 'object', properties: { Status: { type: 'string', maxLength: 20 }, Note: { type: 'string' } }, required: ['Status'] };

/** A 3.2 document with GET, POST and QUERY on /Orders; `edit` changes a copy. */
function doc(edit: (d: any) => void = () => {}): any {
  const d: any = {
    openapi: '3.2.0',
    info: { title: 't', version: '1' },
    paths: {
      '/Orders': {
        parameters: [{ $ref: '#/components/parameters/Env' }],
        get: {
          parameters: [{ name: '$top', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1000 } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } } }, '404': { description: 'no' } },
        },
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderInput' } } } },
          responses: { '201': { description: 'made', content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } } },
        },
        query: { responses: { '200': { description: 'ok' } } },
      },
    },
    components: {
      parameters: { Env: { name: 'env', in: 'path', required: true, schema: { type: 'string' } } },
      schemas: { Order: structuredClone(ORDER), OrderInput: structuredClone(INPUT) },
    },
  };
  edit(d);
  return d;
}

const cases: Array<[string, (d: any) => void, string[]]> = [
  ['no change', () => {}, []],
  ['a description only', (d) => (d.paths['/Orders'].get.responses['200'].description = 'rows'), []],
  ['removed column (response field)', (d) => delete d.components.schemas.Order.properties.Total, [
    'breaking    GET /Orders response 200 application/json: field [].Total removed',
    'breaking    POST /Orders response 201 application/json: field Total removed',
  ]],
  ['added column', (d) => (d.components.schemas.Order.properties.Sku = { type: 'string' }), [
    'compatible  GET /Orders response 200 application/json: field [].Sku added',
    'compatible  POST /Orders response 201 application/json: field Sku added',
  ]],
  ['removed operation', (d) => delete d.paths['/Orders'].post, ['breaking    POST /Orders: operation removed']],
  ['removed QUERY operation', (d) => delete d.paths['/Orders'].query, ['breaking    QUERY /Orders: operation removed']],
  ['added operation', (d) => (d.paths['/Orders'].delete = { responses: { '204': { description: 'gone' } } }), ['compatible  DELETE /Orders: operation added']],
  ['removed enum value', (d) => (d.components.schemas.Order.properties.Status.enum = ['open']), [
    'breaking    GET /Orders response 200 application/json: [].Status: enum value "shipped" removed',
    'breaking    POST /Orders response 201 application/json: Status: enum value "shipped" removed',
  ]],
  ['added enum value', (d) => d.components.schemas.Order.properties.Status.enum.push('lost'), [
    'compatible  GET /Orders response 200 application/json: [].Status: enum value "lost" added',
    'compatible  POST /Orders response 201 application/json: Status: enum value "lost" added',
  ]],
  ['narrowed input type', (d) => (d.paths['/Orders'].get.parameters[0].schema.type = 'boolean'), [
    'breaking    GET /Orders parameter query $top: type narrowed from integer to boolean',
  ]],
  ['integer input widened to number', (d) => (d.paths['/Orders'].get.parameters[0].schema.type = 'number'), [
    'compatible  GET /Orders parameter query $top: type changed from integer to number',
  ]],
  ['output type widened (null)', (d) => (d.components.schemas.Order.properties.Id.type = ['integer', 'null']), [
    'breaking    GET /Orders response 200 application/json: [].Id: type widened from integer to integer|null',
    'breaking    POST /Orders response 201 application/json: Id: type widened from integer to integer|null',
  ]],
  ['new required input field', (d) => {
    d.components.schemas.OrderInput.properties.Sku = { type: 'string' };
    d.components.schemas.OrderInput.required.push('Sku');
  }, ['breaking    POST /Orders request body application/json: new required field Sku']],
  ['optional input became required', (d) => d.components.schemas.OrderInput.required.push('Note'), [
    'breaking    POST /Orders request body application/json: field Note is now required',
  ]],
  ['new required parameter', (d) => d.paths['/Orders'].get.parameters.push({ name: 'tenant', in: 'query', required: true, schema: { type: 'string' } }), [
    'breaking    GET /Orders parameter query tenant: new required parameter',
  ]],
  ['new optional parameter', (d) => d.paths['/Orders'].get.parameters.push({ name: 'tenant', in: 'query', schema: { type: 'string' } }), [
    'compatible  GET /Orders parameter query tenant: optional parameter added',
  ]],
  ['removed parameter', (d) => (d.paths['/Orders'].get.parameters = []), ['breaking    GET /Orders parameter query $top: parameter removed']],
  ['stricter limit', (d) => (d.components.schemas.OrderInput.properties.Status.maxLength = 10), [
    'breaking    POST /Orders request body application/json: Status: maxLength changed from 20 to 10',
  ]],
  ['looser limit', (d) => (d.components.schemas.OrderInput.properties.Status.maxLength = 50), [
    'compatible  POST /Orders request body application/json: Status: maxLength changed from 20 to 50',
  ]],
  ['new limit on an input', (d) => (d.paths['/Orders'].get.parameters[0].schema.minimum = 1), [
    'breaking    GET /Orders parameter query $top: minimum changed from 0 to 1',
  ]],
  ['removed success response', (d) => delete d.paths['/Orders'].post.responses['201'], ['breaking    POST /Orders response 201: response removed']],
  ['removed error response', (d) => delete d.paths['/Orders'].get.responses['404'], ['compatible  GET /Orders response 404: response removed']],
  ['output field no longer required', (d) => (d.components.schemas.Order.required = []), [
    'breaking    GET /Orders response 200 application/json: field [].Id is no longer always present',
    'breaking    POST /Orders response 201 application/json: field Id is no longer always present',
  ]],
  ['QUERY described in the 3.1 extension counts as the same operation', (d) => {
    d.openapi = '3.1.1';
    d.paths['/Orders']['x-query'] = d.paths['/Orders'].query;
    delete d.paths['/Orders'].query;
  }, []],
];

describe('diffOpenApi', () => {
  it.each(cases)('%s', (_name, edit, want) => {
    const changes = diffOpenApi(doc(), doc(edit));
    expect(changes.map(formatChange)).toEqual(want);
    expect(hasBreaking(changes)).toBe(want.some((line) => line.startsWith('breaking')));
  });

  it('stops on a recursive schema', () => {
    const recursive = (d: any) => {
      d.components.schemas.Order.properties.Parent = { $ref: '#/components/schemas/Order' };
    };
    const head = doc((d) => {
      recursive(d);
      delete d.components.schemas.Order.properties.Status;
    });
    const lines = diffOpenApi(doc(recursive), head).map(formatChange);
    expect(lines).toContain('breaking    POST /Orders response 201 application/json: field Status removed');
    expect(lines.length).toBeLessThan(10);
  });

  it('refuses what is not a JSON object', () => {
    expect(() => diffOpenApi([], {})).toThrow('must be a JSON object');
  });
});
