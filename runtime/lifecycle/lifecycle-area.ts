/**
 * The lifecycle area, mounted first: the request gate (Server:MaxConcurrentRequests, the handler
 * timeout, the shutdown 503) must be the first onRequest hook (it also makes the Host check), the request
 * body deadline, and the two extra HTTP methods the data API accepts (before any route).
 */
import type { Area } from '../areas/area.js';
import type { ServerSettings } from '../settings/server-settings.js';
import { installBodyTimeout } from './body-timeout.js';
import { installRequestGate, type RequestGate } from './request-gate.js';

export const lifecycleArea: Area<ServerSettings['server'], Record<string, never>, RequestGate> = {
  name: 'lifecycle',
  slice: (settings) => settings.server.server,
  register(app, { settings: limits }) {
    // the handler timeout too: one sweeping timer instead of fastify's per-request timer (request-gate.ts)
    const gate = installRequestGate(app, limits.maxConcurrentRequests, limits.handlerTimeoutSeconds * 1000);
    installBodyTimeout(app, { graceMs: limits.bodyTimeoutSeconds * 1000, minBytesPerSecond: limits.minBodyBytesPerSecond });
    app.addHttpMethod('MERGE', { hasBody: true });
    app.addHttpMethod('QUERY', { hasBody: true, overrideExisting: true });
    return gate;
  },
};
