/**
 * The console's event feed: token_created, token_revoked, endpoint_reload, health,
 * environments_changed, settings_changed; and `traffic` (broadcast, see there). Every event gets an increasing id; the last
 * REPLAY_SIZE are kept for replay on Last-Event-ID. Listeners are called synchronously and must
 * not block (the SSE route only queues into each client's bounded buffer).
 * With Redis, events are also published on `<prefix>console-events` and events of other instances
 * are delivered here (each instance numbers the events it delivers itself).
 */
import type { RedisLink } from '../traffic/redis-client.js';
import { randomUUID } from 'node:crypto';

export interface ConsoleEvent {
  readonly id: number;
  readonly name: string;
  readonly data: unknown;
  /** A live reading (`traffic`): sent without an id, never replayed, never shared over Redis. */
  readonly transient?: true;
}

export type EventListener = (event: ConsoleEvent) => void;

export const REPLAY_SIZE = 200;

export class ConsoleEvents {
  private nextId = 1;
  private readonly buffer: ConsoleEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private publisher: ((name: string, data: unknown) => void) | null = null;

  /** Emits here and (with Redis) on every other instance. */
  emit(name: string, data: unknown): ConsoleEvent {
    const event = this.deliver(name, data);
    this.publisher?.(name, data);
    return event;
  }

  /** Delivers here only (events that arrived from another instance). */
  deliver(name: string, data: unknown): ConsoleEvent {
    const event: ConsoleEvent = { id: this.nextId++, name, data };
    this.buffer.push(event);
    if (this.buffer.length > REPLAY_SIZE) this.buffer.shift();
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /**
   * Sends to the open streams of this instance only, without an id: frequent readings must not
   * push real events out of the replay buffer, and a reconnecting client asks for fresh ones.
   */
  broadcast(name: string, data: unknown): void {
    const event: ConsoleEvent = { id: 0, name, data, transient: true };
    for (const listener of this.listeners) listener(event);
  }

  /** Events after `lastId` still in the buffer (oldest first). */
  since(lastId: number): ConsoleEvent[] {
    return this.buffer.filter((event) => event.id > lastId);
  }

  /** How many listeners (open event streams) there are. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shares events over Redis; returns the function that stops it. */
  shareOver(link: RedisLink, keyPrefix: string): () => void {
    const channel = `${keyPrefix}console-events`;
    const origin = randomUUID();
    const redis = link.redis;
    const subscriber = link.subscribe(channel, (message) => {
      try {
        const parsed = JSON.parse(message) as { origin: string; name: string; data: unknown };
        if (parsed.origin !== origin && typeof parsed.name === 'string') this.deliver(parsed.name, parsed.data);
      } catch {
        // not ours
      }
    });
    this.publisher = (name, data) => {
      redis.publish(channel, JSON.stringify({ origin, name, data })).catch(() => undefined);
    };
    return () => {
      this.publisher = null;
      subscriber.disconnect();
    };
  }
}
