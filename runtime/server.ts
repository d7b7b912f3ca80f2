/**
 * buildServer(): the whole gateway as a fastify instance that does not listen (tests use inject,
 * start.ts listens). Loads settings and generated/, opens access control (token store, rate limits,
 * response cache), then mounts the areas in the order below, each with its slice of the settings
 * and the dependencies it states (runtime/areas/area.ts). Nothing is decorated onto fastify for
 * areas to find; tests and the composition roots reach the gateway through gatewayOf(app).
 *
 * Order of one /api request (docs/security.md):
 *   onRequest: IP limit 429 -> token 401 -> token limit 429
 *   stages:    parse -> env 400 -> resolve 404 -> endpoint env 400 -> authorize 403 -> enabled 503
 *              -> method 405 -> body 415 -> cache (HIT answers) -> handler
 *   onSend:    cache store / invalidate, ETag, 304
 * Every refusal is a WharfError answered by the one error handler (errors/error-handler.ts).
 */
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { consoleArea } from './admin/console-api.js';
import type { ConsoleGateway } from './admin/console-gateway.js';
import { LogRing } from './admin/log-ring.js';
import { apiArea } from './api/api-area.js';
import { areaMounter, type GatewayFolders } from './areas/area.js';
import { accessArea } from './auth/access-area.js';
import { createAccessRuntime, readAccessSettings } from './auth/access-runtime.js';
import type { AccessRuntime } from './auth/access-runtime.js';
import { withAccessStages } from './auth/pipeline-stages.js';
import { compositeArea } from './composite/register.js';
import { repliesArea } from './errors/replies-area.js';
import { filesArea } from './files/register.js';
import { attachGateway } from './gateway-handle.js';
import { HandlerRegistry } from './handlers/registry.js';
import type { HandlerMap } from './handlers/registry.js';
import { healthArea } from './health/health-routes.js';
import { lifecycleArea } from './lifecycle/lifecycle-area.js';
import { loadGenerated } from './load/load-generated.js';
import { loggerOptions, type LoggerOptions } from './logging/logger-options.js';
import { metricsArea } from './metrics/metrics-area.js';
import type { PipelineStage } from './pipeline/api-request.js';
import { API_STAGES } from './pipeline/stages.js';
import { proxyArea, upstreamArea } from './proxy/register.js';
import { referenceArea } from './reference/reference-area.js';
import { createReloader } from './routing/reload.js';
import { RouteTable } from './routing/route-table.js';
import { RouteTableHolder } from './routing/route-table-holder.js';
import { createFastify } from './serve/create-fastify.js';
import { loadSettings } from './settings/load-settings.js';
import type { Settings } from './settings/load-settings.js';
import { redact, redactSettingsSource } from './settings/redact.js';
import { SettingsStore } from './settings/settings-store.js';
import { sqlArea } from './sql/register.js';
import { staticArea } from './static/register.js';
import { webhookArea } from './webhook/register.js';
import { createWharfRuntime, type WharfRuntime } from './wharf-runtime.js';

export type { LoggerOptions } from './logging/logger-options.js';

export interface BuildServerOptions {
  /** Folder with manifest.json, routes.bundle.mjs, openapi.json. Default `generated`. */
  readonly generatedDir?: string;
  /** Folder with settings.json and one folder per environment. Default `environments`. */
  readonly environmentsDir?: string;
  /** Already loaded settings (then environmentsDir and env are not read). */
  readonly settings?: Settings;
  /** Variables for `__` settings overrides. Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** false = silent; true / options = JSON logs at Logging:MinLevel unless a level is given. Default true. */
  readonly logger?: boolean | LoggerOptions;
  /** Handlers replacing the 501 placeholder per endpoint kind (that kind's area is then not mounted). */
  readonly handlers?: Partial<HandlerMap>;
  /** Pipeline stages before access control is added (authorize, cache); default API_STAGES. */
  readonly stages?: readonly PipelineStage[];
  /** Folder for the gateway's own data (the SQLite token store `auth.db`). Default `data` (relative to cwd). */
  readonly dataDir?: string;
  /**
   * An access runtime opened by the caller (e.g. shared by two servers in a test); the caller then
   * closes it. Default: one is opened from the settings and closed with the server.
   */
  readonly access?: AccessRuntime;
}

async function openAccess(app: FastifyInstance, settings: Settings, dataDir: string, given: AccessRuntime | undefined): Promise<AccessRuntime> {
  if (given) return given;
  let access: AccessRuntime;
  try {
    access = await createAccessRuntime(readAccessSettings(settings.server.source, dataDir), {
      onError: (message, error) => app.log.error({ err: error }, message),
      redisLog: (level, message) => app.log[level]({ component: 'redis' }, message),
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  app.addHook('onClose', () => access.close());
  return access;
}

/** The console's view of the gateway: the settings in force through a function (replaceEnvironments swaps them), the rest as the gateway has it. */
function consoleGateway(gateway: WharfRuntime): ConsoleGateway {
  return {
    settings: () => gateway.settings,
    replaceEnvironments: (environments, environment) => gateway.replaceEnvironments(environments, environment),
    forgetEnvironment: async (name) => {
      await gateway.sql?.forget(name);
    },
    onReloaded: (listener) => gateway.onReloaded(listener),
    logs: gateway.logs,
    liveSettings: gateway.liveSettings,
    access: gateway.access,
  };
}

export async function buildServer(options: BuildServerOptions = {}): Promise<FastifyInstance> {
  const settings =
    options.settings ??
    (await loadSettings({
      ...(options.environmentsDir !== undefined ? { environmentsDir: options.environmentsDir } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    }));
  const folders: GatewayFolders = {
    generatedDir: path.resolve(options.generatedDir ?? 'generated'),
    environmentsDir: path.resolve(options.environmentsDir ?? 'environments'),
    dataDir: path.resolve(options.dataDir ?? 'data'),
  };
  const table = RouteTable.build(await loadGenerated(folders.generatedDir));
  const holder = new RouteTableHolder(table);
  const handlers = new HandlerRegistry(options.handlers);
  const logs = new LogRing(settings.server.source.int('Logging:ConsoleBufferSize'));
  const app = createFastify(settings.server.server, loggerOptions(options.logger ?? true, settings.server.logging.minLevel, logs));
  const mount = areaMounter(app, settings, folders, holder);
  const own = (kind: keyof HandlerMap): boolean => options.handlers?.[kind] === undefined;

  // The areas, in this order because fastify runs hooks of one kind in the order they were added
  // and a later area uses what an earlier one returns:
  // 1. lifecycle first: the request gate must be the first onRequest hook (overload and shutdown 503
  //    before any work), then the Host check and the body deadline.
  const gate = await mount(lifecycleArea, {});
  app.log.info({ settings: redactSettingsSource(settings.server.source), environments: redact(settings.environments) }, 'settings loaded');
  app.log.info({ sourceHash: table.sourceHash, endpoints: table.size }, 'generated/ loaded');
  const access = await openAccess(app, settings, folders.dataDir, options.access);
  // 2. the handler of each endpoint kind (a test may bring its own: that area is left out);
  //    webhooks write through the SQL drivers, Proxy and Composite share one upstream client,
  //    which reports its failures to the metrics.
  const sql = own('sql') ? await mount(sqlArea, { handlers }) : null;
  if (sql && own('webhook')) await mount(webhookArea, { handlers, drivers: sql });
  if (own('files')) await mount(filesArea, { handlers });
  if (own('static')) await mount(staticArea, { handlers });
  const metrics = await mount(metricsArea, { inFlight: () => gate.inFlight, poolStats: () => sql?.poolStats() ?? [], access });
  const upstream = await mount(upstreamArea, { metrics });
  if (own('proxy')) await mount(proxyArea, { handlers, upstream });
  if (own('composite')) await mount(compositeArea, { handlers, upstream });
  // 3. the request log and the error handler, then the request hooks in the order a request meets
  //    them: CORS (a preflight before authentication), admission (429/401/429), response cache.
  const liveSettings = new SettingsStore(settings.server.source);
  await mount(repliesArea, { liveSettings });
  await mount(accessArea, { access });
  // 4. routes: health before the console, which forwards its changes and shows its report.
  const { monitor: health, readiness } = await mount(healthArea, { access, sql, upstream });
  const reloader = createReloader(folders.generatedDir, holder, app.log);
  const gateway = createWharfRuntime(settings, {
    ...folders,
    routes: holder,
    handlers,
    access,
    logs,
    sql,
    liveSettings,
    reload: reloader.reload,
    onReloaded: reloader.onReloaded,
  });
  const consoleState = await mount(consoleArea, { gateway: consoleGateway(gateway), health, traffic: metrics?.traffic ?? null, lifecycle: { gate, readiness } });
  await mount(referenceArea, { access });
  // 5. the data API last: every hook it relies on is installed.
  await mount(apiArea, { settings: () => gateway.settings, handlers, stages: withAccessStages(options.stages ?? API_STAGES, access.cache) });
  attachGateway(app, gateway, { console: consoleState, health });
  return app;
}
