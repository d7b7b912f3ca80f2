/**
 * Load stage of the runtime: generated/manifest.json (refusing an unknown schema version), the route
 * bundle (imported under `?v=<sourceHash>` so a reload gets fresh modules), openapi.json; checks
 * that bundle and manifest come from the same sources, that no endpoint names a path the build
 * refuses (endpoint-paths.ts), and joins model + route module per endpoint.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { GENERATED_FILES, MANIFEST_SCHEMA_VERSION } from '../contract/index.js';
import type { EndpointModel, Manifest, RouteModule, RoutesBundle } from '../contract/index.js';
import { WharfError } from '../errors/wharf-error.js';
import { displayPath } from './display-path.js';
import { checkEndpointPaths } from './endpoint-paths.js';
import type { LoadedEndpoint, LoadedGenerated } from './loaded-endpoint.js';
import { OpenApiDocument } from './openapi-document.js';

async function readBytes(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseManifest(text: string, file: string): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new WharfError('LOAD_MANIFEST_INVALID', { file, reason: (error as Error).message });
  }
  if (!isRecord(json)) throw new WharfError('LOAD_MANIFEST_INVALID', { file, reason: 'not a JSON object' });
  if (json['schemaVersion'] !== MANIFEST_SCHEMA_VERSION) {
    throw new WharfError('LOAD_SCHEMA_VERSION', {
      file,
      found: JSON.stringify(json['schemaVersion'] ?? null),
      expected: MANIFEST_SCHEMA_VERSION,
    });
  }
  if (typeof json['sourceHash'] !== 'string' || json['sourceHash'] === '') {
    throw new WharfError('LOAD_MANIFEST_INVALID', { file, reason: 'sourceHash must be a non-empty string' });
  }
  const endpoints = json['endpoints'];
  if (!Array.isArray(endpoints) || !endpoints.every((item) => isRecord(item) && typeof item['id'] === 'string')) {
    throw new WharfError('LOAD_MANIFEST_INVALID', { file, reason: 'endpoints must be an array of endpoint models' });
  }
  return json as unknown as Manifest;
}

async function importBundle(file: string, sourceHash: string): Promise<RoutesBundle> {
  const shown = displayPath(file);
  let namespace: Record<string, unknown>;
  try {
    const url = `${pathToFileURL(file).href}?v=${encodeURIComponent(sourceHash)}`;
    namespace = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND'
      ? 'file not found'
      : (error as Error).message;
    throw new WharfError('LOAD_BUNDLE_FAILED', { file: shown, reason }, { cause: error });
  }
  if (typeof namespace['sourceHash'] !== 'string' || !Array.isArray(namespace['routes'])) {
    throw new WharfError('LOAD_BUNDLE_FAILED', {
      file: shown,
      reason: 'it must export sourceHash (string) and routes (array)',
    });
  }
  return namespace as unknown as RoutesBundle;
}

export function joinEndpoints(
  models: readonly EndpointModel[],
  routes: readonly RouteModule[],
): LoadedEndpoint[] {
  const byId = new Map<string, RouteModule>();
  for (const route of routes) {
    if (byId.has(route.endpointId)) {
      throw new WharfError('LOAD_ROUTE_MISMATCH', { reason: `two route modules for '${route.endpointId}'` });
    }
    byId.set(route.endpointId, route);
  }
  const joined = models.map((model) => {
    const route = byId.get(model.id);
    if (!route) throw new WharfError('LOAD_ROUTE_MISMATCH', { reason: `no route module for '${model.id}'` });
    if (route.kind !== model.kind) {
      throw new WharfError('LOAD_ROUTE_MISMATCH', {
        reason: `'${model.id}' is ${model.kind} in the manifest but ${route.kind} in the bundle`,
      });
    }
    byId.delete(model.id);
    return { id: model.id, kind: model.kind, model, route } as LoadedEndpoint;
  });
  const extra = [...byId.keys()];
  if (extra.length > 0) {
    throw new WharfError('LOAD_ROUTE_MISMATCH', { reason: `route modules without a manifest entry: ${extra.join(', ')}` });
  }
  return joined;
}

export async function loadGenerated(generatedDir: string): Promise<LoadedGenerated> {
  const dir = path.resolve(generatedDir);
  const manifestFile = path.join(dir, GENERATED_FILES.manifest);
  const shownManifest = displayPath(manifestFile);
  const manifestText = (await readBytes(manifestFile))?.toString('utf8') ?? null;
  if (manifestText === null) throw new WharfError('LOAD_MANIFEST_MISSING', { file: shownManifest });
  const manifest = parseManifest(manifestText, shownManifest);
  // the project root holds generated/ (as for the Static area): paths the build refuses are refused here too
  checkEndpointPaths(manifest.endpoints, path.dirname(dir));

  const bundleFile = path.join(dir, GENERATED_FILES.routesBundle);
  const bundle = await importBundle(bundleFile, manifest.sourceHash);
  if (bundle.sourceHash !== manifest.sourceHash) {
    throw new WharfError('LOAD_BUNDLE_STALE', {
      file: displayPath(bundleFile),
      bundleHash: bundle.sourceHash.slice(0, 12),
      manifestHash: manifest.sourceHash.slice(0, 12),
    });
  }
  const endpoints = joinEndpoints(manifest.endpoints, bundle.routes);

  const openapiFile = path.join(dir, GENERATED_FILES.openapi);
  const openapiBytes = await readBytes(openapiFile);
  const openapi = openapiBytes === null ? null : OpenApiDocument.of(openapiBytes, displayPath(openapiFile));
  return { sourceHash: manifest.sourceHash, endpoints, openapi };
}
