/**
 * GET /settings: the settings in force, grouped as the spec's settings dump, plus `writable` and
 * `effective` (each writable key's value in force and its source, effective-settings.ts).
 * PUT /settings: a flat object of colon keys; every key checked against WRITABLE_SETTINGS and its
 * kind, all applied or none, written atomically to environments/settings.overrides.json (never
 * settings.json); with a PostgreSQL token store first to the shared store, from which every
 * instance applies it (shared-console-settings.ts). Logging:MinLevel and WebUi:* apply at once (published
 * through the settings store, runtime/settings/settings-store.ts, to the areas that apply them); the rest answer restart_required.
 * Next start: the saved overrides with these values must still start the server (next-start.ts), else 400.
 * Anti-lockout (settings-lockout.ts): a change that would cut this very caller off the console is
 * refused with 400 naming the field, nothing saved.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readLandingPage } from '../landing/landing-page.js';
import { overridesPath, readOverrides, setByPath } from '../settings/overrides-file.js';
import { writeFileAtomic } from './atomic-file.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleRuntime } from './console-runtime.js';
import { badRequest } from './console-errors.js';
import { effectiveSettings } from './effective-settings.js';
import { nextStartProblem } from './next-start.js';
import { checkLockout } from './settings-lockout.js';
import { checkValue, findWritable, WRITABLE_SETTINGS } from './writable-settings.js';

export interface SettingsRouteOptions {
  readonly gateway: Pick<ConsoleGateway, 'settings' | 'access' | 'liveSettings'>;
  /** Where settings.overrides.json is read and written. */
  readonly environmentsDir: string;
  readonly console: ConsoleRuntime;
}

function dump(app: FastifyInstance, request: FastifyRequest, options: SettingsRouteOptions, accounts: number, overrides: unknown) {
  const { gateway, console: state } = options;
  const access = gateway.access.settings;
  const settings = gateway.settings();
  const server = settings.server;
  const client = request.wharfConsole!.client;
  const forwarded = access.forwardedHeaders;
  return {
    rate_limiting: {
      enabled: access.rateLimiting.enabled,
      ip_limit: access.rateLimiting.ipLimit,
      ip_window_seconds: access.rateLimiting.ipWindowSeconds,
      token_limit: access.rateLimiting.tokenLimit,
      token_window_seconds: access.rateLimiting.tokenWindowSeconds,
    },
    caching: {
      enabled: access.caching.enabled,
      provider: access.caching.provider,
      default_duration_seconds: access.caching.defaultDurationSeconds,
    },
    sql_pooling: {
      enabled: server.sqlPooling.enabled,
      min_pool_size: server.sqlPooling.minPoolSize,
      max_pool_size: server.sqlPooling.maxPoolSize,
    },
    logging: { min_level: app.log.level, sinks: server.logging.sinks },
    security: {
      webui_auth_enabled: true,
      admin_accounts: accounts,
      https_enabled: request.protocol === 'https',
      secure_cookies: state.settings.secureCookies,
      client_ip: client.ip,
      behind_proxy: client.forwarded,
      forwarded_ignored: client.forwardedIgnored,
      console_public: state.settings.publicOrigins.length > 0,
      trusted_proxies_configured: forwarded.knownProxies.length + forwarded.knownNetworks.length > 0,
      csrf_protection: true,
    },
    // oidc: the OpenID Connect provider of Auth:Jwt:Issuer (JWTs on the data API; console single sign-on, WebUi:Oidc:*, needs it too)
    features: { oidc: access.jwt !== null, openapi: true, traffic_logging: false, landing_page: readLandingPage(server.source), oidc_providers: access.jwt === null ? 0 : 1 },
    deployment: {
      public_origins: state.settings.publicOrigins,
      known_proxies: forwarded.knownProxies,
      known_networks: forwarded.knownNetworks,
    },
    writable: WRITABLE_SETTINGS.map((setting) => ({
      key: setting.key,
      kind: setting.kind,
      requires_restart: setting.requiresRestart,
      // the bounds the check applies, so a form can offer them (ranges, choices, lengths)
      ...(setting.min !== undefined ? { min: setting.min, max: setting.max } : {}),
      ...(setting.choices ? { choices: setting.choices } : {}),
      ...(setting.maxLength !== undefined ? { max_length: setting.maxLength } : {}),
    })),
    // beside the spec's groups: each writable key's value in force and where it came from
    effective: effectiveSettings({ settings, console: state.settings, logLevel: app.log.level }, overrides),
  };
}

export function settingsRoutes(app: FastifyInstance, options: SettingsRouteOptions): void {
  const { gateway, environmentsDir, console: state } = options;

  app.get('/settings', async (request) => {
    await state.shared?.refresh(); // what another instance saved (never throws; a store that is down keeps the last values)
    return dump(app, request, options, (await state.accounts.list()).length, await readOverrides(environmentsDir));
  });

  app.put('/settings', async (request) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The body must be a flat JSON object of setting keys');
    const values = new Map<string, unknown>();
    let restartRequired = false;
    for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
      const setting = findWritable(key);
      if (!setting) throw badRequest(`'${key}' is not a writable setting`, key);
      const checked = checkValue(setting, raw);
      if (!checked.ok) throw badRequest(checked.error, setting.key);
      values.set(setting.key, checked.value);
      restartRequired ||= setting.requiresRestart;
    }
    if (values.size === 0) throw badRequest('No settings given');
    const pooling = gateway.settings().server.sqlPooling;
    const min = (values.get('SqlConnectionPooling:MinPoolSize') as number | undefined) ?? pooling.minPoolSize;
    const max = (values.get('SqlConnectionPooling:MaxPoolSize') as number | undefined) ?? pooling.maxPoolSize;
    if (min > max) throw badRequest('The minimum pool size cannot exceed the maximum', 'SqlConnectionPooling:MinPoolSize');
    const overrides = await readOverrides(environmentsDir);
    checkLockout(request, options, values, overrides);
    const next = structuredClone(overrides); // a deep copy: `overrides` stays what is saved now
    for (const [key, value] of values) setByPath(next, key, value);
    // with the values saved earlier and not yet in force: would the next start still start?
    const problem = nextStartProblem(environmentsDir, next, overrides, gateway.settings().server.source, gateway.settings().environments);
    if (problem) throw badRequest(`Saving these settings would stop the next start: ${problem.message}`, problem.key);

    // the shared store first (every instance applies it from there); down: 503, nothing changed anywhere
    await state.shared?.update({ settings: values });
    await writeFileAtomic(overridesPath(environmentsDir), `${JSON.stringify(next, null, 2)}\n`);

    gateway.liveSettings.update(values); // the areas that apply a live setting subscribe to it
    request.log.info({ keys: [...values.keys()], restartRequired, by: request.wharfConsole?.actor?.username }, 'settings changed from the console');
    state.events.emit('settings_changed', { keys: [...values.keys()], restart_required: restartRequired });
    return { ok: true, restart_required: restartRequired };
  });
}
