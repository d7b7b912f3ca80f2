/**
 * Proxy `Retry.Attempts` has a ceiling: each attempt is a request to the target (times every
 * FallbackUrl), so a huge count (10^9 passes the schema's minimum) would hold a request open and
 * hammer the target for as long as the client waits.
 */
import type { ProxyConfig } from '../../model/config.js';
import { error } from '../report.js';
import type { EntityRule } from '../rule.js';

/** Most tries per URL a Proxy endpoint may configure. */
export const MAX_RETRY_ATTEMPTS = 10;

export const retryAttemptsRule: EntityRule = {
  name: 'retry-attempts',
  scope: 'entity',
  codes: ['retry-attempts-limit'],
  kinds: ['proxy'],
  check(ctx) {
    const attempts = (ctx.config as unknown as ProxyConfig).Retry?.Attempts;
    if (attempts === undefined || attempts <= MAX_RETRY_ATTEMPTS) return [];
    return [
      error(ctx, 'retry-attempts-limit', '/Retry/Attempts', `Retry.Attempts ${attempts} is above the limit of ${MAX_RETRY_ATTEMPTS} tries per URL`, {
        hint: `Use 1 to ${MAX_RETRY_ATTEMPTS}; add FallbackUrls for more targets rather than more tries.`,
      }),
    ];
  },
};
