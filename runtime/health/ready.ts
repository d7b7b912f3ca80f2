/**
 * GET /health/ready: the unauthenticated readiness probe for load balancers (not in the spec, which
 * keeps /health, /health/details and /health/live exactly as they are; /health/live must stay
 * `Alive` while a stopping instance finishes its work, so readiness needs a route of its own).
 *
 * 200 `Ready` while the instance takes new requests; 503 `Shutting down` from the moment a SIGTERM
 * arrives (runtime/lifecycle/graceful-shutdown.ts), while the instance still serves for
 * Server:ShutdownDelaySeconds so a balancer polling this route takes it out of rotation before it
 * stops accepting. Above Server:MaxConcurrentRequests the request gate answers this route 503 too.
 * Shared components (database, Redis) do not make an instance unready: every instance shares them,
 * and taking them all out of rotation would turn one failing endpoint into a failing site.
 * Never cached: a balancer must see the change at its next poll.
 */
import type { FastifyInstance } from 'fastify';
import { Readiness } from '../lifecycle/readiness.js';

/** Returns the readiness (the console closes its event streams when the instance finishes). */
export async function readyRoute(app: FastifyInstance): Promise<Readiness> {
  const readiness = new Readiness();
  // graceful shutdown finds it on the app it was handed (runtime/lifecycle/graceful-shutdown.ts)
  app.decorate('readiness', readiness);
  app.get('/health/ready', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    if (readiness.ready) return reply.send('Ready');
    return reply.code(503).header('retry-after', '1').send('Shutting down');
  });
  return readiness;
}
