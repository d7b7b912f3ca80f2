/** Which ids a webhook accepts, and its INSERT per dialect (executed in test/webhook/). */
import { describe, expect, it } from 'vitest';
import type { WebhookEndpoint } from '../contract/model.js';
import { mssqlCompiler } from '../sql/compile/dialects/mssql.js';
import { postgresCompiler } from '../sql/compile/dialects/postgres.js';
import { allowedWebhookId, webhookInsert } from './webhook-handler.js';

const hook = (ids: string[]) => ({ schema: 'integrations', objectName: 'WebhookEvents', webhookIds: ids }) as unknown as WebhookEndpoint;

describe('allowedWebhookId', () => {
  it.each([
    [['payment-succeeded'], 'PAYMENT-Succeeded', 'payment-succeeded'],
    [['payment-succeeded'], 'payment', null],
    [[], 'anything-at-all', 'anything-at-all'],
  ] as const)('%j accepts %s as %s', (ids, id, want) => {
    expect(allowedWebhookId(hook([...ids]), id)).toBe(want);
  });
});

describe('webhookInsert', () => {
  const plan = webhookInsert(hook([]), 'a', '{"x":1}', new Date('2026-01-02T03:04:05.678Z'));
  it.each([
    [postgresCompiler, 'INSERT INTO "integrations"."WebhookEvents" ("WebhookId", "Payload", "ReceivedAt") VALUES ($1, $2, $3) RETURNING "Id"'],
    [mssqlCompiler, 'INSERT INTO [integrations].[WebhookEvents] ([WebhookId], [Payload], [ReceivedAt]) OUTPUT INSERTED.[Id] VALUES (@p1, @p2, @p3)'],
  ] as const)('%#', (compiler, sql) => {
    const q = compiler.compileInsert(plan);
    expect(q.sql).toBe(sql);
    expect(q.params.map((p) => `${p.type}:${String(p.value)}`)).toEqual(['string:a', 'string:{"x":1}', 'datetime:2026-01-02T03:04:05.678Z']);
  });
});
