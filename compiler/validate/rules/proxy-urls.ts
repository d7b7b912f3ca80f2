/** Proxy and Composite Url and Proxy FallbackUrls are absolute http(s) URLs. */
import type { Diagnostic } from '../../diagnostics.js';
import { pointer } from '../pointer.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const HINT = 'Write an absolute URL with scheme and host, e.g. "http://inventory.internal:8080/api/items".';

export const proxyUrlsRule: EntityRule = {
  name: 'proxy-urls',
  scope: 'entity',
  codes: ['url-invalid'],
  kinds: ['proxy', 'composite'],
  check(ctx) {
    const out: Diagnostic[] = [];
    const url = ctx.config.Url;
    if (typeof url === 'string' && !isHttpUrl(url)) {
      out.push(error(ctx, 'url-invalid', '/Url', `Url '${url}' is not an absolute http or https URL`, { hint: HINT }));
    }
    const fallbacks = ctx.config.FallbackUrls;
    if (Array.isArray(fallbacks)) {
      fallbacks.forEach((u: string, i) => {
        if (!isHttpUrl(u)) {
          out.push(error(ctx, 'url-invalid', pointer('', 'FallbackUrls', i), `FallbackUrls entry '${u}' is not an absolute http or https URL`, { hint: HINT }));
        }
      });
    }
    return out;
  },
};
