/**
 * The sync dashboard (WebHost:Enabled), a fastify plugin on the health listener:
 *   GET  /                              -> 302 /ui
 *   GET  /ui, /ui/, /ui/assets/*        the precompiled page (generated/sync-ui of the project,
 *                                       else of the wharf package; strict CSP; the console's
 *                                       asset routes)
 *   GET  /ui/api/overview               per environment and tracked object: last version, last
 *                                       update, lag, throughput, state; connections; dead letters
 *                                       with their errors and the summary (the page polls it)
 *   GET  /ui/api/session                {configured, signed_in, csrf}
 *   POST /ui/api/session                {key} -> {signed_in:true, csrf} + session cookie
 *   DELETE /ui/api/session              sign out
 *   POST /ui/api/deadletters/replay     {ids: number[] | "all"} -> {replayed}   (admin + CSRF)
 *   POST /ui/api/deadletters/purge      {ids: number[] | "all"} -> {purged}     (admin + CSRF)
 * Reading needs no authentication, like the health routes (bind to loopback, docs/sync.md).
 * Replay and purge exist only with WebHost:AdminKey (otherwise 403 SYNC_DASHBOARD_READ_ONLY), need
 * a signed-in session, its CSRF token in X-CSRF-Token and, when the browser sends one, an Origin
 * equal to this host. Errors are the registry's spec bodies (the listener's handler, run.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consoleUiRoutes } from '../../admin/console-ui-routes.js';
import { readCookies, setCookie } from '../../admin/cookies.js';
import { WharfError } from '../../errors/wharf-error.js';
import type { SyncConfig } from '../config/model.js';
import type { SyncService } from '../engine/sync-service.js';
import type { ConnectionProber } from '../health/connection-prober.js';
import type { StoredVersion } from '../state/state-store.js';
import { AdminSessions, SESSION_COOKIE, SESSION_TTL_SECONDS } from './admin-session.js';
import type { DeadLetterRow, ObjectRow, Overview } from '../ui/wire.js';
import type { ThroughputMeter } from './throughput.js';

export const SYNC_UI_FOLDER = 'sync-ui';
/** Dead letters listed on the page (newest first); the summary counts them all. */
const DEAD_LETTER_LIMIT = 200;

export interface DashboardSource {
  readonly root: string;
  readonly service: SyncService;
  readonly prober: ConnectionProber;
  readonly throughput: ThroughputMeter;
}

/**
 * The generated/ folder holding the dashboard: the project's (`wharf build` writes it), else the
 * wharf package's own (committed), found by walking up from this module (sources or .wharf/dist).
 */
export function dashboardGeneratedDir(root: string): string {
  const candidates = [path.join(root, 'generated')];
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'generated'));
    if (path.dirname(dir) === dir) break;
  }
  return candidates.find((dir) => existsSync(path.join(dir, SYNC_UI_FOLDER, 'index.html'))) ?? (candidates[0] as string);
}


function objectRows(config: SyncConfig, source: DashboardSource, letters: ReadonlyMap<string, number>): Overview['environments'] {
  const { service, throughput } = source;
  const stored = new Map<string, StoredVersion>(service.state.all().map((v) => [`${v.environment}/${v.object}`, v]));
  const now = Date.now();
  const names = new Map<string, Map<string, string | null>>();
  for (const env of config.environments) names.set(env.name, new Map(env.objects.map((o) => [o.name, o.procedure])));
  for (const v of stored.values()) {
    const objects = names.get(v.environment) ?? new Map<string, string | null>();
    if (!objects.has(v.object)) objects.set(v.object, null);
    names.set(v.environment, objects);
  }
  return [...names].map(([environment, objects]) => ({
    name: environment,
    objects: [...objects].map(([name, procedure]): ObjectRow => {
      const key = `${environment}/${name}`;
      const loop = service.objects.get(key);
      const version = stored.get(key);
      const blocked = (letters.get(key) ?? 0) > 0;
      return {
        name,
        stored_procedure_name: procedure,
        last_version: version?.version ?? null,
        last_updated: version?.updated ?? null,
        lag_seconds: loop ? Math.round(loop.lagMs(now) / 1000) : null,
        throughput_per_minute: throughput.perMinute(environment, name),
        state: !loop ? 'not configured' : blocked ? 'blocked by dead letters' : loop.consecutiveFailures > 0 ? 'failing' : loop.lastOutcome === null ? 'starting' : loop.lastOutcome === 'idle' ? 'up to date' : 'catching up',
        dead_letters: letters.get(key) ?? 0,
      };
    }),
  }));
}

function idsOf(body: unknown): number[] | 'all' {
  const ids = (body as { ids?: unknown } | null)?.ids;
  if (ids === 'all') return 'all';
  if (Array.isArray(ids) && ids.length > 0 && ids.length <= 1000 && ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0)) return ids as number[];
  throw new WharfError('SYNC_DASHBOARD_BAD_REQUEST', { reason: "Send {\"ids\": [<dead-letter id>, ...]} or {\"ids\": \"all\"}." });
}

/**
 * A browser's Origin, when sent, must name this host and port (another local port's page is another
 * origin); the scheme is not compared, so a TLS proxy in front of the plain-HTTP listener works.
 */
function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    host = null;
  }
  if (host === null || host !== request.headers.host) throw new WharfError('SYNC_DASHBOARD_CSRF');
}

export async function dashboardRoutes(app: FastifyInstance, source: DashboardSource): Promise<void> {
  const sessions = new AdminSessions(() => source.service.config.service.webHost.adminKey);
  const sessionId = (request: FastifyRequest) => readCookies(request.headers.cookie).get(SESSION_COOKIE);
  const admin = (request: FastifyRequest): void => {
    checkOrigin(request);
    sessions.authorize(sessionId(request), request.headers['x-csrf-token']);
  };
  const cookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.header('set-cookie', setCookie(SESSION_COOKIE, value, { httpOnly: true, secure: false, maxAge }));

  app.get('/', async (_request, reply) => reply.redirect('/ui', 302));
  await app.register(consoleUiRoutes, { generatedDir: dashboardGeneratedDir(source.root), folder: SYNC_UI_FOLDER, label: 'sync dashboard' });

  await app.register(async (api) => {
    // errors: the listener's registry handler (serve/listener-basics.ts, installed in run.ts)
    api.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    api.get('/overview', async (): Promise<Overview> => {
      const { service } = source;
      // counted and listed by the database, the batches left unread (polled every few seconds)
      return {
        timestamp: new Date().toISOString(),
        environments: objectRows(service.config, source, service.deadLetters.countsByObject()),
        connections: source.prober.snapshot(),
        dead_letters: {
          summary: service.deadLetters.summary(),
          items: service.deadLetters
            .latest(DEAD_LETTER_LIMIT)
            .map((l): DeadLetterRow => ({
              id: l.id,
              environment: l.environment,
              object: l.object,
              destination: l.destination,
              from_version: l.fromVersion,
              to_version: l.toVersion,
              status: l.status,
              attempts: l.attempts,
              next_attempt_at: l.nextAttemptAt === null ? null : new Date(l.nextAttemptAt).toISOString(),
              timestamp: l.timestamp,
              error: l.error,
            })),
        },
      };
    });

    api.get('/session', async (request) => {
      const session = sessions.find(sessionId(request));
      return { configured: sessions.configured, signed_in: session !== null, csrf: session?.csrf ?? null };
    });

    api.post('/session', { bodyLimit: 4096 }, async (request, reply) => {
      checkOrigin(request);
      const { id, csrf } = sessions.signIn((request.body as { key?: unknown } | null)?.key, request.ip);
      request.log.info({ event: 'sync.dashboard_sign_in' }, 'administrator signed in to the sync dashboard');
      cookie(reply, id, SESSION_TTL_SECONDS);
      return { signed_in: true, csrf };
    });

    api.delete('/session', async (request, reply) => {
      admin(request);
      sessions.signOut(sessionId(request));
      cookie(reply, '', 0);
      return { signed_in: false };
    });

    api.post('/deadletters/replay', { bodyLimit: 65536 }, async (request) => {
      admin(request);
      const ids = idsOf(request.body);
      const replayed = source.service.deadLetters.rearm(ids);
      request.log.warn({ event: 'sync.dashboard_replay', ids, replayed }, 'dead letters re-armed from the dashboard');
      return { replayed };
    });

    api.post('/deadletters/purge', { bodyLimit: 65536 }, async (request) => {
      admin(request);
      const ids = idsOf(request.body);
      const purged = source.service.deadLetters.purge(ids);
      request.log.warn({ event: 'sync.dashboard_purge', ids, purged }, 'dead letters purged from the dashboard');
      return { purged };
    });
  }, { prefix: '/ui/api' });
}
