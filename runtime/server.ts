/**
 * buildServer(): the whole gateway as a fastify instance that does not listen (tests use inject,
 * start.ts listens). Loads settings and generated/, opens access control (token store, rate limits,
 * response cache), installs error handling, the data API, health and the API reference, and exposes
 * `app.wharf` (settings, route table holder, handlers, access runtime, reload).
 *
 * Order of one /api request (docs/security.md):
 *   onRequest: IP limit 429 -> token 401 -> token limit 429
 *   stages:    parse -> env 400 -> resolve 404 -> endpoint env 400 -> authorize 403 -> enabled 503
 *              -> method 405 -> body 415 -> cache (HIT answers) -> handler
 *   onSend:    cache store / invalidate, ETag, 304
 * Every refusal is a WharfError answered by the one error handler (errors/error-handler.ts).
 */
import fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { consoleApi } from './admin/console-api.js';
import { consoleUiRoutes } from './admin/console-ui-routes.js';
import { LogRing } from './admin/log-ring.js';
import { apiRoutes } from './api/api-routes.js';
import { installAccessControl, isProtectedUrl } from './auth/access-hooks.js';
import { installCors, isCorsUrl } from './traffic/cors.js';
import { readCorsSettings } from './traffic/cors-settings.js';
import { canonicalApiPrefix } from './routing/api-prefix.js';
import { createAccessRuntime, readAccessSettings } from './auth/access-runtime.js';
import type { AccessRuntime } from './auth/access-runtime.js';
import { withAccessStages } from './auth/pipeline-stages.js';
import { installResponseCache } from './cache/cache-hooks.js';
import { createClientErrorHandler } from './errors/client-error.js';
import { errorResponseFor, installErrorHandling, sendErrorResponse } from './errors/error-handler.js';
import { WharfError } from './errors/wharf-error.js';
import { HandlerRegistry } from './handlers/registry.js';
import type { HandlerMap } from './handlers/registry.js';
import { healthRoutes } from './health/health-routes.js';
import { liveRoute } from './health/live.js';
import { readyRoute } from './health/ready.js';
import { landingRoute, readLandingPage } from './landing/landing-page.js';
import { readReferenceRequiresToken } from './reference/reference-access.js';
import { installBodyTimeout } from './lifecycle/body-timeout.js';
import { installRequireHost } from './lifecycle/require-host.js';
import { installRequestGate } from './lifecycle/request-gate.js';
import { lazyChildLoggerFactory } from './logging/lazy-child-logger.js';
import { installMetrics } from './metrics/metrics.js';
import { metricsRoute } from './metrics/metrics-route.js';
import { MetricsListener, parseMetricsAddress } from './metrics/metrics-listener.js';
import { loadGenerated } from './load/load-generated.js';
import { loggerOptions, type LoggerOptions } from './logging/logger-options.js';
import { installRequestLog } from './logging/request-log.js';
import type { PipelineStage } from './pipeline/api-request.js';
import { API_STAGES } from './pipeline/stages.js';
import { apiReferenceRoutes } from './reference/api-reference.js';
import { RouteTable } from './routing/route-table.js';
import { RouteTableHolder } from './routing/route-table-holder.js';
import { loadSettings } from './settings/load-settings.js';
import { registerWebhookEndpoints } from './webhook/register.js';
import { registerSqlEndpoints } from './sql/register.js';
import { filesPathRefusal } from './files/path-refusal.js';
import { registerFilesEndpoints } from './files/register.js';
import { registerStaticEndpoints } from './static/register.js';
import { lazySchemaCompilers } from './serve/lazy-schema-compilers.js';
import { openUpstreamClient, registerProxyEndpoints } from './proxy/register.js';
import { registerCompositeEndpoints } from './composite/register.js';
import type { Settings } from './settings/load-settings.js';
import type { ReloadResult, WharfRuntime } from './wharf-runtime.js';
import { redact, redactSettingsSource } from './settings/redact.js';

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
  /** Handlers replacing the 501 placeholder per endpoint kind. */
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

function describe(error: unknown): string {
  return error instanceof WharfError ? error.message : `Loading generated/ failed: ${(error as Error).message}`;
}

function createReload(generatedDir: string, holder: RouteTableHolder, log: FastifyBaseLogger): () => Promise<ReloadResult> {
  let queue: Promise<unknown> = Promise.resolve();
  async function reloadOnce(): Promise<ReloadResult> {
    try {
      const table = RouteTable.build(await loadGenerated(generatedDir));
      holder.swap(table);
      log.info({ sourceHash: table.sourceHash, endpoints: table.size }, 'generated/ reloaded');
      return { ok: true, sourceHash: table.sourceHash, endpoints: table.size };
    } catch (error) {
      const message = describe(error);
      log.error({ err: error }, `Reload failed, still serving the previous endpoints: ${message}`);
      const current = holder.current;
      return { ok: false, error: message, sourceHash: current.sourceHash, endpoints: current.size };
    }
  }
  return () => {
    const run = queue.then(reloadOnce);
    queue = run.catch(() => undefined);
    return run;
  };
}

export async function buildServer(options: BuildServerOptions = {}): Promise<FastifyInstance> {
  const settings =
    options.settings ??
    (await loadSettings({
      ...(options.environmentsDir !== undefined ? { environmentsDir: options.environmentsDir } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    }));
  const generatedDir = path.resolve(options.generatedDir ?? 'generated');
  const table = RouteTable.build(await loadGenerated(generatedDir));
  const holder = new RouteTableHolder(table);
  const handlers = new HandlerRegistry(options.handlers);
  const dataDir = path.resolve(options.dataDir ?? 'data');
  const logs = new LogRing(settings.server.source.int('Logging:ConsoleBufferSize'));

  const limits = settings.server.server;
  const cors = readCorsSettings(settings.server.source);
  const logger = loggerOptions(options.logger ?? true, settings.server.logging.minLevel, logs);
  const app: FastifyInstance = fastify({
    logger,
    // request.log made only when something is logged through it (lazy-child-logger.ts)
    ...(logger === false ? {} : { childLoggerFactory: lazyChildLoggerFactory }),
    // one line per request, written by installRequestLog (runtime/logging/request-log.ts)
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    schemaController: lazySchemaCompilers(),
    bodyLimit: limits.bodyLimitBytes,
    // Time limits (docs/operations.md): the request gate answers the shutdown 503 itself.
    return503OnClosing: false,
    // requireHostHeader: a request without Host gets the spec's error body (lifecycle/require-host.ts)
    http: { headersTimeout: limits.headersTimeoutSeconds * 1000, connectionsCheckingInterval: 1000, requireHostHeader: false },
    // Errors raised by the router before any route runs (malformed percent-encoding in the URL).
    frameworkErrors: (error, request, reply) => {
      sendErrorResponse(reply, errorResponseFor(request, filesPathRefusal(request.url, error)));
    },
    // Spec: data API URLs are case-insensitive, the `/api` prefix included (`/API/demo/...`).
    rewriteUrl: (req) => canonicalApiPrefix(req.url ?? '/'),
    // Errors of Node's HTTP parser (431, 408, malformed requests): the same error body, Connection: close.
    clientErrorHandler: createClientErrorHandler((): FastifyBaseLogger => app.log, http.maxHeaderSize),
  });
  // the handler timeout too: one sweeping timer instead of fastify's per-request timer (request-gate.ts)
  installRequestGate(app, limits.maxConcurrentRequests, limits.handlerTimeoutSeconds * 1000);
  installRequireHost(app);
  const metrics = settings.server.metrics.enabled ? installMetrics(app) : null;
  installBodyTimeout(app, { graceMs: limits.bodyTimeoutSeconds * 1000, minBytesPerSecond: limits.minBodyBytesPerSecond });
  app.addHttpMethod('MERGE', { hasBody: true });
  app.addHttpMethod('QUERY', { hasBody: true, overrideExisting: true });

  app.log.info(
    {
      settings: redactSettingsSource(settings.server.source),
      environments: redact(settings.environments),
    },
    'settings loaded',
  );
  app.log.info({ sourceHash: table.sourceHash, endpoints: table.size }, 'generated/ loaded');

  let access: AccessRuntime;
  try {
    access =
      options.access ??
      (await createAccessRuntime(readAccessSettings(settings.server.source, dataDir), {
        onError: (message, error) => app.log.error({ err: error }, message),
        redisLog: (level, message) => app.log[level]({ component: 'redis' }, message),
      }));
  } catch (error) {
    await app.close();
    throw error;
  }
  if (!options.access) app.addHook('onClose', () => access.close());

  let current: Settings = settings;
  const runtime: WharfRuntime = {
    get settings() {
      return current;
    },
    replaceEnvironments(environments, environment = {}) {
      const server = Object.freeze({ ...current.server, environment: Object.freeze({ ...current.server.environment, ...environment }) });
      current = Object.freeze({ server, environments });
    },
    generatedDir,
    routes: holder,
    handlers,
    access,
    dataDir,
    environmentsDir: path.resolve(options.environmentsDir ?? 'environments'),
    logs,
    sql: null,
    reload: createReload(generatedDir, holder, app.log),
  };
  app.decorate('wharf', runtime);
  // Real handlers per endpoint kind; kinds without one answer 501. A test may bring its own.
  if (!options.handlers?.sql) runtime.sql = registerSqlEndpoints(app);
  if (!options.handlers?.webhook && runtime.sql) registerWebhookEndpoints(app, runtime.sql);
  if (!options.handlers?.files) await registerFilesEndpoints(app);
  if (!options.handlers?.static) registerStaticEndpoints(app);
  // Proxy and Composite share one upstream client (keep-alive pools, circuit breaker, network policy).
  const upstream = await openUpstreamClient(app, { environmentsDir: options.environmentsDir });
  if (metrics) upstream.observe((endpoint, result) => metrics.upstreamFailures(endpoint, result.failures, result.sent));
  if (!options.handlers?.proxy) registerProxyEndpoints(app, upstream);
  if (!options.handlers?.composite) registerCompositeEndpoints(app, upstream);

  installRequestLog(app);
  installErrorHandling(app);
  // CORS first: a preflight is answered before authentication
  installCors(app, { settings: cors, appliesTo: isCorsUrl });
  installAccessControl(app, { control: access.control, appliesTo: isProtectedUrl });
  installResponseCache(app, { cache: access.cache });
  await app.register(liveRoute);
  await readyRoute(app);
  if (metrics) metricsRoute(app, metrics);
  const metricsAddress = metrics ? parseMetricsAddress(settings.server.metrics.listenAddress) : null;
  app.decorate('metricsListener', metrics && metricsAddress ? new MetricsListener(app, metrics, metricsAddress) : null);
  await consoleApi(app);
  await app.register(consoleUiRoutes, { generatedDir });
  await healthRoutes(app);
  const referenceToken = readReferenceRequiresToken(settings.server.source);
  await app.register(apiReferenceRoutes, { holder, requireToken: referenceToken });
  await app.register(landingRoute, { enabled: readLandingPage(settings.server.source), serverName: settings.server.environment.serverName, holder, requireToken: referenceToken });
  const stages = withAccessStages(options.stages ?? API_STAGES, access.cache);
  await app.register(apiRoutes, { settings: () => runtime.settings, holder, handlers, stages });
  return app;
}
