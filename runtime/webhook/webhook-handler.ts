/**
 * Webhook endpoints: `POST /api/{env}/{namespace}/{name}/{webhookId}` stores one record
 * `{WebhookId, Payload (the JSON text as received), ReceivedAt (UTC now)}` in the endpoint's
 * table through the environment's database (the SQL drivers), with the same per-dialect compiler
 * as SQL writes, so the statement is portable: PostgreSQL/PGlite `INSERT ... RETURNING "Id"`,
 * SQL Server `INSERT ... OUTPUT INSERTED.[Id] VALUES ...`. Answers 200
 * `{success:true, message:"Webhook processed successfully.", result:null, id:<new Id>}`.
 * Only POST reaches this handler (the method stage answers 405 with Allow for the rest).
 */
import type { WebhookEndpoint } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import type { EndpointHandler, HandlerContext } from '../handlers/handler-context.js';
import { mediaType } from '../pipeline/stages.js';
import { compilerFor } from '../sql/compile/dialect.js';
import { rowValue, SqlDriverError } from '../sql/drivers/driver.js';
import type { SqlDrivers } from '../sql/drivers/factory.js';
import type { InsertPlan } from '../sql/write-plan.js';

/** Width of the WebhookId column in the documented DDL. */
export const MAX_WEBHOOK_ID_LENGTH = 255;

/** The configured id matching `id` (case-insensitive); any id when none are configured; null = unknown. */
export function allowedWebhookId(endpoint: WebhookEndpoint, id: string): string | null {
  if (endpoint.webhookIds.length === 0) return id;
  const lower = id.toLowerCase();
  return endpoint.webhookIds.find((w) => w.toLowerCase() === lower) ?? null;
}

export function webhookInsert(endpoint: WebhookEndpoint, webhookId: string, payload: string, receivedAt: Date): InsertPlan {
  return {
    target: { schema: endpoint.schema, object: endpoint.objectName },
    values: [
      { column: 'WebhookId', value: { type: 'string', value: webhookId } },
      { column: 'Payload', value: { type: 'string', value: payload } },
      { column: 'ReceivedAt', value: { type: 'datetime', value: receivedAt.toISOString() } },
    ],
    returning: [{ column: 'Id', name: 'Id' }],
  };
}

function payloadText(ctx: HandlerContext<'webhook'>): string {
  const body = ctx.request.body;
  if (Buffer.isBuffer(body)) {
    throw new WharfError('REQUEST_UNSUPPORTED_MEDIA_TYPE', { contentType: mediaType(ctx.request.headers['content-type']) });
  }
  if (body === undefined) throw new WharfError('WEBHOOK_BODY_NOT_JSON');
  return ctx.request.wharfRawBody ?? JSON.stringify(body);
}

export function createWebhookHandler(drivers: SqlDrivers): EndpointHandler<'webhook'> {
  return async (ctx) => {
    const endpoint = ctx.endpoint.model;
    if (ctx.target.kind !== 'item') throw new WharfError('WEBHOOK_ID_REQUIRED');
    const requested = ctx.target.id;
    if (requested.length > MAX_WEBHOOK_ID_LENGTH) {
      throw new WharfError('ROUTING_INVALID_PATH_SEGMENT', { reason: `a webhook id is at most ${MAX_WEBHOOK_ID_LENGTH} characters` });
    }
    const webhookId = allowedWebhookId(endpoint, requested);
    if (webhookId === null) throw new WharfError('WEBHOOK_ID_NOT_CONFIGURED', { id: requested });
    const payload = payloadText(ctx);
    const env = ctx.environment;
    const driver = await drivers.get(env.name, env);
    const q = compilerFor(env.provider).compileInsert(webhookInsert(endpoint, webhookId, payload, new Date()));
    ctx.timing.start('sql');
    try {
      const rows = await driver.query(q.sql, q.params);
      return { success: true, message: 'Webhook processed successfully.', result: null, id: rowValue(rows[0], 'Id') ?? null };
    } catch (error) {
      if (error instanceof SqlDriverError && error.kind === 'connection') {
        ctx.request.log.error({ event: 'sql.connection_failed', environment: env.name, provider: env.provider, code: error.code, err: error.message }, 'database unreachable');
      }
      throw error;
    } finally {
      ctx.timing.end('sql');
    }
  };
}
