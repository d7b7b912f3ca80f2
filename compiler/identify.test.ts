import { describe, expect, it } from 'vitest';
import { entity } from './validate/entity-fixture.js';

describe('identify', () => {
  const cases: [string, { where: string; config: Record<string, unknown>; want: Record<string, unknown> }][] = [
    ['namespaced SQL', { where: 'SQL/Inventory/Products', config: {}, want: { kind: 'sql', namespace: 'Inventory', namespaceSource: 'directory', routePath: 'Inventory/Products', routeAliases: [] } }],
    ['legacy SQL', { where: 'SQL/Customers', config: {}, want: { kind: 'sql', namespace: null, namespaceSource: 'none', routePath: 'Customers', routeAliases: [] } }],
    ['nested folders', { where: 'SQL/Sales/Reports/OrderSummary', config: {}, want: { namespace: 'Sales/Reports', routePath: 'Sales/Reports/OrderSummary' } }],
    ['explicit namespace wins', { where: 'SQL/Sales/Orders', config: { Namespace: 'Shop' }, want: { namespace: 'Shop', namespaceSource: 'explicit', routePath: 'Shop/Orders' } }],
    ['empty explicit namespace falls back', { where: 'SQL/Sales/Orders', config: { Namespace: '' }, want: { namespace: 'Sales', namespaceSource: 'directory' } }],
    ['proxy', { where: 'Proxy/Weather', config: { Url: 'http://x' }, want: { kind: 'proxy', routePath: 'Weather', routeAliases: [] } }],
    ['namespaced composite', { where: 'Proxy/Shipping/Ship', config: { Type: 'Composite' }, want: { kind: 'composite', routePath: 'Shipping/Ship', routeAliases: [] } }],
    ['legacy composite gets alias', { where: 'Proxy/Ship', config: { Type: 'Composite' }, want: { kind: 'composite', routePath: 'Ship', routeAliases: ['composite/Ship'] } }],
    ['misspelt Type is still composite', { where: 'Proxy/Ship', config: { Type: 'composite' }, want: { kind: 'composite' } }],
    ['static', { where: 'Static/Reference/Units', config: {}, want: { kind: 'static', routePath: 'Reference/Units' } }],
    ['webhook', { where: 'Webhooks/Integrations/Payments', config: {}, want: { kind: 'webhook', routePath: 'Integrations/Payments' } }],
    ['files namespaced', { where: 'Files/Documents/Invoices', config: {}, want: { kind: 'files', routePath: 'files/Documents/Invoices' } }],
    ['files legacy', { where: 'Files/Invoices', config: {}, want: { kind: 'files', routePath: 'files/Invoices', namespace: null } }],
  ];
  it.each(cases)('%s', (_name, { where, config, want }) => {
    const ctx = entity(where, config);
    expect(Object.fromEntries(Object.keys(want).map((k) => [k, (ctx as unknown as Record<string, unknown>)[k]]))).toEqual(want);
  });
});
