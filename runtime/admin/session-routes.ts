/**
 * Routes the web console needs beside the spec's: `GET /ui/api/auth/session` (who is signed in
 * and with which role, so the UI can show viewer restrictions; the API enforces them anyway) and
 * `GET /ui/api/health` (the `/health/details` report for a console session, which has a cookie
 * rather than a bearer token). Both sit behind the console guard.
 */
import type { FastifyInstance } from 'fastify';
import { versionWithBuild } from '../serve/package-version.js';

export function sessionRoutes(app: FastifyInstance): void {
  app.get('/auth/session', async (request) => {
    const actor = request.wharfConsole?.actor;
    return { username: actor?.username ?? null, role: actor?.role ?? null, kind: actor?.kind ?? null };
  });

  app.get('/health', async (_request, reply) => {
    const monitor = app.wharfHealth;
    if (!monitor) return reply.code(404).send({ error: 'Not found', message: 'Health checks are not enabled' });
    const report = await monitor.current();
    reply.header('cache-control', 'no-store');
    return {
      status: report.status,
      timestamp: report.timestamp,
      checks: report.checks,
      totalDuration: report.totalDuration,
      version: versionWithBuild(app.wharf.routes.current.sourceHash),
    };
  });
}
