/** Webhook endpoints need a namespace (spec: Directory layout). */
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const webhookNamespaceRule: EntityRule = {
  name: 'webhook-namespace',
  scope: 'entity',
  codes: ['webhook-namespace-required'],
  kinds: ['webhook'],
  evenIfSchemaInvalid: true,
  check(ctx) {
    if (ctx.namespace !== null) return [];
    return [
      error(ctx, 'webhook-namespace-required', '', 'Webhook endpoints require a namespace', {
        wholeFile: true,
        hint: `Move the folder to endpoints/Webhooks/<Namespace>/${ctx.name}/entity.json or set Namespace.`,
      }),
    ];
  },
};
