/**
 * The console's traffic charts (beside the spec's routes):
 *   GET /ui/api/traffic[?endpoint=<id>]  the last hour in 10-second slots, for the whole gateway or
 *       one endpoint (runtime/metrics/traffic-history.ts); with Metrics:Enabled false:
 *       200 {enabled: false, message} (the charts say so).
 *       With Redis, the numbers of every instance sharing it (runtime/metrics/traffic-sharing.ts).
 *   SSE `traffic` every TRAFFIC_EVENT_MS while a console is open: {t, requests, errors_4xx,
 *       errors_5xx} of the slot under way; the page reads the route again when it arrives.
 */
import type { FastifyInstance } from 'fastify';
import type { TrafficHistory } from '../metrics/traffic-history.js';
import { TrafficSharing } from '../metrics/traffic-sharing.js';
import type { RedisLink } from '../traffic/redis-client.js';
import { badRequest } from './console-errors.js';
import type { ConsoleEvents } from './console-events.js';

export const TRAFFIC_EVENT_MS = 5000;
const MAX_ENDPOINT_LENGTH = 500;

export interface SharedRedis {
  readonly link: RedisLink;
  readonly keyPrefix: string;
}

/** `traffic`: the metrics' history, null when Metrics:Enabled is false. */
export function trafficRoute(app: FastifyInstance, traffic: TrafficHistory | null, events: ConsoleEvents, redis: SharedRedis | null): void {
  const shared = traffic && redis ? new TrafficSharing(traffic, redis.link, redis.keyPrefix) : null;
  if (shared) app.addHook('onClose', async () => shared.stop());
  app.get('/traffic', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const raw = (request.query as Record<string, unknown>)['endpoint'];
    if (raw !== undefined && (typeof raw !== 'string' || raw.length > MAX_ENDPOINT_LENGTH)) {
      throw badRequest(`endpoint must be one endpoint id of at most ${MAX_ENDPOINT_LENGTH} characters`, 'endpoint');
    }
    if (!traffic) return { enabled: false, message: 'Traffic charts need the metrics (Metrics:Enabled is false).' };
    return { enabled: true, ...traffic.series(raw === undefined || raw === '' ? null : raw, shared ? await shared.others() : []) };
  });

  const timer = setInterval(() => {
    if (traffic && events.listenerCount > 0) events.broadcast('traffic', traffic.latest());
  }, TRAFFIC_EVENT_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
