/**
 * The reference area: the API reference (/docs, /openapi.json) and the landing page (/), both
 * behind a bearer token when Auth:ReferenceRequiresToken is on (reference-access.ts).
 */
import type { Area } from '../areas/area.js';
import type { AccessRuntime } from '../auth/access-runtime.js';
import { landingRoute, readLandingPage } from '../landing/landing-page.js';
import { apiReferenceRoutes } from './api-reference.js';
import { readReferenceRequiresToken } from './reference-access.js';

export interface ReferenceSettings {
  readonly requireToken: boolean;
  /** Features:LandingPage: false redirects / to /docs. */
  readonly landingPage: boolean;
  readonly serverName: string;
}

export const referenceArea: Area<ReferenceSettings, { readonly access: AccessRuntime }> = {
  name: 'reference',
  slice: (settings) => ({
    requireToken: readReferenceRequiresToken(settings.server.source),
    landingPage: readLandingPage(settings.server.source),
    serverName: settings.server.environment.serverName,
  }),
  async register(app, { settings, endpoints: holder, infra }) {
    const requireToken = settings.requireToken ? infra.access : null;
    await app.register(apiReferenceRoutes, { holder, requireToken });
    await app.register(landingRoute, { enabled: settings.landingPage, serverName: settings.serverName, holder, requireToken });
  },
};
