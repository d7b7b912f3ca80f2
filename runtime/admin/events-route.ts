/**
 * GET /events: server-sent events (text/event-stream, Cache-Control: no-cache, X-Accel-Buffering: no).
 *   - on connect: `retry: 3000`, then the events after Last-Event-ID (header, or ?lastEventId=) still
 *     in the replay buffer, then the current `health` status;
 *   - every event as `id: <n>` / `event: <name>` / `data: <JSON>`;
 *   - a `: heartbeat` comment every WebUi:SseHeartbeatSeconds (15) so proxies keep the stream open;
 *   - a slow client never blocks the server: each client has a bounded queue (MAX_QUEUED_BYTES);
 *     a client that falls further behind is disconnected (it reconnects and replays);
 *   - at every heartbeat the caller is identified again (stillAllowed): a stream whose session
 *     ended (sign-out, password change, account disabled or deleted, expiry) or whose token was
 *     revoked, expired or narrowed is closed then, so it stops receiving events;
 *   - at most MAX_STREAMS_PER_CALLER open streams per account or token on this instance (each holds
 *     a connection and a place among Server:MaxConcurrentRequests): more is 429;
 *   - HEAD: the headers only, no stream.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Readiness } from '../lifecycle/readiness.js';
import type { RequestGate } from '../lifecycle/request-gate.js';
import { WharfError } from '../errors/wharf-error.js';
import type { ConsoleEvent, ConsoleEvents } from './console-events.js';

export const MAX_QUEUED_BYTES = 1024 * 1024;
export const MAX_STREAMS_PER_CALLER = 10;

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

export interface EventsRouteOptions {
  readonly events: ConsoleEvents;
  readonly heartbeatMs: number;
  /** The current health status, for the first message (null: not known yet). */
  readonly currentHealth: () => Promise<string | null>;
  /** Streams close when the instance finishes (shutdown), and leave the gate's in-flight count when they close. */
  readonly lifecycle: ConsoleLifecycle;
  /** Whether the caller that opened the stream may still use the console (asked at every heartbeat). */
  readonly stillAllowed: (request: FastifyRequest) => Promise<boolean>;
}

export interface ConsoleLifecycle {
  readonly readiness: Readiness;
  readonly gate: RequestGate;
}

export function formatEvent(event: Pick<ConsoleEvent, 'name' | 'data'> & { id?: number }): string {
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return `${id}event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** One connected client: writes while the socket accepts them, queues (bounded) while it does not. */
class EventClient {
  private queued: string[] = [];
  private queuedBytes = 0;
  private waiting = false;
  closed = false;

  constructor(private readonly raw: ServerResponse) {
    raw.on('drain', () => this.flush());
  }

  send(text: string): void {
    if (this.closed) return;
    if (this.waiting) {
      this.queued.push(text);
      this.queuedBytes += Buffer.byteLength(text);
      if (this.queuedBytes > MAX_QUEUED_BYTES) this.close();
      return;
    }
    if (!this.raw.write(text)) this.waiting = true;
  }

  private flush(): void {
    this.waiting = false;
    const pending = this.queued;
    this.queued = [];
    this.queuedBytes = 0;
    for (const text of pending) this.send(text);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queued = [];
    this.raw.destroy();
  }
}

function lastEventId(request: FastifyRequest): number {
  const header = request.headers['last-event-id'];
  const raw = typeof header === 'string' ? header : (request.query as Record<string, string | undefined>)['lastEventId'];
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
}

export function eventsRoute(app: FastifyInstance, options: EventsRouteOptions): void {
  const open = new Set<() => void>();
  // Streams never end by themselves: close them before the server waits for its connections.
  const closeAll = (): void => {
    for (const stop of [...open]) stop();
  };
  app.addHook('preClose', async () => closeAll());
  // Shutdown: when the instance stops accepting, its clients reconnect elsewhere and resume.
  const unregister = options.lifecycle.readiness.whenFinishing(closeAll);
  app.addHook('onClose', async () => unregister());
  const perCaller = new Map<string, number>();
  app.get('/events', (request, reply) => {
    // HEAD (fastify's automatic route runs this handler): the headers, no stream; an open stream
    // never ended the HEAD response, and the next request on that connection waited for ever
    if (request.method === 'HEAD') {
      reply.header('content-type', STREAM_HEADERS['content-type']).header('cache-control', STREAM_HEADERS['cache-control']).send();
      return;
    }
    const actor = request.wharfConsole?.actor;
    const caller = actor ? `${actor.kind}:${actor.username}` : '';
    const streams = perCaller.get(caller) ?? 0;
    if (streams >= MAX_STREAMS_PER_CALLER) throw new WharfError('CONSOLE_TOO_MANY_STREAMS', { max: MAX_STREAMS_PER_CALLER });
    perCaller.set(caller, streams + 1);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, STREAM_HEADERS);
    const client = new EventClient(raw);
    client.send('retry: 3000\n\n');
    const since = lastEventId(request);
    // Live events wait while the replay is read (it may come from Redis); then the ones the replay
    // already carried are skipped, so a resumed stream neither loses nor repeats an event.
    let held: ConsoleEvent[] | null = [];
    let replayed = since;
    const send = (event: ConsoleEvent): void => {
      if (event.id !== undefined && event.id <= replayed) return;
      client.send(formatEvent(event));
    };
    const unsubscribe = options.events.subscribe((event) => (held ? held.push(event) : send(event)));
    void (since > 0 ? options.events.since(since) : Promise.resolve([]))
      .then(
        (replay) => {
          for (const event of replay) send(event);
          replayed = Math.max(replayed, ...replay.map((event) => event.id ?? 0));
        },
        () => undefined,
      )
      .then(() => {
        const live = held ?? [];
        held = null;
        for (const event of live) send(event);
        return options.currentHealth();
      })
      .then(
        (status) => {
          if (status !== null) client.send(formatEvent({ name: 'health', data: { status } }));
        },
        () => undefined,
      );
    let checking = false;
    const heartbeat = setInterval(() => {
      client.send(': heartbeat\n\n');
      if (checking) return;
      checking = true;
      options.stillAllowed(request).then(
        (allowed) => {
          checking = false;
          if (!allowed) stop();
        },
        () => {
          checking = false;
        },
      );
    }, options.heartbeatMs);
    heartbeat.unref();
    let stopped = false;
    const stop = (): void => {
      if (stopped) return;
      stopped = true;
      const left = (perCaller.get(caller) ?? 1) - 1;
      if (left > 0) perCaller.set(caller, left);
      else perCaller.delete(caller);
      open.delete(stop);
      clearInterval(heartbeat);
      unsubscribe();
      client.close();
      options.lifecycle.gate.done(request); // a closed stream is no request in flight
    };
    open.add(stop);
    raw.on('close', stop);
  });
}
