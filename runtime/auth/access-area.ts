/**
 * The access-control area's request hooks, in the order a request meets them: CORS first (a
 * preflight is answered before authentication), then admission (IP limit 429, token 401, token
 * limit 429), then the response cache's onSend (store, invalidate, ETag, 304). The access runtime
 * itself (token store, limiters, cache) is opened by buildServer before any area, since several use it.
 */
import type { Area } from '../areas/area.js';
import { installResponseCache } from '../cache/cache-hooks.js';
import { installCors, isCorsUrl } from '../traffic/cors.js';
import { readCorsSettings, type CorsSettings } from '../traffic/cors-settings.js';
import { installAccessControl, isProtectedUrl } from './access-hooks.js';
import type { AccessRuntime } from './access-runtime.js';

export const accessArea: Area<CorsSettings, { readonly access: AccessRuntime }> = {
  name: 'access control',
  slice: (settings) => readCorsSettings(settings.server.source),
  register(app, { settings: cors, infra: { access } }) {
    installCors(app, { settings: cors, appliesTo: isCorsUrl });
    installAccessControl(app, { control: access.control, appliesTo: isProtectedUrl });
    installResponseCache(app, { cache: access.cache });
  },
};
