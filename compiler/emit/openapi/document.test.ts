import { Validator } from '@seriousme/openapi-schema-validator';
import type { OpenAPIObject, OperationObject, PathItemObject } from 'openapi3-ts/oas32';
import { describe, expect, it } from 'vitest';
import type { EndpointModel } from '../../../runtime/contract/index.js';
import { countries, customers, goldenModels, invoices, paymentEvents, products, shipments } from '../__golden__/models.js';
import { buildOpenApi } from './document.js';

/** The validator's input type (not exported by the package). */
type SpecData = Record<string, unknown>;

const doc = buildOpenApi(goldenModels);
const FIXED = ['get', 'put', 'post', 'delete', 'patch', 'query'] as const;

interface Op {
  readonly path: string;
  readonly method: string;
  readonly op: OperationObject;
}

function operations(document: OpenAPIObject): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {}) as [string, PathItemObject][]) {
    for (const key of FIXED) if (item[key]) out.push({ path, method: key.toUpperCase(), op: item[key] });
    for (const [method, op] of Object.entries(item.additionalOperations ?? {})) out.push({ path, method, op });
  }
  return out;
}

const ops = operations(doc);
const find = (path: string, method: string): OperationObject => {
  const hit = ops.find((o) => o.path === path && o.method === method);
  if (!hit) throw new Error(`no ${method} ${path}`);
  return hit.op;
};
const codes = (op: OperationObject): string[] => Object.keys(op.responses ?? {}).sort();
const paramNames = (op: OperationObject): string[] =>
  (op.parameters ?? []).map((p) => ('$ref' in p ? p.$ref.split('/').pop() ?? '' : p.name));

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.2 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as SpecData);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.2');
  });

  it('the validity check can fail (a path item with a bogus operation)', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, unknown>> };
    broken.paths['/api/{env}/Customers'] = { get: { responses: 'none' } };
    expect((await new Validator().validate(broken as unknown as SpecData)).valid).toBe(false);
  });

  it('states the fixed header facts', () => {
    expect(doc).toMatchObject({
      openapi: '3.2.0',
      info: { title: 'Wharf API', version: '1.0.0' },
      servers: [{ url: '/' }],
      security: [{ bearerAuth: [] }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    });
  });

  it('leaves hidden endpoints out, with their namespace tag', () => {
    expect(Object.keys(doc.paths ?? {}).filter((p) => p.includes('AuditTrail'))).toEqual([]);
    expect(doc.tags?.map((t) => t.name)).not.toContain('Internal');
  });

  it('marks every operation of a deprecated endpoint, and only those', () => {
    const deprecated = ops.filter((o) => o.op.deprecated === true).map((o) => `${o.method} ${o.path}`);
    expect(deprecated.sort()).toEqual(['GET /api/{env}/Customers', 'GET /api/{env}/Customers/{id}']);
  });

  const methodCases: [string, { path: string; want: string[] }][] = [
    ['SQL collection', { path: '/api/{env}/Inventory/Products', want: ['DELETE', 'GET', 'POST', 'QUERY'] }],
    ['SQL by id (MERGE as additional operation)', { path: '/api/{env}/Inventory/Products/{id}', want: ['DELETE', 'GET', 'MERGE', 'PATCH', 'PUT'] }],
    ['TVF with a Path parameter, no by-id path', { path: '/api/{env}/Inventory/ProductsByCategory/{CategoryId}', want: ['GET'] }],
    ['Proxy', { path: '/api/{env}/Shipping/Shipments', want: ['GET', 'MERGE', 'POST'] }],
    ['Proxy DELETE by id', { path: '/api/{env}/Shipping/Shipments/{id}', want: ['DELETE'] }],
    ['Static', { path: '/api/{env}/Reference/Countries', want: ['GET', 'QUERY'] }],
    ['Composite', { path: '/api/{env}/Shipping/ShipOrder', want: ['POST'] }],
    ['Webhook', { path: '/api/{env}/Integrations/PaymentEvents/{webhookId}', want: ['POST'] }],
    ['Files collection', { path: '/api/{env}/files/Documents/Invoices', want: ['GET', 'POST'] }],
    ['Files item', { path: '/api/{env}/files/Documents/Invoices/{fileId}', want: ['DELETE', 'GET'] }],
  ];
  it.each(methodCases)('methods: %s', (_name, { path, want }) => {
    expect(ops.filter((o) => o.path === path).map((o) => o.method).sort()).toEqual(want);
    expect(doc.paths?.[path]?.parameters?.[0]).toEqual({ $ref: '#/components/parameters/Environment' });
  });

  const errorCases: [string, { path: string; method: string; want: string[] }][] = [
    ['SQL read', { path: '/api/{env}/Inventory/Products', method: 'GET', want: ['200', '400', '401', '403', '404', '429', '500', '503'] }],
    ['SQL write', { path: '/api/{env}/Inventory/Products', method: 'POST', want: ['201', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503'] }],
    ['SQL query', { path: '/api/{env}/Inventory/Products', method: 'QUERY', want: ['200', '400', '401', '403', '404', '415', '429', '500', '503'] }],
    ['Proxy', { path: '/api/{env}/Shipping/Shipments', method: 'POST', want: ['200', '400', '401', '403', '404', '429', '500', '503'] }],
    ['Static', { path: '/api/{env}/Reference/Countries', method: 'GET', want: ['200', '400', '401', '403', '404', '406', '429', '500', '503'] }],
    ['Composite', { path: '/api/{env}/Shipping/ShipOrder', method: 'POST', want: ['200', '400', '401', '403', '404', '422', '429', '500', '503'] }],
    ['Webhook', { path: '/api/{env}/Integrations/PaymentEvents/{webhookId}', method: 'POST', want: ['200', '400', '401', '403', '404', '413', '415', '429', '500', '503'] }],
    ['Files upload', { path: '/api/{env}/files/Documents/Invoices', method: 'POST', want: ['201', '400', '401', '403', '404', '409', '413', '415', '429', '500', '503'] }],
    ['Files download', { path: '/api/{env}/files/Documents/Invoices/{fileId}', method: 'GET', want: ['200', '206', '304', '400', '401', '403', '404', '416', '429', '500', '503'] }],
  ];
  it.each(errorCases)('responses: %s', (_name, { path, method, want }) => {
    expect(codes(find(path, method))).toEqual(want);
  });

  it('shared error responses carry the Error body; 429 and 503 document Retry-After', () => {
    const responses = doc.components?.responses ?? {};
    expect(responses.ServiceUnavailable).toMatchObject({ headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } });
    expect(responses.TooManyRequests).toMatchObject({ headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } });
    expect(responses.InternalServerError).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: 'Error processing. Please check the logs for more details.' } } },
    });
    expect(doc.components?.schemas?.Error).toMatchObject({ required: ['success', 'error'], properties: { success: { enum: [false] } } });
  });

  const paramCases: [string, { path: string; method: string; want: string[] }][] = [
    ['SQL table GET: OData with $expand and $apply; masked/removed columns inline $filter and $orderby', { path: '/api/{env}/Inventory/Products', method: 'GET', want: ['Select', '$filter', '$orderby', 'Top', 'Skip', 'Count', 'Expand', 'Apply'] }],
    ['TVF GET: OData without $expand, plus Query parameters', { path: '/api/{env}/Inventory/ProductsByCategory/{CategoryId}', method: 'GET', want: ['Select', 'Filter', 'OrderBy', 'Top', 'Skip', 'Count', 'MinPrice'] }],
    ['Static with EnableFiltering (and $apply)', { path: '/api/{env}/Reference/Countries', method: 'GET', want: ['Select', 'Filter', 'OrderBy', 'Top', 'Skip', 'Count', 'Apply'] }],
    ['Static without filtering', { path: '/api/{env}/Reference/Logo', method: 'GET', want: [] }],
    ['Proxy with SupportsOData', { path: '/api/{env}/Shipping/Shipments', method: 'GET', want: ['Select', 'Filter', 'OrderBy', 'Top', 'Skip', 'Count'] }],
    ['Proxy POST', { path: '/api/{env}/Shipping/Shipments', method: 'POST', want: [] }],
    ['SQL DELETE by query parameter', { path: '/api/{env}/Inventory/Products', method: 'DELETE', want: ['id'] }],
  ];
  it.each(paramCases)('parameters: %s', (_name, { path, method, want }) => {
    expect(paramNames(find(path, method))).toEqual(want);
  });

  it('says which columns $filter and $orderby refuse because a transform hides them', () => {
    const params = (find('/api/{env}/Inventory/Products', 'GET').parameters ?? []) as { name?: string; description?: string }[];
    const filter = params.find((p) => p.name === '$filter');
    expect(filter?.description).toMatch(/Not allowed: `\w+`.*masked or removed by ResponseTransforms/);
  });

  it('documents $top with its limit of 1000 and $skip as not negative', () => {
    expect(doc.components?.parameters?.Top).toMatchObject({ name: '$top', in: 'query', schema: { type: 'integer', maximum: 1000 } });
    expect(doc.components?.parameters?.Skip).toMatchObject({ name: '$skip', schema: { minimum: 0 } });
  });

  it('QUERY on a Static endpoint without EnableFiltering takes no options: an optional empty body', () => {
    const plain = buildOpenApi([{ ...countries, enableFiltering: false, methods: ['GET', 'QUERY'] }]);
    expect(plain.paths?.['/api/{env}/Reference/Countries']?.query?.requestBody).toEqual({
      required: false,
      description: 'None, or `{}`: EnableFiltering is off, so QUERY answers like GET; a query option is a 400.',
      content: { 'application/json': { schema: { type: 'object', maxProperties: 0 } } },
    });
  });

  it('QUERY takes the shared JSON body; SQL lists reference the per-endpoint envelope', () => {
    expect(find('/api/{env}/Inventory/Products', 'QUERY').requestBody).toEqual({
      required: true,
      description: 'The query options, as the `$`-parameters of GET.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/QueryBody' } } },
    });
    expect(doc.components?.schemas?.['Inventory.Products.List']).toMatchObject({
      properties: { value: { type: 'array', items: { $ref: '#/components/schemas/Inventory.Products.Item' } } },
    });
  });

  it('uses titles, method descriptions and operationIds from the model', () => {
    const list = find('/api/{env}/Inventory/Products', 'GET');
    expect(list).toMatchObject({ summary: 'Products: list', description: 'List products.', operationId: 'get_Inventory_Products', tags: ['Inventory'] });
    expect(find('/api/{env}/Inventory/Products/{id}', 'MERGE')).toMatchObject({ operationId: 'merge_Inventory_Products_byId', description: 'Alias of PATCH.' });
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('webhook ids are an enum of the allow-list', () => {
    expect(doc.paths?.['/api/{env}/Integrations/PaymentEvents/{webhookId}']?.parameters?.[1]).toMatchObject({
      name: 'webhookId',
      in: 'path',
      schema: { type: 'string', enum: ['payment-failed', 'payment-succeeded'] },
    });
    const none = buildOpenApi([{ ...paymentEvents, webhookIds: [] }]);
    expect(none.paths?.['/api/{env}/Integrations/PaymentEvents/{webhookId}']?.parameters?.[1]).toMatchObject({ schema: { type: 'string' } });
  });

  it('files upload is multipart with the allowed media types', () => {
    expect(find('/api/{env}/files/Documents/Invoices', 'POST').requestBody).toMatchObject({
      content: { 'multipart/form-data': { encoding: { file: { contentType: 'application/pdf, image/jpeg, image/png' } } } },
    });
    expect(find('/api/{env}/files/Documents/Invoices', 'POST').description).toBe('Allowed extensions: `.jpg`, `.pdf`, `.png`.\n\nLargest accepted file: 10485760 bytes.');
  });

  const staticCases: [string, { given: EndpointModel; want: unknown }][] = [
    ['JSON content: any JSON value', { given: countries, want: { 'application/json': { schema: {} } } }],
    ['image content: raw bytes', { given: { ...countries, contentType: 'image/png' }, want: { 'image/png': {} } }],
    ['CSV content: text', { given: { ...countries, contentType: 'text/csv' }, want: { 'text/csv': { schema: { type: 'string' } } } }],
  ];
  it.each(staticCases)('static GET: %s', (_name, { given, want }) => {
    const op = operations(buildOpenApi([given])).find((o) => o.method === 'GET')?.op;
    expect(op?.responses?.['200']?.content).toEqual(want);
  });

  it('says when an endpoint is disabled', () => {
    const op = operations(buildOpenApi([{ ...shipments, enabled: false, methods: ['GET'] }]))[0]?.op;
    expect(op?.description).toBe('This endpoint is currently disabled: calls receive 503 with `Retry-After`.');
  });

  it('refuses two endpoints claiming one operation', () => {
    const clash = { ...shipments, id: 'proxy:Inventory/Products', routePath: 'Inventory/Products', methods: ['GET'] } as const;
    expect(() => buildOpenApi([products, clash])).toThrow(/two operations for GET/);
  });

  it('an empty model set is still a valid document', async () => {
    const empty = buildOpenApi([]);
    expect(empty.paths).toEqual({});
    expect((await new Validator().validate(structuredClone(empty) as unknown as SpecData)).valid).toBe(true);
  });

  it('depends only on the models (hidden endpoints change nothing)', () => {
    expect(buildOpenApi(goldenModels.filter((m) => !m.hidden))).toEqual(doc);
    expect(buildOpenApi([customers, invoices])).toEqual(buildOpenApi([invoices, customers]));
  });

  it('builds path items, operations, and the responses and bodies of SQL endpoints with their keys in canonical order (canonicalJson copies none of them)', () => {
    const inOrder = (object: object): boolean => {
      const keys = Object.keys(object).filter((k) => !/^(0|[1-9]\d*)$/.test(k)); // index keys: listed first by JavaScript itself
      return keys.every((k, i) => i === 0 || (keys[i - 1] as string) < k);
    };
    const items = Object.values(doc.paths ?? {}) as PathItemObject[];
    expect(items.filter((item) => !inOrder(item))).toEqual([]);
    expect(ops.filter(({ op }) => !inOrder(op)).map(({ path, method }) => `${method} ${path}`)).toEqual([]);
    const sql = operations(buildOpenApi(goldenModels.filter((m) => m.kind === 'sql'))).map(({ op }) => op);
    const parts = sql.flatMap((op) => [op.requestBody ?? {}, ...Object.values(op.responses ?? {})]);
    expect(parts.filter((part) => !inOrder(part))).toEqual([]);
  });
});
