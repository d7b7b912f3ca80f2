import { describe, expect, it } from 'vitest';
import type { DbSnapshot } from '../../../runtime/contract/db-snapshot.js';
import type { EndpointModel, SqlEndpoint } from '../../../runtime/contract/index.js';
import { customers, goldenModels, shipments } from '../__golden__/models.js';
import { emitOpenApiFiles, type OpenApiFragments } from './fragments.js';

const fresh = (previous: OpenApiFragments['previous'] = new Map()): OpenApiFragments => ({ previous, next: new Map(), made: 0 });

/** `count` SQL endpoints of the benchmark's shape, in namespaces of 20. */
function sqlModels(count: number): SqlEndpoint[] {
  return Array.from({ length: count }, (_, i) => {
    const routePath = `Area${Math.floor(i / 20)}/Items${i}`;
    return { ...customers, id: `sql:${routePath}`, routePath, namespace: `Area${Math.floor(i / 20)}`, displayName: `Items${i}`, objectName: `Table${i}` };
  });
}

describe('openapi.json from per-endpoint fragments', () => {
  it.each([
    ['the golden models', goldenModels],
    ['60 SQL endpoints', sqlModels(60)],
  ] as const)('%s: the very bytes of the whole build, every fragment made once', (_name, models) => {
    const fragments = fresh();
    expect(emitOpenApiFiles(models, null, fragments)).toEqual(emitOpenApiFiles(models, null));
    expect(fragments.next.size).toBe(models.filter((m) => !m.hidden).length);
    expect(fragments.made).toBe(fragments.next.size);
  });

  it('after one entity changed, only its fragments are made again, and the bytes are those of a fresh build', () => {
    const before = sqlModels(60);
    const first = fresh();
    emitOpenApiFiles(before, null, first);
    const after: EndpointModel[] = before.map((m, i) => (i === 7 ? { ...m, columns: m.columns.map((c) => ({ ...c, name: `${c.name}2` })) } : m));
    const second = fresh(first.next);
    const files = emitOpenApiFiles(after, null, second);
    expect(second.made).toBe(1);
    expect(files).toEqual(emitOpenApiFiles(after, null));
    expect(files).not.toEqual(emitOpenApiFiles(before, null));
    // a new display name of the namespace changes the tag of its 20 endpoints: those 20 are made again
    const renamed = after.map((m) => (m.namespace === 'Area1' ? { ...m, namespaceDisplayName: 'Second area' } : m));
    const third = fresh(second.next);
    expect(emitOpenApiFiles(renamed, null, third)).toEqual(emitOpenApiFiles(renamed, null));
    expect(third.made).toBe(20);
  });

  it('follows the database snapshot object of an SQL endpoint', () => {
    const models = sqlModels(3);
    const snapshot = (type: string): DbSnapshot => ({
      dialect: 'postgres',
      format: 1,
      objects: {
        [`${customers.schema}.Table1`]: { type: 'Table', primaryKey: [], columns: customers.columns.map((c) => ({ name: c.db, type, nullable: true })) },
      },
    }) as unknown as DbSnapshot;
    const first = fresh();
    expect(emitOpenApiFiles(models, snapshot('integer'), first)).toEqual(emitOpenApiFiles(models, snapshot('integer')));
    const second = fresh(first.next);
    expect(emitOpenApiFiles(models, snapshot('text'), second)).toEqual(emitOpenApiFiles(models, snapshot('text')));
    expect(second.made).toBe(1);
  });

  it('builds the documents whole where endpoints interact (a shared path), with the same bytes', () => {
    const reads: SqlEndpoint = { ...customers, methods: ['GET'] };
    const writes = { ...shipments, id: 'proxy:Customers', routePath: 'Customers', namespace: customers.namespace, methods: ['POST'] } as const;
    const whole = emitOpenApiFiles([reads, writes], null);
    expect(JSON.parse(whole[0]?.content as string).paths['/api/{env}/Customers']).toHaveProperty('post'); // the shared path item
    const fragments = fresh();
    expect(emitOpenApiFiles([reads, writes], null, fragments)).toEqual(whole);
    expect(fragments.next.size).toBe(0);
  });

  it('builds the documents whole when a text holds the placeholder, with the same bytes', () => {
    const odd = { ...customers, displayName: '\u0000wharf-fragment:0' };
    const fragments = fresh();
    expect(emitOpenApiFiles([odd], null, fragments)).toEqual(emitOpenApiFiles([odd], null));
  });
});
