/**
 * Optional, with Redis configured: a revoke or rotate on one instance is published on
 * `<prefix>token-changed`, and every instance drops its cached verification of that token at
 * once, instead of after its verification cache TTL (Auth:VerificationCacheSeconds). Messages
 * carry only the numeric token id. Without Redis (or when a message is lost) the TTL still bounds
 * how long a revoked token keeps working elsewhere.
 */
import type { RedisLink } from '../traffic/redis-client.js';

export interface RevocationBus {
  /** Settles when the subscription is in place or Redis is found unreachable (see RedisLink.subscribe). */
  readonly ready: Promise<void>;
  announce(tokenId: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Publishes on the link's connection (shared with rate limits/cache); subscribes on a duplicate of
 * it, since a subscribed connection can do nothing else. Neither waits for Redis: the subscription
 * is made (again) each time the duplicate is ready, so it survives Redis being down at start or
 * restarting; an announcement while Redis is unavailable fails at once (the TTL applies).
 */
export function startRevocationBus(link: RedisLink, keyPrefix: string, onChanged: (tokenId: number) => void): RevocationBus {
  const channel = `${keyPrefix}token-changed`;
  const subscriber = link.subscribe(channel, (message) => {
    if (/^\d+$/.test(message)) onChanged(Number(message));
  });
  return {
    ready: subscriber.ready,
    async announce(tokenId: number): Promise<void> {
      await link.redis.publish(channel, String(tokenId));
    },
    async close(): Promise<void> {
      subscriber.close();
    },
  };
}
