/**
 * Proxy CustomProperties strings parse (`FROM:TO,...`, `METHOD:Header=Value,...`), and a
 * QueryParameter delete pattern names its Parameter.
 */
import type { Diagnostic } from '../../diagnostics.js';
import type { ProxyConfig } from '../../model/config.js';
import { parseAppendHeaders, parseMethodTranslation } from '../../model/proxy-methods.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export const proxyCustomPropertiesRule: EntityRule = {
  name: 'proxy-custom-properties',
  scope: 'entity',
  codes: ['method-translation-invalid', 'append-headers-invalid', 'delete-pattern-parameter'],
  kinds: ['proxy'],
  check(ctx) {
    const config = ctx.config as unknown as ProxyConfig;
    const out: Diagnostic[] = [];
    const custom = config.CustomProperties ?? {};
    if (custom.HttpMethodTranslation !== undefined) {
      for (const problem of parseMethodTranslation(custom.HttpMethodTranslation).problems) {
        out.push(
          error(ctx, 'method-translation-invalid', '/CustomProperties/HttpMethodTranslation', `HttpMethodTranslation: ${problem}`, {
            hint: 'Write comma-separated FROM:TO pairs, e.g. "PUT:POST,MERGE:PATCH".',
          }),
        );
      }
    }
    if (custom.HttpMethodAppendHeaders !== undefined) {
      for (const problem of parseAppendHeaders(custom.HttpMethodAppendHeaders).problems) {
        out.push(
          error(ctx, 'append-headers-invalid', '/CustomProperties/HttpMethodAppendHeaders', `HttpMethodAppendHeaders: ${problem}`, {
            hint: 'Write comma-separated METHOD:Header=Value items, e.g. "PUT:X-Original-Method={ORIGINAL_METHOD}".',
          }),
        );
      }
    }
    (config.DeletePatterns ?? []).forEach((p, i) => {
      if (p.Style === 'QueryParameter' && p.Parameter === undefined) {
        out.push(
          error(ctx, 'delete-pattern-parameter', pointer('', 'DeletePatterns', i), 'A QueryParameter delete pattern needs a Parameter', {
            hint: 'Parameter is the query parameter name: {Url}?{Parameter}={id}.',
          }),
        );
      }
    });
    return out;
  },
};
