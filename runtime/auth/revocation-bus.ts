/**
 * Optional, with Redis configured: a revoke or rotate on one instance is published on
 * `<prefix>token-changed`, and every instance drops its cached verification of that token at
 * once, instead of after its verification cache TTL (Auth:VerificationCacheSeconds). Messages
 * carry only the numeric token id. Without Redis (or when a message is lost) the TTL still bounds
 * how long a revoked token keeps working elsewhere.
 */
import type { Redis } from 'ioredis';

export interface RevocationBus {
  announce(tokenId: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `publisher` is an open connection (shared with rate limits/cache is fine); a duplicate of it is
 * used for the subscription, since a subscribed connection can do nothing else.
 */
export async function startRevocationBus(
  publisher: Redis,
  keyPrefix: string,
  onChanged: (tokenId: number) => void,
): Promise<RevocationBus> {
  const channel = `${keyPrefix}token-changed`;
  const subscriber = publisher.duplicate({ lazyConnect: true, enableOfflineQueue: true });
  await subscriber.connect();
  subscriber.on('message', (received: string, message: string) => {
    if (received !== channel || !/^\d+$/.test(message)) return;
    onChanged(Number(message));
  });
  await subscriber.subscribe(channel);
  return {
    async announce(tokenId: number): Promise<void> {
      await publisher.publish(channel, String(tokenId));
    },
    async close(): Promise<void> {
      subscriber.disconnect();
    },
  };
}
