import { describe, expect, it } from 'vitest';
import { resolveTemplate } from './templates.js';
import type { TemplateContext } from './templates.js';

const context: TemplateContext = {
  guid: 'g-1',
  requestId: 'r-1',
  variables: { environment: 'demo', requestId: 'r-1', clientIp: '10.0.0.9', username: 'alice' },
  results: new Map<string, unknown>([
    ['Create', { id: 7, items: [{ sku: 'a' }, { sku: 'b' }], nothing: null }],
    ['Labels', [{ labelId: 'L1' }]],
  ]),
};

describe('resolveTemplate', () => {
  it.each([
    ['$guid', { ok: true, value: 'g-1' }],
    ['$requestid', { ok: true, value: 'r-1' }],
    ['$context.environment', { ok: true, value: 'demo' }],
    ['$context.clientIp', { ok: true, value: '10.0.0.9' }],
    ['$context.username', { ok: true, value: 'alice' }],
    ['$prev.Create.id', { ok: true, value: 7 }],
    ['$prev.Create.items.1.sku', { ok: true, value: 'b' }],
    ['$prev.Create.nothing', { ok: true, value: null }],
    ['$prev.Labels.0.labelId', { ok: true, value: 'L1' }],
    ['$prev.Create', { ok: true, value: context.results.get('Create') }],
    ['literal text', { ok: true, value: 'literal text' }],
    ['$prev.Create.items.x', { ok: false, message: '$prev.Create.items.x resolved to nothing' }],
    ['$prev.Create.id.deeper', { ok: false, message: '$prev.Create.id.deeper resolved to nothing' }],
    ['$prev.Later.id', { ok: false, message: "$prev.Later.id: step 'Later' has no result yet" }],
    ['$context.secret', { ok: false, message: '$context.secret: unknown context variable (known: environment, requestId, clientIp, username)' }],
    ['$prev.Create.constructor', { ok: false, message: '$prev.Create.constructor resolved to nothing' }],
  ])('%s', (template, want) => {
    expect(resolveTemplate(template, context)).toEqual(want);
  });
});
