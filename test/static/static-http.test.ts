/**
 * Static endpoints through buildServer with real content files on disk: raw bytes with validators,
 * Range and HEAD; Accept negotiation (406 text); in-memory OData over JSON, XML and CSV answered in
 * the source format; QUERY; a content file edited on disk is picked up.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

const COUNTRIES = [
  { code: 'DE', name: 'Germany', region: 'Europe', population: 83200000 },
  { code: 'FR', name: 'France', region: 'Europe', population: 68100000 },
  { code: 'JP', name: 'Japan', region: 'Asia', population: 124500000 },
  { code: 'KE', name: 'Kenya', region: 'Africa', population: 55100000 },
  { code: 'NL', name: 'Netherlands', region: 'Europe', population: 17900000 },
];
const CSV = 'code,name,kind,factor\r\nkg,Kilogram,mass,1000\r\ng,Gram,mass,1\r\nm,Metre,length,100\r\ncm,"Centi, metre",length,1\r\n';
const XML = '<?xml version="1.0"?>\n<catalog><title>x</title><book id="b1"><title>Dune</title><year>1965</year></book><book id="b2"><title>Emma</title><year>1815</year></book><book id="b3"><title>Ulysses</title><year>1922</year></book></catalog>\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const FILTER = { methods: ['GET', 'QUERY'] as const };
/** One endpoint folder (endpoints/content/) holds every content file: the runtime refuses a ContentFile outside its endpoint folder. */
const IN_CONTENT = { sourceFile: 'endpoints/content/entity.json' };
const ENDPOINTS = [
  { kind: 'static' as const, routePath: 'Ref/Countries', ...FILTER, overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/countries.json', contentType: 'application/json', enableFiltering: true } },
  { kind: 'static' as const, routePath: 'Ref/Wrapped', ...FILTER, overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/wrapped.json', contentType: 'application/json', enableFiltering: true } },
  { kind: 'static' as const, routePath: 'Ref/Units', ...FILTER, overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/units.csv', contentType: 'text/csv', enableFiltering: true } },
  { kind: 'static' as const, routePath: 'Ref/Books', ...FILTER, overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/books.xml', contentType: 'application/xml', enableFiltering: true } },
  { kind: 'static' as const, routePath: 'Ref/Raw', overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/countries.json', contentType: 'application/json', enableFiltering: false } },
  {
    kind: 'static' as const,
    routePath: 'Ref/Masked',
    ...FILTER,
    overrides: {
      ...IN_CONTENT, contentFile: 'endpoints/content/countries.json',
      contentType: 'application/json',
      enableFiltering: true,
      responseTransforms: { remove: ['region'], rename: { name: 'countryName' }, mask: ['population'] },
    },
  },
  {
    kind: 'static' as const,
    routePath: 'Ref/MaskedCsv',
    overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/units.csv', contentType: 'text/csv', enableFiltering: false, responseTransforms: { remove: ['kind'], rename: {}, mask: ['factor'] } },
  },
  { kind: 'static' as const, routePath: 'Ref/Logo', overrides: { ...IN_CONTENT, contentFile: 'endpoints/content/logo.png', contentType: 'image/png', enableFiltering: false } },
];

let server: TestServer;
let content: string;

async function get(url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET') {
  return server.inject({ method, url, headers });
}

beforeAll(async () => {
  server = await createTestServer({
    generated: { endpoints: ENDPOINTS },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { IpLimit: 100000, TokenLimit: 100000 }, Caching: { Enabled: false } },
  });
  content = path.join(server.project.root, 'endpoints', 'content');
  await fs.mkdir(content, { recursive: true });
  await fs.writeFile(path.join(content, 'countries.json'), JSON.stringify(COUNTRIES, null, 2));
  await fs.writeFile(path.join(content, 'wrapped.json'), JSON.stringify({ version: 1, items: COUNTRIES.slice(0, 2) }));
  await fs.writeFile(path.join(content, 'units.csv'), CSV);
  await fs.writeFile(path.join(content, 'books.xml'), XML);
  await fs.writeFile(path.join(content, 'logo.png'), PNG);
});
afterAll(async () => server.close());

describe('raw content', () => {
  it('serves the bytes with Content-Type, ETag, Last-Modified and Accept-Ranges', async () => {
    const res = await get('/api/demo/Ref/Raw');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(JSON.stringify(COUNTRIES, null, 2));
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['last-modified']).toBeDefined();
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await get('/api/demo/Ref/Raw', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('an image: bytes, type, Range and HEAD', async () => {
    const res = await get('/api/demo/Ref/Logo');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const part = await get('/api/demo/Ref/Logo', { range: 'bytes=1-3' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('PNG');
    expect(part.headers['content-range']).toBe(`bytes 1-3/${PNG.length}`);
    expect(part.headers['x-content-type-options']).toBe('nosniff');
    const none = await get('/api/demo/Ref/Logo', { range: 'bytes=999-' });
    expect(none.statusCode).toBe(416);
    expect(none.headers['content-range']).toBe(`bytes */${PNG.length}`);
    const head = await get('/api/demo/Ref/Logo', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(PNG.length));
    expect(head.body).toBe('');
  });

  it('a filtering endpoint without query options serves the raw file too', async () => {
    const res = await get('/api/demo/Ref/Countries');
    expect(res.body).toBe(JSON.stringify(COUNTRIES, null, 2));
  });

  it('query options on an endpoint without EnableFiltering are a 400', async () => {
    const res = await get('/api/demo/Ref/Raw?$top=1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: 'Query options are not supported: this Static endpoint has EnableFiltering off' });
  });

  // The spec's method matrix: Static supports QUERY; without EnableFiltering it is the GET's answer.
  it.each([
    ['no body', undefined],
    ['an empty object', '{}'],
    ['only null fields', '{"filter":null}'],
  ])('QUERY with %s answers like the GET, with Content-Location', async (_name, payload) => {
    const res = await server.inject({
      method: 'QUERY' as 'GET',
      url: '/api/demo/Ref/Raw',
      headers: { 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload }),
    });
    const plain = await get('/api/demo/Ref/Raw');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(plain.body);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.etag).toBe(plain.headers.etag);
    expect(res.headers['content-location']).toBe('/api/demo/Ref/Raw');
  });

  it('QUERY on raw binary content answers the bytes; on transformed CSV the transformed records', async () => {
    const logo = await server.inject({ method: 'QUERY' as 'GET', url: '/api/demo/Ref/Logo', headers: { 'content-type': 'application/json' } });
    expect(logo.statusCode).toBe(200);
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    const csv = await server.inject({ method: 'QUERY' as 'GET', url: '/api/demo/Ref/MaskedCsv', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe((await get('/api/demo/Ref/MaskedCsv')).body);
  });

  it.each([
    ['a filter', '{"filter":"code eq \'DE\'"}', 'Query options are not supported: this Static endpoint has EnableFiltering off'],
    ['a page', '{"top":1}', 'Query options are not supported: this Static endpoint has EnableFiltering off'],
    ['an unknown field', '{"where":"x"}', "QUERY body: unknown field 'where'"],
  ])('QUERY asking for %s without EnableFiltering is a 400 saying so', async (_name, payload, error) => {
    const res = await server.inject({ method: 'QUERY' as 'GET', url: '/api/demo/Ref/Raw', headers: { 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });

  it.each([
    ['POST', 405],
  ] as const)('%s -> %i', async (method, status) => {
    expect((await get('/api/demo/Ref/Raw', {}, method)).statusCode).toBe(status);
  });

  it('a path below the endpoint is a 404', async () => {
    const res = await get('/api/demo/Ref/Raw/DE');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, error: 'Not found: /api/demo/Ref/Raw/DE' });
  });
});

describe('content negotiation', () => {
  it.each([
    ['application/json', 'Ref/Raw', 200],
    ['application/*', 'Ref/Raw', 200],
    ['*/*', 'Ref/Raw', 200],
    ['text/html, application/json;q=0.1', 'Ref/Raw', 200],
    ['image/*', 'Ref/Logo', 200],
    ['text/html', 'Ref/Raw', 406],
    ['application/json;q=0, */*', 'Ref/Raw', 406],
    ['*/*;q=0', 'Ref/Raw', 406],
    ['application/json', 'Ref/Logo', 406],
    ['text/html', 'Ref/Countries?$top=1', 406],
  ])('Accept %s on %s -> %i', async (accept, route, status) => {
    const res = await get(`/api/demo/${route}`, { accept });
    expect(res.statusCode).toBe(status);
    if (status === 406) {
      const type = route.startsWith('Ref/Logo') ? 'image/png' : 'application/json';
      expect(res.json()).toEqual({ success: false, error: `Endpoint provides '${type}' but client accepts '${accept}'` });
    }
  });
});

describe('filtering', () => {
  it('JSON: filter, orderby, select, paging and the total', async () => {
    const res = await get("/api/demo/Ref/Countries?$filter=region eq 'Europe' and population gt 20000000&$orderby=population desc&$select=code,population&$top=1");
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-records']).toBe('2');
    expect(res.json()).toEqual({
      success: true,
      count: 1,
      value: [{ code: 'DE', population: 83200000 }],
      nextLink: "/api/demo/Ref/Countries?$filter=region%20eq%20'Europe'%20and%20population%20gt%2020000000&$orderby=population%20desc&$select=code,population&$top=1&$skip=1",
    });
    const next = await get(res.json().nextLink);
    expect(next.json().value).toEqual([{ code: 'FR', population: 68100000 }]);
    expect(next.json().nextLink).toBeNull();
  });

  it.each([
    ["contains(name,'an')", ['DE', 'FR', 'JP', 'NL']],
    ["startswith(tolower(name),'n') or code in ('KE','JP')", ['JP', 'KE', 'NL']],
    ['not (population ge 60000000)', ['KE', 'NL']],
    ["length(name) eq 5 and endswith(name,'a')", ['KE']],
    ['population gt 1e8', ['JP']],
  ])('JSON $filter=%s', async (filter, codes) => {
    const res = await get(`/api/demo/Ref/Countries?$filter=${encodeURIComponent(filter)}&$select=code`);
    expect(res.statusCode).toBe(200);
    expect(res.json().value.map((row: { code: string }) => row.code)).toEqual(codes);
  });

  it.each([
    ['$filter=nope eq 1', "$filter: unknown column 'nope' at position 1"],
    ['$orderby=nope', 'Invalid orderby field: nope'],
    ['$select=code,nope', "$select: unknown column 'nope' at position 6"],
    ['$top=1001', '$top cannot exceed 1000'],
    ['$skip=-1', '$skip cannot be negative'],
    ['$expand=x', '$expand is not supported on Static endpoints'],
    ['$search=x', "Unsupported query option '$search'"],
  ])('JSON ?%s -> 400', async (query, error) => {
    const res = await get(`/api/demo/Ref/Countries?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });

  it('JSON under a wrapper key', async () => {
    const res = await get('/api/demo/Ref/Wrapped?$select=code');
    expect(res.json().value).toEqual([{ code: 'DE' }, { code: 'FR' }]);
  });

  it('QUERY with a JSON body answers like the GET, with Content-Location', async () => {
    const res = await server.inject({
      method: 'QUERY' as 'GET',
      url: '/api/demo/Ref/Countries',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ filter: "region eq 'Asia'", select: 'code,name' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().value).toEqual([{ code: 'JP', name: 'Japan' }]);
    expect(res.headers['content-location']).toBe("/api/demo/Ref/Countries?$filter=region%20eq%20'Asia'&$select=code,name&$top=100&$skip=0");
  });

  it('CSV: typed columns, the answer is CSV', async () => {
    const res = await get('/api/demo/Ref/Units?$filter=factor ge 100&$orderby=factor desc');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['x-total-records']).toBe('2');
    expect(res.body).toBe('code,name,kind,factor\r\nkg,Kilogram,mass,1000\r\nm,Metre,length,100\r\n');
    const quoted = await get("/api/demo/Ref/Units?$filter=kind eq 'length'&$select=name&$orderby=name");
    expect(quoted.body).toBe('name\r\n"Centi, metre"\r\nMetre\r\n');
  });

  it('XML: the repeating element, the answer is XML', async () => {
    const res = await get('/api/demo/Ref/Books?$filter=year lt 1950&$orderby=year&$select=id,title');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['x-total-records']).toBe('2');
    expect(res.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<catalog>\n  <book>\n    <id>b2</id>\n    <title>Emma</title>\n  </book>\n  <book>\n    <id>b3</id>\n    <title>Ulysses</title>\n  </book>\n</catalog>\n',
    );
  });

  it('an edited content file is picked up on the next request', async () => {
    const file = path.join(content, 'wrapped.json');
    await fs.writeFile(file, JSON.stringify({ items: [{ code: 'XX' }] }));
    const time = new Date(Date.now() + 5000);
    await fs.utimes(file, time, time);
    const res = await get('/api/demo/Ref/Wrapped?$select=code');
    expect(res.json().value).toEqual([{ code: 'XX' }]);
  });
});

describe('ResponseTransforms', () => {
  it('the raw answer is the transformed records in the source format', async () => {
    const res = await get('/api/demo/Ref/Masked');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()[0]).toEqual({ code: 'DE', countryName: 'Germany', population: '***' });
    const csv = await get('/api/demo/Ref/MaskedCsv');
    expect(csv.body).toBe('code,name,factor\r\nkg,Kilogram,***\r\ng,Gram,***\r\nm,Metre,***\r\ncm,"Centi, metre",***\r\n');
  });

  it('filtered answers are transformed; $select of a masked field shows the mask', async () => {
    const res = await get("/api/demo/Ref/Masked?$filter=code eq 'JP'&$select=code,name,population");
    expect(res.json().value).toEqual([{ code: 'JP', countryName: 'Japan', population: '***' }]);
  });

  it.each([
    ['$filter=population gt 100000000', "$filter: column 'population' is masked in responses and cannot be filtered on at position 1"],
    ["$filter=region eq 'Asia'", "$filter: column 'region' is removed from responses and cannot be filtered on at position 1"],
    ['$orderby=population', "$orderby: column 'population' is masked in responses and cannot be used for ordering at position 1"],
  ])('a hidden field is no oracle: ?%s -> 400', async (query, error) => {
    const res = await get(`/api/demo/Ref/Masked?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });
});

describe('$apply (aggregation) over JSON content, in memory', () => {
  it('groupby with aggregates, $orderby on an alias, paged with nextLink', async () => {
    const apply = 'filter(population gt 20000000)/groupby((region),aggregate(population with sum as people,population with max as largest,code with countdistinct as codes,$count as countries))';
    const res = await get(`/api/demo/Ref/Countries?$apply=${encodeURIComponent(apply)}&$orderby=people desc&$top=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      count: 2,
      value: [
        { region: 'Europe', people: 151300000, largest: 83200000, codes: 2, countries: 2 },
        { region: 'Asia', people: 124500000, largest: 124500000, codes: 1, countries: 1 },
      ],
      nextLink: `/api/demo/Ref/Countries?$apply=${encodeURIComponent(apply).replace(/%2C/g, ',').replace(/%24/g, '$')}&$orderby=people%20desc&$top=2&$skip=2`,
    });
    const next = await get(res.json().nextLink);
    expect(next.json().value).toEqual([{ region: 'Africa', people: 55100000, largest: 55100000, codes: 1, countries: 1 }]);
    expect(next.json().nextLink).toBeNull();
  });

  it('aggregate without groupby: one row', async () => {
    const res = await get(`/api/demo/Ref/Countries?$apply=${encodeURIComponent('aggregate(population with average as avg,$count as n)')}`);
    expect(res.json()).toEqual({ success: true, count: 1, value: [{ avg: 69760000, n: 5 }], nextLink: null });
  });

  it.each([
    ['groupby((region),aggregate(population with median as m))', "$apply: unknown aggregation method 'median'; use sum, average, min, max, countdistinct at position 44"],
    ['groupby((region)', "$apply: expected ')', found the end at position 17"],
    ['groupby((colour))', "$apply: unknown column 'colour' at position 10"],
  ])('$apply=%s is a 400', async (apply, error) => {
    const res = await get(`/api/demo/Ref/Countries?$apply=${encodeURIComponent(apply)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error });
  });

  it('a masked field cannot be aggregated', async () => {
    const res = await get(`/api/demo/Ref/Masked?$apply=${encodeURIComponent('aggregate(population with sum as p)')}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, error: "$apply: column 'population' is masked in responses and cannot be aggregated at position 11" });
  });
});
