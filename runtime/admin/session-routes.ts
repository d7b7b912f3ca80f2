/**
 * Routes the web console needs beside the spec's: `GET /ui/api/auth/session` (who is signed in
 * and with which role, so the UI can show viewer restrictions; the API enforces them anyway) and
 * `GET /ui/api/health` (the `/health/details` report for a console session, which has a cookie
 * rather than a bearer token, behind the console guard).
 * The session route is asked before anyone signs in, so "nobody" is an answer, not an error:
 * 200 `{authenticated: false, username: null, role: null, kind: null}` (a browser logs every 4xx
 * as a console error). Every other guarded route keeps the spec's 401.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';
import type { ConsoleActor } from './console-access.js';
import type { HealthMonitor } from '../health/health-monitor.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import { versionWithBuild } from '../serve/package-version.js';

export interface SessionRouteOptions {
  readonly health: HealthMonitor;
  /** The build's sourceHash goes into `version`. */
  readonly routes: RouteTableHolder;
}

export function sessionRoutes(app: FastifyInstance, guard: (request: FastifyRequest) => Promise<ConsoleActor>, options: SessionRouteOptions): void {
  app.get('/auth/session', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    let actor: ConsoleActor;
    try {
      actor = await guard(request);
    } catch (error) {
      if (error instanceof WharfError && error.code === 'CONSOLE_UNAUTHORIZED') return { authenticated: false, username: null, role: null, kind: null };
      throw error;
    }
    return { authenticated: true, username: actor.username, role: actor.role, kind: actor.kind };
  });

  app.get('/health', { preHandler: guard }, async (_request, reply) => {
    const monitor = options.health;
    const report = await monitor.current();
    reply.header('cache-control', 'no-store');
    return {
      status: report.status,
      timestamp: report.timestamp,
      checks: report.checks,
      totalDuration: report.totalDuration,
      version: versionWithBuild(options.routes.current.sourceHash),
      // beside the /health/details report: each check's last runs (oldest first)
      history: monitor.history(),
    };
  });
}
