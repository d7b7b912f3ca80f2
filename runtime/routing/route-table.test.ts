import { describe, expect, it } from 'vitest';
import { WharfError } from '../errors/wharf-error.js';
import { joinEndpoints } from '../load/load-generated.js';
import { endpointModel, routeModuleFor } from '../testing/generated-fixture.js';
import type { EndpointSpec } from '../testing/generated-fixture.js';
import { RouteTable } from './route-table.js';

function table(specs: readonly EndpointSpec[]): RouteTable {
  const models = specs.map(endpointModel);
  return RouteTable.build({ sourceHash: 'h', endpoints: joinEndpoints(models, models.map(routeModuleFor)), openapi: null });
}

describe('RouteTable.resolve', () => {
  const routes = table([
    { kind: 'sql', routePath: 'WMS/Bins' },
    { kind: 'sql', routePath: 'WMS/Inbound/StagingBins' },
    { kind: 'sql', routePath: 'Bins' },
    { kind: 'proxy', routePath: 'Ext/Api' },
    { kind: 'composite', routePath: 'Flows/Order', aliases: ['composite/Order'] },
  ]);
  it.each([
    [['WMS', 'Inbound', 'StagingBins'], 'sql:WMS/Inbound/StagingBins', { kind: 'collection' }],
    [['WMS', 'Bins', 'Inbound'], 'sql:WMS/Bins', { kind: 'item', id: 'Inbound' }],
    [['wms', 'bins'], 'sql:WMS/Bins', { kind: 'collection' }],
    [['Bins', 'WMS'], 'sql:Bins', { kind: 'item', id: 'WMS' }],
    [['Ext', 'Api', 'a', 'B', 'c'], 'proxy:Ext/Api', { kind: 'subpath', segments: ['a', 'B', 'c'] }],
    [['COMPOSITE', 'order'], 'composite:Flows/Order', { kind: 'collection' }],
  ])('%j', (segments, id, target) => {
    const match = routes.resolve(segments);
    expect(match && { id: match.endpoint.id, target: match.target }).toEqual({ id, target });
  });

  it.each([[['WMS']], [['WMS', 'Bins', '1', '2']], [['Nope']], [[]], [['Flows', 'Order', 'x', 'y']]])('%j does not resolve', (segments) => {
    expect(routes.resolve(segments)).toBeNull();
  });

  it('refuses two endpoints claiming one route key', () => {
    expect(() =>
      table([
        { kind: 'sql', routePath: 'A/B' },
        { kind: 'proxy', routePath: 'a/b' },
      ]),
    ).toThrow(new WharfError('LOAD_ROUTE_KEY_CONFLICT', { key: 'a/b', first: 'sql:A/B', second: 'proxy:a/b' }).message);
  });

  it('is immutable', () => {
    expect(Object.isFrozen(routes)).toBe(true);
    expect(Object.isFrozen(routes.endpoints)).toBe(true);
  });
});
