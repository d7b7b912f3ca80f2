/**
 * Stage 5: normalize validated entities into the readonly EndpointModel, the only place
 * defaults are filled in (values in defaults.ts). Call it only when validation reported no
 * errors; skipped entities (reserved names) are left out. Output sorted by id.
 */
import path from 'node:path';
import {
  HTTP_METHODS,
  METHOD_MATRIX,
  type EndpointModel,
  type FilesEndpoint,
  type HttpMethod,
  type StaticEndpoint,
  type WebhookEndpoint,
} from '../../runtime/contract/index.js';
import type { EntityContext } from '../stages.js';
import { isSkipped } from '../validate/rules/namespace-reserved.js';
import type { CommonConfig, FilesConfig, SqlConfig, StaticConfig, WebhookConfig } from './config.js';
import { containedPath } from '../../runtime/contract/contained-path.js';
import { staticContentType } from './content-type.js';
import { DEFAULTS } from './defaults.js';
import { normalizeComposite, normalizeProxy } from './normalize-proxy.js';
import { responseTransforms, type EndpointBase } from './normalize-shared.js';
import { normalizeSql } from './normalize-sql.js';
import { endpointId } from './references.js';
import { authorizationOf } from './normalize-authorization.js';

/** Configured methods within the kind's column of the method matrix, in canonical order. */
export function effectiveMethods(ctx: EntityContext): HttpMethod[] {
  const c = ctx.config;
  let configured: readonly string[];
  switch (ctx.kind) {
    case 'sql': {
      const sql = c as unknown as SqlConfig;
      const allowed = sql.AllowedMethods ?? DEFAULTS.sql.AllowedMethods;
      configured = sql.DatabaseObjectType === 'TableValuedFunction' ? allowed.filter((m) => m === 'GET') : allowed;
      break;
    }
    case 'proxy':
    case 'composite':
      configured = (c.Methods as readonly string[] | undefined) ?? [];
      break;
    case 'static':
      // QUERY always (spec method matrix); without EnableFiltering it answers like the GET
      configured = ['GET', 'QUERY'];
      break;
    default:
      configured = METHOD_MATRIX[ctx.kind];
  }
  const column = METHOD_MATRIX[ctx.kind] as readonly string[];
  return HTTP_METHODS.filter((m) => configured.includes(m) && column.includes(m));
}

function base(ctx: EntityContext): EndpointBase {
  const c = ctx.config as unknown as CommonConfig;
  return {
    id: endpointId(ctx),
    name: ctx.name,
    namespace: ctx.namespace,
    namespaceSource: ctx.namespaceSource,
    routePath: ctx.routePath,
    routeAliases: [...ctx.routeAliases],
    sourceFile: ctx.parsed.source.file,
    displayName: c.DisplayName ?? ctx.name,
    namespaceDisplayName: c.NamespaceDisplayName ?? null,
    allowedEnvironments: c.AllowedEnvironments ? [...c.AllowedEnvironments] : null,
    enabled: c.Enabled ?? DEFAULTS.common.Enabled,
    hidden: c.Hidden ?? DEFAULTS.common.Hidden,
    deprecated: c.Deprecated ?? DEFAULTS.common.Deprecated,
    documentation: {
      tagDescription: c.Documentation?.TagDescription ?? null,
      methodDescriptions: { ...(c.Documentation?.MethodDescriptions ?? {}) },
    },
    methods: effectiveMethods(ctx),
    ...authorizationOf(ctx),
  };
}

function normalizeStatic(ctx: EntityContext, b: EndpointBase): StaticEndpoint {
  const c = ctx.config as unknown as StaticConfig;
  const file = containedPath(c.ContentFile) ?? c.ContentFile;
  return {
    ...b,
    kind: 'static',
    contentFile: path.posix.join(path.posix.dirname(ctx.parsed.source.file), file),
    contentType: staticContentType(c.ContentFile, c.ContentType),
    enableFiltering: c.EnableFiltering ?? DEFAULTS.static.EnableFiltering,
    responseTransforms: responseTransforms(c.ResponseTransforms),
  };
}

function normalizeWebhook(ctx: EntityContext, b: EndpointBase): WebhookEndpoint {
  const c = ctx.config as unknown as WebhookConfig;
  return {
    ...b,
    kind: 'webhook',
    schema: c.DatabaseSchema ?? DEFAULTS.webhook.DatabaseSchema,
    objectName: c.DatabaseObjectName,
    webhookIds: [...c.AllowedColumns],
  };
}

function normalizeFiles(ctx: EntityContext, b: EndpointBase): FilesEndpoint {
  const c = ctx.config as unknown as FilesConfig;
  return {
    ...b,
    kind: 'files',
    storageType: c.StorageType,
    baseDirectory: c.BaseDirectory !== undefined ? (containedPath(c.BaseDirectory) ?? c.BaseDirectory) : ctx.name,
    storageDirectory: c.StorageDirectory ?? null,
    allowedExtensions: (c.AllowedExtensions ?? DEFAULTS.files.AllowedExtensions).map((e) => e.toLowerCase()),
    maxFileSizeBytes: c.MaxFileSizeBytes ?? null,
  };
}

export function normalizeOne(ctx: EntityContext, contexts: readonly EntityContext[]): EndpointModel {
  const b = base(ctx);
  switch (ctx.kind) {
    case 'sql':
      return normalizeSql(ctx, b, contexts);
    case 'proxy':
      return normalizeProxy(ctx, b);
    case 'composite':
      return normalizeComposite(ctx, b, contexts);
    case 'static':
      return normalizeStatic(ctx, b);
    case 'webhook':
      return normalizeWebhook(ctx, b);
    case 'files':
      return normalizeFiles(ctx, b);
  }
}

export function normalize(contexts: readonly EntityContext[]): EndpointModel[] {
  const served = contexts.filter((c) => !isSkipped(c));
  return served
    .map((ctx) => normalizeOne(ctx, served))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
