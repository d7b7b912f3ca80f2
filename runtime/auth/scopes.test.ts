import { describe, expect, it } from 'vitest';
import { environmentAllowed, parseEnvironments, parseScopes, scopeAllowsEndpoint, scopeAllowsMethod } from './scopes.js';
import type { EndpointIdentity } from './scopes.js';

const products: EndpointIdentity = { name: 'Products', namespace: 'Inventory', routePath: 'Inventory/Products' };
const orders: EndpointIdentity = { name: 'Orders', namespace: 'Sales', routePath: 'Sales/Orders' };
const legacy: EndpointIdentity = { name: 'Accounts', namespace: null, routePath: 'Accounts' };
const deep: EndpointIdentity = { name: 'Stock', namespace: 'Inventory/Eu', routePath: 'Inventory/Eu/Stock' };
const ENDPOINTS = { products, orders, legacy, deep };

// [scopes, method, endpoint, allowed]
const TABLE: [string, string, keyof typeof ENDPOINTS, boolean][] = [
  ['*', 'DELETE', 'orders', true],
  ['read', 'GET', 'products', true],
  ['read', 'HEAD', 'products', true],
  ['read', 'QUERY', 'orders', true],
  ['read', 'POST', 'products', false],
  ['read', 'DELETE', 'products', false],
  ['write', 'GET', 'products', false],
  ['write', 'POST', 'products', true],
  ['write', 'PUT', 'products', true],
  ['write', 'PATCH', 'products', true],
  ['write', 'MERGE', 'products', true],
  ['write', 'DELETE', 'products', true],
  ['read,write', 'MERGE', 'legacy', true],
  ['READ', 'get', 'legacy', true],
  ['Products', 'DELETE', 'products', true],
  ['products', 'GET', 'orders', false],
  ['Inventory/*', 'GET', 'products', true],
  ['Inventory/*', 'GET', 'deep', true],
  ['Inventory/*', 'GET', 'orders', false],
  ['inventory/products', 'POST', 'products', true],
  ['Prod*', 'GET', 'products', true],
  ['Prod*', 'GET', 'legacy', false],
  ['Acc*', 'GET', 'legacy', true],
  ['read,Inventory/*', 'GET', 'products', true],
  ['read,Inventory/*', 'POST', 'products', false],
  ['read,Inventory/*', 'GET', 'orders', false],
  ['write,Orders', 'POST', 'orders', true],
  ['write,Orders', 'GET', 'orders', false],
  ['read, *', 'DELETE', 'orders', true],
  ['', 'GET', 'products', false],
  [' , ', 'GET', 'products', false],
  ['Pro.ucts', 'GET', 'products', false],
];

describe('scopes', () => {
  it.each(TABLE)('%j allows %s on %s: %s', (scopes, method, endpoint, want) => {
    const set = parseScopes(scopes);
    const got = scopeAllowsMethod(set, method) && scopeAllowsEndpoint(set, ENDPOINTS[endpoint]);
    expect(got).toBe(want);
  });
});

const ENV_TABLE: [string, string, boolean][] = [
  ['*', 'prod', true],
  ['dev', 'dev', true],
  ['dev', 'DEV', true],
  ['dev,test', 'test', true],
  ['dev,test', 'prod', false],
  ['dev', 'development', false],
  ['dev*', 'development', true],
  ['', 'dev', false],
];

describe('environments', () => {
  it.each(ENV_TABLE)('%j allows %s: %s', (list, env, want) => {
    expect(environmentAllowed(parseEnvironments(list), env)).toBe(want);
  });
});
