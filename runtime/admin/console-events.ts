/**
 * The console's event feed: token_created, token_revoked, endpoint_reload, health,
 * environments_changed, settings_changed; and `traffic` (broadcast, see there). Every event gets an increasing id; the last
 * REPLAY_SIZE are kept for replay on Last-Event-ID. Listeners are called synchronously and must
 * not block (the SSE route only queues into each client's bounded buffer).
 *
 * With Redis the ids are global: one script numbers the event from one counter
 * (`<prefix>console-events:id`), keeps it in a shared log (`<prefix>console-events:log`, the last
 * REPLAY_SIZE) and publishes it on `<prefix>console-events`, atomically, so the channel carries
 * the events in id order; every instance (the emitting one too) delivers them from the channel. A
 * stream resumed on any instance replays from the shared log: it neither loses nor repeats an event.
 * `local()` events (endpoint_reload: this instance reloaded) get a global id too, but stay here.
 * When Redis fails, an event is delivered here without an id (a resume cannot name it).
 */
import type { Redis } from 'ioredis';
import type { RedisLink } from '../traffic/redis-client.js';

export interface ConsoleEvent {
  /** Absent for a live reading (`broadcast`: never replayed, never shared) or when Redis failed to number it. */
  readonly id?: number;
  readonly name: string;
  readonly data: unknown;
}

export type EventListener = (event: ConsoleEvent) => void;

export const REPLAY_SIZE = 200;

interface SharedLog {
  readonly redis: Redis;
  readonly counter: string;
  readonly log: string;
  readonly channel: string;
}

/** Numbers, logs and publishes one event atomically (ARGV: the JSON after its id, log size, share). */
const APPEND_SCRIPT = `
local id = redis.call('INCR', KEYS[1])
local text = '{"id":' .. id .. ',' .. ARGV[1]
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], id, text)
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -(tonumber(ARGV[2]) + 1))
  redis.call('PUBLISH', KEYS[3], text)
end
return id`;

/** A numbered event from Redis (the log or the channel), or null for anything else. */
function parseEvent(text: string): ConsoleEvent | null {
  try {
    const parsed = JSON.parse(text) as { id?: unknown; name?: unknown; data?: unknown };
    if (typeof parsed.id !== 'number' || typeof parsed.name !== 'string') return null;
    return { id: parsed.id, name: parsed.name, data: parsed.data };
  } catch {
    return null;
  }
}

export class ConsoleEvents {
  private nextId = 1;
  private readonly buffer: ConsoleEvent[] = [];
  private readonly listeners = new Set<EventListener>();
  private shared: SharedLog | null = null;

  /** Emits here and (with Redis) on every instance, this one included, in id order. */
  emit(name: string, data: unknown): void {
    this.append(name, data, true);
  }

  /** An event about this instance only (it is not sent to the others). */
  local(name: string, data: unknown): void {
    this.append(name, data, false);
  }

  private append(name: string, data: unknown, share: boolean): void {
    const shared = this.shared;
    if (!shared) {
      this.deliver({ id: this.nextId++, name, data });
      return;
    }
    // the event without its id: `{"id":N,` + this
    const rest = JSON.stringify({ name, data }).slice(1);
    shared.redis.eval(APPEND_SCRIPT, 3, shared.counter, shared.log, shared.channel, rest, REPLAY_SIZE, share ? '1' : '0').then(
      (id) => {
        if (!share) this.deliver({ id: Number(id), name, data }); // shared ones arrive on the channel
      },
      () => this.deliver({ name, data }),
    );
  }

  /** Delivers here only (also events that arrived from another instance). */
  private deliver(event: ConsoleEvent): void {
    if (event.id !== undefined) {
      this.buffer.push(event);
      if (this.buffer.length > REPLAY_SIZE) this.buffer.shift();
    }
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Sends to the open streams of this instance only, without an id: frequent readings must not
   * push real events out of the replay buffer, and a reconnecting client asks for fresh ones.
   */
  broadcast(name: string, data: unknown): void {
    const event: ConsoleEvent = { name, data };
    for (const listener of this.listeners) listener(event);
  }

  /** Events after `lastId`, oldest first: from the shared log with Redis, else (or when it fails) from this instance. */
  async since(lastId: number): Promise<ConsoleEvent[]> {
    const local = (): ConsoleEvent[] => this.buffer.filter((event) => event.id !== undefined && event.id > lastId);
    const shared = this.shared;
    if (!shared) return local();
    try {
      const texts = await shared.redis.zrangebyscore(shared.log, `(${lastId}`, '+inf');
      return texts.map(parseEvent).filter((event): event is ConsoleEvent => event !== null);
    } catch {
      return local();
    }
  }

  /** How many listeners (open event streams) there are. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Shares events over Redis (the gateway's reconnecting link); resolves, once subscribed or once
   * Redis is found unreachable, to the function that stops it.
   */
  async shareOver(link: RedisLink, keyPrefix: string): Promise<() => void> {
    const shared: SharedLog = {
      redis: link.redis,
      counter: `${keyPrefix}console-events:id`,
      log: `${keyPrefix}console-events:log`,
      channel: `${keyPrefix}console-events`,
    };
    const subscriber = link.subscribe(shared.channel, (message) => {
      const event = parseEvent(message);
      if (event) this.deliver(event);
    });
    this.shared = shared;
    await subscriber.ready;
    return () => {
      this.shared = null;
      subscriber.close();
    };
  }
}
