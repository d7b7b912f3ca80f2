/** GET /health/live: unauthenticated liveness probe, plain text `Alive`, cacheable 5 seconds (spec). */
import type { FastifyInstance } from 'fastify';

export const LIVE_CACHE_SECONDS = 5;

export async function liveRoute(app: FastifyInstance): Promise<void> {
  app.get('/health/live', async (_request, reply) => {
    const expires = new Date(Date.now() + LIVE_CACHE_SECONDS * 1000).toUTCString();
    return reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', `public, max-age=${LIVE_CACHE_SECONDS}`)
      .header('expires', expires)
      .send('Alive');
  });
}
