import { describe, expect, it } from 'vitest';
import { customers, products, shipOrder, invoices, byCategory } from './__golden__/models.js';
import { buildRouteModule, escapeSegment, routeKeys, routeModulePath } from './route-module.js';

describe('routeModulePath', () => {
  const cases: [string, { given: Parameters<typeof routeModulePath>[0]; want: string }][] = [
    ['namespaced SQL', { given: products, want: 'routes/sql/Inventory/Products.ts' }],
    ['legacy SQL', { given: customers, want: 'routes/sql/Customers.ts' }],
    ['files keep their files/ route prefix', { given: invoices, want: 'routes/files/files/Documents/Invoices.ts' }],
    ['unsafe segments are escaped', { given: { ...customers, routePath: '../x y/.' }, want: 'routes/sql/%2E%2E/x%20y/%2E.ts' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => expect(routeModulePath(given)).toBe(want));
});

describe('escapeSegment', () => {
  const cases: [string, string][] = [
    ['Products', 'Products'],
    ['a_b-c9', 'a_b-c9'],
    ['..', '%2E%2E'],
    ['a/b', 'a%2Fb'],
    ['é', '%C3%A9'],
    ['', '%'],
  ];
  it.each(cases)('%j -> %j', (given, want) => expect(escapeSegment(given)).toBe(want));
});

describe('routeKeys', () => {
  it('lower-cases the route path and the aliases', () => {
    expect(routeKeys(shipOrder)).toEqual(['shipping/shiporder', 'composite/shiporder']);
  });
  it('drops an alias equal to the path but for case', () => {
    expect(routeKeys({ ...customers, routeAliases: ['CUSTOMERS'] })).toEqual(['customers']);
  });
});

describe('buildRouteModule', () => {
  it('precomputes the SQL column maps from the aliases', () => {
    const module = buildRouteModule(products);
    expect(module).toMatchObject({
      endpointId: 'sql:Inventory/Products',
      kind: 'sql',
      columnsByName: { ProductId: 'ProductId', Name: 'ProductName', Price: 'UnitPrice', Cost: 'CostPrice' },
      namesByColumn: { ProductId: 'ProductId', ProductName: 'Name', UnitPrice: 'Price', CostPrice: 'Cost' },
      defaultSelect: ['ProductId', 'Name', 'Price', 'Cost'],
      supportsExpand: true,
    });
  });
  it('table-valued functions do not support $expand', () => {
    expect(buildRouteModule(byCategory)).toMatchObject({ kind: 'sql', supportsExpand: false });
  });
  it('generic modules carry no SQL fields', () => {
    expect(Object.keys(buildRouteModule(shipOrder)).sort()).toEqual(['endpointId', 'kind', 'methods', 'routeKeys', 'schemas']);
  });
});
