/**
 * The console area: the admin console API under /ui/api and its single-page app under /ui.
 * Opens the account store beside the token store, creates the first administrator when there is
 * no account, and registers sign-in, data, token, settings, environments, logs and event routes
 * behind the console guard (console-access.ts). Errors use the console's bodies (console-errors.ts).
 * It is handed its view of the gateway (console-gateway.ts: the settings in force and the change of
 * environments, tokens and rate limiter, the live settings store, the log ring, reload events), the
 * health monitor (it forwards its changes as `health` events) and the traffic history (charts); the
 * route table comes with the area's context, the folders with its settings slice.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Area } from '../areas/area.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import { readTokenStoreSettings, type TokenStoreSettings } from '../auth/store/open-store.js';
import type { HealthMonitor } from '../health/health-monitor.js';
import type { TrafficHistory } from '../metrics/traffic-history.js';
import { environmentNames } from '../settings/load-settings.js';
import { WharfError } from '../errors/wharf-error.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../api/json-body.js';
import { MemoryCounterStore } from '../traffic/counter-store.js';
import { readRedisSettings } from '../traffic/redis-client.js';
import { AccountService } from './accounts.js';
import { admitConsoleRequest, requireConsoleActor } from './console-access.js';
import type { ConsoleGuardOptions } from './console-access.js';
import { installConsoleErrors, notFound } from './console-errors.js';
import { ConsoleEvents } from './console-events.js';
import { readConsoleSettings, type ConsoleSettings } from './console-settings.js';
import { consoleUiRoutes } from './console-ui-routes.js';
import { authRoutes } from './auth-routes.js';
import { oidcRoutes } from './oidc-routes.js';
import { readSignInMethods, type SignInMethods } from './oidc-settings.js';
import { openAccountStore } from './open-account-store.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleRuntime } from './console-runtime.js';
import { SessionService } from './sessions.js';
import { SignInLimiter } from './sign-in-limiter.js';
import { tokenRoutes } from './token-routes.js';
import { overviewRoutes } from './overview-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { logsRoute } from './logs-route.js';
import { validateRoute } from './validate-route.js';
import { eventsRoute, type ConsoleLifecycle } from './events-route.js';
import { environmentRoutes } from './environment-routes.js';
import { sessionRoutes } from './session-routes.js';
import { trafficRoute } from './traffic-route.js';
import { PostgresConsoleSettingsStore } from '../settings/shared-overrides.js';
import { SHARED_SETTINGS_POLL_MS, SharedConsoleSettings } from './shared-console-settings.js';

export const CONSOLE_PREFIX = '/ui/api';
const FIRST_ADMIN_RETRY_MS = 2000;

export interface ConsoleAreaSettings {
  readonly console: ConsoleSettings;
  readonly methods: SignInMethods;
  /** Where the token store is (Auth:Store:*), read from the settings: a caller-built access runtime may not carry them. */
  readonly store: TokenStoreSettings;
  readonly redisKeyPrefix: string;
  readonly sseHeartbeatMs: number;
  /** The console app's files are served from beside generated/ (console-ui-routes.ts); POST /validate reads it. */
  readonly generatedDir: string;
  /** settings.json, the console's settings.overrides.json and one folder per environment (the settings and environments routes write there). */
  readonly environmentsDir: string;
}

export interface ConsoleInfra {
  readonly gateway: ConsoleGateway;
  readonly health: HealthMonitor;
  /** The last hour of traffic; null when Metrics:Enabled is false. */
  readonly traffic: TrafficHistory | null;
  /** The event streams end when the instance finishes and leave the request gate's count. */
  readonly lifecycle: ConsoleLifecycle;
}

export const consoleArea: Area<ConsoleAreaSettings, ConsoleInfra, ConsoleRuntime> = {
  name: 'console',
  slice: (all, folders) => ({
    console: readConsoleSettings(all.server.source),
    methods: readSignInMethods(all.server.source),
    store: readTokenStoreSettings(all.server.source, folders.dataDir),
    redisKeyPrefix: readRedisSettings(all.server.source).keyPrefix,
    sseHeartbeatMs: all.server.source.int('WebUi:SseHeartbeatSeconds') * 1000,
    generatedDir: folders.generatedDir,
    environmentsDir: folders.environmentsDir,
  }),
  async register(app, { settings, infra, endpoints }) {
    const state = await consoleApi(app, settings, infra, endpoints);
    await app.register(consoleUiRoutes, { generatedDir: settings.generatedDir });
    return state;
  },
};

/**
 * JSON bodies of /ui/api: fastify's parser (`__proto__` and `constructor.prototype` refused), after
 * an empty body (no body) and the data API's depth limit: a body nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed
 * (a 20,000-deep `content` overflowed the stack of the validate route: 500).
 */
function consoleJsonParser(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw as string; // parseAs: 'string'
    // the header without a body (clients send it on DELETE and on POST .../rotate): no body; a route
    // that needs one says so (400 `The body must be a JSON object`)
    if (body.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepthExceeds(body, MAX_JSON_DEPTH)) {
      done(new WharfError('REQUEST_INVALID_JSON', { reason: `JSON is nested deeper than ${MAX_JSON_DEPTH} levels.` }), undefined);
      return;
    }
    parse(request, body, done);
  });
}

/** `routes`: the route table in force (its `current` changes on reload). */
export async function consoleApi(app: FastifyInstance, slice: ConsoleAreaSettings, infra: ConsoleInfra, routes: RouteTableHolder): Promise<ConsoleRuntime> {
  const { gateway, health } = infra;
  const { console: settings, methods, store: storeSettings, environmentsDir } = slice;
  const logStoreError = (message: string, error: unknown): void => app.log.error({ err: error }, message);
  const store = await openAccountStore(storeSettings, logStoreError);
  app.addHook('onClose', () => store.close());
  const accounts = new AccountService(store);
  const sessions = new SessionService(store, settings.sessionHours * 3_600_000);
  const events = new ConsoleEvents();
  const state: ConsoleRuntime = { accounts, sessions, events, settings, startedAt: Date.now(), firstAdmin: null, shared: null };
  if (storeSettings.provider === 'Postgres') {
    const settingsStore = await PostgresConsoleSettingsStore.open(storeSettings, logStoreError);
    app.addHook('onClose', () => settingsStore.close());
    const shared = new SharedConsoleSettings(settingsStore, { app, gateway, environmentsDir });
    state.shared = shared;
    await shared.refresh();
    events.subscribe((event) => {
      if (event.name === 'settings_changed' || event.name === 'environments_changed') void shared.refresh();
    });
    if (!gateway.access.redis) {
      const poll = setInterval(() => void shared.refresh(), SHARED_SETTINGS_POLL_MS);
      poll.unref();
      app.addHook('onClose', async () => clearInterval(poll));
    }
  }
  if (gateway.access.redis) {
    const stop = await events.shareOver(gateway.access.redis, slice.redisKeyPrefix);
    app.addHook('onClose', async () => stop());
  }

  // live settings changed from the console (here or on another instance): the console's own
  gateway.liveSettings.subscribe((change) => {
    const secure = change.get('WebUi:SecureCookies');
    const origins = change.get('WebUi:PublicOrigins');
    state.settings = {
      ...state.settings,
      ...(typeof secure === 'boolean' ? { secureCookies: secure } : {}),
      ...(Array.isArray(origins) ? { publicOrigins: origins as string[] } : {}),
    };
  });

  // health: the monitor publishes its status changes, the console forwards them
  health.onChange((status) => events.emit('health', { status }));

  // endpoint_reload: after every successful reload of generated/ on this instance, one event per endpoint
  // type; only this instance's streams get it (the others announce their own reloads).
  gateway.onReloaded((table) => {
    const counts = new Map<string, number>();
    for (const endpoint of table.endpoints) counts.set(endpoint.kind, (counts.get(endpoint.kind) ?? 0) + 1);
    for (const [type, count] of [...counts].sort()) events.local('endpoint_reload', { type, count });
  });

  const announceFirst = (first: Awaited<ReturnType<AccountService['ensureFirstAdmin']>>): void => {
    if (first?.oneTimePassword) {
      // The one deliberate exception to "no passwords in the log": shown once, must be changed at first sign-in.
      app.log.warn(
        { consoleAccount: first.username },
        `Created the first console administrator '${first.username}' with the one-time password ${first.oneTimePassword} (change it at the first sign-in; wharf accounts password ${first.username} resets it)`,
      );
    } else if (first) {
      app.log.warn({ consoleAccount: first.username }, `Created the console administrator '${first.username}' with the WebUi:SeedPassword password (demo only)`);
    }
  };
  // A store that is down at start (PostgreSQL) does not stop the gateway: the first administrator
  // is created when it answers (tried again every FIRST_ADMIN_RETRY_MS until then).
  const ensureFirst = async (): Promise<boolean> => {
    try {
      const first = await accounts.ensureFirstAdmin(settings.seedPassword);
      state.firstAdmin = first;
      announceFirst(first);
      return true;
    } catch (error) {
      if (!(error instanceof WharfError && error.code === 'AUTH_STORE_UNAVAILABLE')) throw error;
      return false;
    }
  };
  if (!(await ensureFirst())) {
    app.log.warn('Account store unreachable: the first console administrator is created when it answers');
    const retry = setInterval(() => {
      ensureFirst().then(
        (done) => done && clearInterval(retry),
        (error: unknown) => {
          clearInterval(retry);
          app.log.error({ err: error }, 'Creating the first console administrator failed');
        },
      );
    }, FIRST_ADMIN_RETRY_MS);
    retry.unref();
    app.addHook('onClose', async () => clearInterval(retry));
  }

  if (!settings.enabled) return state;
  await app.register(
    async (scope) => {
    if (!scope.hasRequestDecorator('wharfConsole')) scope.decorateRequest('wharfConsole', null);
    installConsoleErrors(scope);
    consoleJsonParser(scope);
    scope.setNotFoundHandler((request) => {
      throw notFound(`No console route ${request.method} ${request.url.split('?')[0]}`);
    });
    const guardOptions: ConsoleGuardOptions = { access: gateway.access, sessions, publicOrigins: () => state.settings.publicOrigins };
    scope.addHook('onRequest', async (request) => {
      await admitConsoleRequest(request, guardOptions);
    });
    const guard = (request: FastifyRequest) => requireConsoleActor(request, guardOptions);
    const authOptions = {
      ...guardOptions,
      accounts,
      limiter: new SignInLimiter(gateway.access.control.limiter?.store ?? new MemoryCounterStore(), {
        attemptsPerIp: settings.signInAttemptsPerIp,
        windowSeconds: settings.signInWindowSeconds,
      }),
      settings: () => state.settings,
      guard,
      localPasswords: methods.localPasswords,
    };
    authRoutes(scope, authOptions);
    oidcRoutes(scope, { ...authOptions, methods });
    await scope.register(async (guarded) => {
      guarded.addHook('onRequest', async (request) => {
        await guard(request);
      });
      tokenRoutes(guarded, { tokens: gateway.access.control.tokens, events, environments: () => environmentNames(gateway.settings()) });
      overviewRoutes(guarded, { gateway, routes, console: state });
      settingsRoutes(guarded, { gateway, environmentsDir, console: state });
      logsRoute(guarded, gateway.logs);
      validateRoute(guarded, { generatedDir: slice.generatedDir });
      eventsRoute(guarded, {
        events,
        heartbeatMs: slice.sseHeartbeatMs,
        currentHealth: async () => (await health.current()).status,
        lifecycle: infra.lifecycle,
        // a refusal (401/403: session ended, token revoked or narrowed) closes the stream; a store
        // that does not answer does not
        stillAllowed: (request) =>
          guard(request).then(
            () => true,
            (error: unknown) => !(error instanceof WharfError && (error.status === 401 || error.status === 403)),
          ),
      });
      environmentRoutes(guarded, { gateway, environmentsDir, console: state });
      trafficRoute(guarded, infra.traffic, events, gateway.access.redis ? { link: gateway.access.redis, keyPrefix: slice.redisKeyPrefix } : null);
    });
    sessionRoutes(scope, guard, { health, routes });
    },
    { prefix: CONSOLE_PREFIX },
  );
  return state;
}
