/**
 * GET /overview and GET /endpoints (docs/console-api.md).
 * Listing keys: sql, proxy (Composite endpoints too, with `type: "composite"`), static, files, webhooks.
 * Every item: name, namespace, path (the entity.json), methods, enabled, hidden; SQL adds schema,
 * primary_key, allowed_columns; proxy/composite add url (masked when it carries credentials); static adds content_type; files add
 * allowed_extensions; webhooks add schema and webhook_ids.
 */
import type { FastifyInstance } from 'fastify';
import type { EndpointModel } from '../contract/model.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import type { ConsoleGateway } from './console-gateway.js';
import type { ConsoleRuntime } from './console-runtime.js';
import { versionWithBuild } from '../serve/package-version.js';
import { environmentNames } from '../settings/load-settings.js';
import { redact } from '../settings/redact.js';

export type ListingKey = 'sql' | 'proxy' | 'static' | 'files' | 'webhooks';
export const LISTING_KEYS: readonly ListingKey[] = ['sql', 'proxy', 'static', 'files', 'webhooks'];

export function listingKey(model: EndpointModel): ListingKey {
  switch (model.kind) {
    case 'sql':
      return 'sql';
    case 'proxy':
    case 'composite':
      return 'proxy';
    case 'static':
      return 'static';
    case 'files':
      return 'files';
    case 'webhook':
      return 'webhooks';
  }
}


export function listingItem(model: EndpointModel): Record<string, unknown> {
  const base = {
    name: model.name,
    namespace: model.namespace,
    path: model.sourceFile,
    methods: model.methods,
    enabled: model.enabled,
    hidden: model.hidden,
  };
  switch (model.kind) {
    case 'sql':
      return {
        ...base,
        schema: model.schema,
        object_name: model.objectName,
        object_type: model.objectType,
        primary_key: model.primaryKey,
        allowed_columns: model.columns.map((column) => column.name),
      };
    // a Url with credentials (`https://user:pw@host`, `?api_key=`) is shown masked, like every value redact() judges
    case 'proxy':
      return { ...base, type: 'proxy', url: redact(model.url) as string };
    case 'composite':
      return { ...base, type: 'composite', url: redact(model.url) as string };
    case 'static':
      return { ...base, content_type: model.contentType };
    case 'files':
      return { ...base, allowed_extensions: model.allowedExtensions };
    case 'webhook':
      return { ...base, schema: model.schema, object_name: model.objectName, webhook_ids: model.webhookIds };
  }
}

export interface OverviewRouteOptions {
  /** The settings in force (environments, server name). */
  readonly gateway: Pick<ConsoleGateway, 'settings'>;
  /** The route table in force (`current` changes on reload). */
  readonly routes: RouteTableHolder;
  readonly console: ConsoleRuntime;
}

export function overviewRoutes(app: FastifyInstance, options: OverviewRouteOptions): void {
  const { gateway, routes } = options;

  app.get('/overview', async () => {
    const table = routes.current;
    const endpoints: Record<ListingKey, number> = { sql: 0, proxy: 0, static: 0, files: 0, webhooks: 0 };
    for (const endpoint of table.endpoints) endpoints[listingKey(endpoint.model)] += 1;
    const settings = gateway.settings();
    return {
      version: versionWithBuild(table.sourceHash),
      uptime_seconds: Math.floor((Date.now() - options.console.startedAt) / 1000),
      endpoints,
      environments: environmentNames(settings),
      server_name: settings.server.environment.serverName,
    };
  });

  app.get('/endpoints', async () => {
    const listing: Record<ListingKey, Record<string, unknown>[]> = { sql: [], proxy: [], static: [], files: [], webhooks: [] };
    const models = routes.current.endpoints.map((endpoint) => endpoint.model);
    for (const model of [...models].sort((a, b) => a.routePath.localeCompare(b.routePath))) {
      listing[listingKey(model)].push(listingItem(model));
    }
    return listing;
  });
}
