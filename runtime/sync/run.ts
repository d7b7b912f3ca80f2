/**
 * Starts the whole sync process: the service (pollers), the health routes and, with
 * WebHost:Enabled, the dashboard on Health:Host:Port (a fastify instance whose pino logger is the
 * process logger, the gateway's log format) and the background connection prober. The listener
 * opens when either is enabled. close() stops all three; SIGTERM/SIGINT call it in the CLI.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { SqlDriver } from '../sql/drivers/driver.js';
import type { SyncConfig } from './config/model.js';
import type { Batch } from './destinations/batch.js';
import { SyncService } from './engine/sync-service.js';
import { ConnectionProber } from './health/connection-prober.js';
import { healthRoutes } from './health/health-routes.js';
import { dashboardRoutes } from './web/dashboard-routes.js';
import { ThroughputMeter } from './web/throughput.js';
import { installListenerBasics, listenerOptions } from '../serve/listener-basics.js';
import { errorResponseFor, sendErrorResponse } from '../errors/error-handler.js';
import { WharfError } from '../errors/wharf-error.js';

export interface StartSyncOptions {
  readonly root: string;
  readonly environmentsDir?: string;
  /** Variables for `Section__Key` overrides of environments/sync.json (`Health__Port`). Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly config?: SyncConfig;
  readonly drivers?: ReadonlyMap<string, SqlDriver>;
  readonly onDelivered?: (batch: Batch) => void;
  /** Overrides Health:Port (tests: 0). */
  readonly healthPort?: number;
  readonly logLevel?: string;
  /** Where log lines go (default stdout). */
  readonly logStream?: NodeJS.WritableStream;
}

export interface RunningSync {
  readonly service: SyncService;
  readonly app: FastifyInstance;
  readonly prober: ConnectionProber;
  /** Bound health/dashboard address (`http://127.0.0.1:2455`), null when Health and WebHost are both off. */
  readonly healthUrl: string | null;
  close(): Promise<void>;
}

export async function startSync(options: StartSyncOptions): Promise<RunningSync> {
  const level = options.logLevel ?? 'info';
  const app: FastifyInstance = Fastify({ logger: options.logStream ? { level, stream: options.logStream } : { level }, ...listenerOptions(() => app.log) });
  const throughput = new ThroughputMeter();
  const service = await SyncService.start({
    root: options.root,
    log: app.log,
    ...(options.environmentsDir ? { environmentsDir: options.environmentsDir } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.config ? { config: options.config } : {}),
    ...(options.drivers ? { drivers: options.drivers } : {}),
    onDelivered: (batch) => {
      throughput.record(batch.environment, batch.object, batch.records.length);
      options.onDelivered?.(batch);
    },
  });
  // Embedded databases live in this process: probes query them instead of opening a connection.
  const lookup = (connectionString: string) => options.drivers?.get(connectionString) ?? service.embedded.get(connectionString);
  const prober = new ConnectionProber(() => service.config, lookup);
  const { health, webHost } = service.config.service;
  installListenerBasics(app, { allowedHosts: health.allowedHosts, listenHost: health.host, setting: 'Health:AllowedHosts' });
  // an unknown route: the registry's 404 body, not fastify's own
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    sendErrorResponse(reply, errorResponseFor(request, new WharfError('ROUTING_ROUTE_NOT_FOUND', { method: request.method, path })));
  });
  let healthUrl: string | null = null;
  try {
    if (health.enabled || webHost.enabled) {
      if (health.enabled) {
        await app.register(healthRoutes, {
          config: () => service.config,
          state: service.state,
          deadLetters: service.deadLetters,
          prober,
          startedAt: Date.now(),
          lookup,
          dashboard: webHost.enabled,
        } as never);
      }
      if (webHost.enabled) await app.register(dashboardRoutes, { root: options.root, service, prober, throughput } as never);
      const port = options.healthPort ?? health.port;
      await app.listen({ host: health.host, port });
      const address = app.server.address();
      healthUrl = `http://${health.host}:${typeof address === 'object' && address ? address.port : port}`;
      if (webHost.enabled) {
        app.log.info({ event: 'sync.dashboard', url: `${healthUrl}/ui`, readOnly: webHost.adminKey === null }, `sync dashboard on ${healthUrl}/ui`);
      }
      prober.start();
    }
  } catch (error) {
    await service.stop();
    await app.close();
    throw error;
  }
  return {
    service,
    app,
    prober,
    healthUrl,
    async close() {
      prober.stop();
      await app.close();
      await service.stop();
    },
  };
}
