import { describe, expect, it } from 'vitest';
import type { AuthorizationRule } from '../../contract/model.js';
import { principalOf } from '../tokens.js';
import { selectRule } from './select-rule.js';

const rule = (scopes: string[], methods: AuthorizationRule['methods']): AuthorizationRule => ({
  scopes, methods, rowFilter: null, rowFilterAst: null, columns: null, forwardClaims: {},
});
const ADMIN = rule(['orders.admin'], ['GET', 'QUERY']);
const READ = rule(['orders.read', 'orders.eu'], ['GET', 'QUERY']);
const WRITE = rule(['orders.write'], null);
const RULES = { rules: [ADMIN, READ, WRITE] };

function principal(allowedScopes: string) {
  return principalOf({ id: 1, username: 'u', description: '', createdAt: 0, expiresAt: null, revokedAt: null, allowedScopes, allowedEnvironments: '*', lookupId: 'x', tokenHash: 'x' } as never);
}

describe('selectRule', () => {
  it.each([
    ['first matching rule wins', 'orders.admin,orders.read,orders.eu', 'GET', ADMIN],
    ['every scope of the rule is needed', 'orders.read', 'GET', null],
    ['all of them, any case', 'ORDERS.READ,orders.eu', 'QUERY', READ],
    ['methods select', 'orders.admin', 'POST', null],
    ['no Methods: every method', 'orders.write', 'DELETE', WRITE],
    ['HEAD and OPTIONS count as GET', 'orders.read,orders.eu', 'HEAD', READ],
    ['OPTIONS', 'orders.admin', 'OPTIONS', ADMIN],
    ['scope * holds every scope', '*', 'POST', WRITE],
    ['read/write are not rule scopes', 'read,write', 'GET', null],
  ])('%s', (_name, scopes, method, want) => {
    expect(selectRule(RULES, principal(scopes), method)).toBe(want);
  });
});
