/** The database objects the SQL endpoints (object and write procedure) and Webhook endpoints (table) name, and their schemas. */
import type { SqlConfig, WebhookConfig } from '../model/config.js';
import { DEFAULTS } from '../model/defaults.js';
import type { EntityContext } from '../stages.js';

export interface UsedObject {
  readonly schema: string;
  readonly name: string;
}

/** `sales.SaveOrder` -> {schema: sales, name: SaveOrder}; a bare name is in the endpoint's schema. */
export function splitQualified(text: string, schema: string): UsedObject {
  const unquote = (s: string): string => s.trim().replace(/^\[(.*)\]$/, '$1').replace(/^"(.*)"$/, '$1');
  const dot = text.lastIndexOf('.');
  return dot < 0 ? { schema, name: unquote(text) } : { schema: unquote(text.slice(0, dot)), name: unquote(text.slice(dot + 1)) };
}

export function usedObjects(contexts: readonly EntityContext[]): UsedObject[] {
  const out = new Map<string, UsedObject>();
  const add = (o: UsedObject): void => void out.set(`${o.schema}.${o.name}`, o);
  for (const ctx of contexts) {
    if (ctx.kind === 'webhook') {
      const w = ctx.config as unknown as WebhookConfig;
      if (typeof w.DatabaseObjectName === 'string') add({ schema: w.DatabaseSchema ?? DEFAULTS.webhook.DatabaseSchema, name: w.DatabaseObjectName });
      continue;
    }
    if (ctx.kind !== 'sql') continue;
    const c = ctx.config as unknown as SqlConfig;
    if (typeof c.DatabaseObjectName !== 'string') continue;
    const schema = c.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema;
    add({ schema, name: c.DatabaseObjectName });
    if (typeof c.Procedure === 'string') add(splitQualified(c.Procedure, schema));
  }
  return [...out.values()].sort((a, b) => (`${a.schema}.${a.name}` < `${b.schema}.${b.name}` ? -1 : 1));
}

export function usedSchemas(contexts: readonly EntityContext[]): string[] {
  return [...new Set(usedObjects(contexts).map((o) => o.schema))].sort();
}
