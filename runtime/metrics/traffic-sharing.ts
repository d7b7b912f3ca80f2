/**
 * Several instances on one Redis: each writes its last hour (TrafficHistory.exportSlots) under
 * `<prefix>traffic:<instance>` every SHARE_INTERVAL_MS (expiring after SHARE_TTL_MS, so a stopped
 * instance drops out) and lists itself in the sorted set `<prefix>traffic:instances` (score: when
 * it last wrote). A console asking for the traffic reads every other live instance's slots and
 * adds them to its own (TrafficHistory.series). Another instance's numbers are at most
 * SHARE_INTERVAL_MS old. Redis down or slow (its command timeout): the instance's own numbers only,
 * never an error.
 */
import { randomUUID } from 'node:crypto';
import type { RedisLink } from '../traffic/redis-client.js';
import type { SlotExport, TrafficHistory } from './traffic-history.js';

export const SHARE_INTERVAL_MS = 5000;
const SHARE_TTL_MS = 30_000;

export class TrafficSharing {
  readonly #id = randomUUID();
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly history: TrafficHistory,
    private readonly link: RedisLink,
    private readonly keyPrefix: string,
    intervalMs = SHARE_INTERVAL_MS,
  ) {
    this.#timer = setInterval(() => void this.publish(), intervalMs);
    this.#timer.unref();
  }

  get #instances(): string {
    return `${this.keyPrefix}traffic:instances`;
  }

  #key(id: string): string {
    return `${this.keyPrefix}traffic:${id}`;
  }

  /** Writes this instance's slots (nothing when it had no traffic in the hour). */
  async publish(): Promise<void> {
    if (!this.link.available()) return;
    const slots = this.history.exportSlots();
    if (slots.length === 0) return;
    try {
      await this.link.redis
        .multi()
        .set(this.#key(this.#id), JSON.stringify(slots), 'PX', SHARE_TTL_MS)
        .zadd(this.#instances, Date.now(), this.#id)
        .exec();
    } catch (error) {
      this.link.failed(error);
    }
  }

  /** Every other live instance's slots ([] when Redis does not answer). */
  async others(): Promise<SlotExport[][]> {
    if (!this.link.available()) return [];
    try {
      const redis = this.link.redis;
      await redis.zremrangebyscore(this.#instances, '-inf', String(Date.now() - SHARE_TTL_MS));
      const ids = (await redis.zrange(this.#instances, '0', '-1')).filter((id) => id !== this.#id);
      if (ids.length === 0) return [];
      const values = await redis.mget(...ids.map((id) => this.#key(id)));
      const out: SlotExport[][] = [];
      for (const value of values) {
        if (value === null) continue;
        try {
          const parsed = JSON.parse(value) as unknown;
          if (Array.isArray(parsed)) out.push(parsed.filter((slot): slot is SlotExport => typeof slot === 'object' && slot !== null && Array.isArray((slot as SlotExport).a)));
        } catch {
          // not a history: left out
        }
      }
      return out;
    } catch (error) {
      this.link.failed(error);
      return [];
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
