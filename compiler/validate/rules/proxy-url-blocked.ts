/**
 * Warning: a Proxy/Composite `Url` or FallbackUrls entry names a literal address inside the network
 * access policy's blocked ranges; the runtime would answer 403 for it. (Host names are resolved
 * only at run time, so they are not checked here.)
 */
import { blockListOf, isBlockedAddress } from '../../../runtime/contract/network-ranges.js';
import type { Diagnostic } from '../../diagnostics.js';
import { pointer } from '../pointer.js';
import { warning } from '../report.js';
import type { EntityRule } from '../rule.js';

const HINT = 'The gateway refuses blocked targets with 403; point the Url elsewhere or change blockedIpRanges in environments/network-access-policy.json.';

function hostOf(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  try {
    return new URL(text).hostname;
  } catch {
    return null;
  }
}

export const proxyUrlBlockedRule: EntityRule = {
  name: 'proxy-url-blocked',
  scope: 'entity',
  codes: ['url-blocked'],
  kinds: ['proxy', 'composite'],
  check(ctx, project) {
    let list;
    try {
      list = blockListOf(project.blockedIpRanges);
    } catch {
      return [];
    }
    const out: Diagnostic[] = [];
    const urls: [string, unknown][] = [['/Url', ctx.config.Url]];
    const fallbacks = ctx.config.FallbackUrls;
    if (Array.isArray(fallbacks)) fallbacks.forEach((u: unknown, i) => urls.push([pointer('', 'FallbackUrls', i), u]));
    for (const [ptr, url] of urls) {
      const host = hostOf(url);
      if (host !== null && isBlockedAddress(list, host)) {
        out.push(warning(ctx, 'url-blocked', ptr, `${String(url)} is in a range the network access policy blocks`, { hint: HINT }));
      }
    }
    return out;
  },
};
