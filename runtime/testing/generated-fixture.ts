/**
 * Test helper: writes a small generated/ folder (manifest.json, routes.bundle.mjs, openapi.json)
 * into a temp dir, with complete endpoint models built from a few fields. Used by runtime tests
 * until (and besides) the real emitters.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { METHOD_MATRIX, MANIFEST_SCHEMA_VERSION } from '../contract/index.js';
import type { EndpointKind, EndpointModel, HttpMethod, RouteModule } from '../contract/index.js';

export interface EndpointSpec {
  readonly kind: EndpointKind;
  readonly routePath: string;
  readonly methods?: readonly HttpMethod[];
  readonly aliases?: readonly string[];
  readonly allowedEnvironments?: readonly string[] | null;
  readonly enabled?: boolean;
  readonly displayName?: string;
  /** SQL only: make it a table-valued function with this many Path parameters. */
  readonly functionPathParameters?: number;
  /** SQL and Proxy: per-endpoint cache duration override (default null = server default). */
  readonly cacheDurationSeconds?: number | null;
  /** Model fields laid over the defaults (e.g. Files `allowedExtensions`, a Proxy's `url`, `retry`). */
  readonly overrides?: Readonly<Record<string, unknown>>;
}

const DEFAULT_METHODS: Record<EndpointKind, readonly HttpMethod[]> = {
  sql: ['GET'],
  proxy: ['GET', 'POST'],
  composite: ['POST'],
  static: ['GET', 'QUERY'], // as the compiler normalizes it (spec method matrix)
  webhook: ['POST'],
  files: ['GET', 'POST', 'DELETE'],
};

export function endpointModel(spec: EndpointSpec): EndpointModel {
  const model = defaultModel(spec);
  return spec.overrides ? ({ ...model, ...spec.overrides } as EndpointModel) : model;
}

function defaultModel(spec: EndpointSpec): EndpointModel {
  const segments = spec.routePath.split('/');
  const name = segments.at(-1)!;
  const namespace = segments.length > 1 ? segments.slice(0, -1).join('/') : null;
  const methods = (spec.methods ?? DEFAULT_METHODS[spec.kind]).filter((m) => METHOD_MATRIX[spec.kind].includes(m));
  const base = {
    id: `${spec.kind}:${spec.routePath}`,
    name,
    namespace,
    namespaceSource: namespace ? ('directory' as const) : ('none' as const),
    routePath: spec.routePath,
    routeAliases: spec.aliases ?? [],
    sourceFile: `endpoints/${spec.kind}/${spec.routePath}/entity.json`,
    displayName: spec.displayName ?? name,
    namespaceDisplayName: null,
    allowedEnvironments: spec.allowedEnvironments ?? null,
    enabled: spec.enabled ?? true,
    hidden: false,
    deprecated: false,
    documentation: { tagDescription: null, methodDescriptions: {} },
    methods,
  };
  const transforms = { remove: [], rename: {}, mask: [] };
  switch (spec.kind) {
    case 'sql': {
      const pathParams = spec.functionPathParameters ?? 0;
      return {
        ...base,
        kind: 'sql',
        schema: 'dbo',
        objectName: name,
        objectType: pathParams > 0 ? 'TableValuedFunction' : 'Table',
        primaryKey: pathParams > 0 ? null : 'Id',
        columns: [{ db: 'Id', name: 'Id' }],
        functionParameters: Array.from({ length: pathParams }, (_, index) => ({
          name: `p${index + 1}`,
          sqlType: 'int',
          source: 'Path' as const,
          position: index + 1,
          required: true,
          defaultValue: null,
          validationPattern: null,
        })),
        procedure: null,
        writeMode: 'Table', requiredColumns: [], columnValidation: [],
        responseTransforms: transforms,
        relationships: [], maxBatchRows: null, paging: 'Skip',
        cacheDurationSeconds: spec.cacheDurationSeconds ?? null,
      };
    }
    case 'proxy':
      return {
        ...base,
        kind: 'proxy',
        url: 'http://127.0.0.1:9/upstream',
        fallbackUrls: [],
        retry: { attempts: 1, delayMs: 200 },
        responseTransforms: transforms,
        supportsOData: false,
        rewriteUrls: true,
        forwardCookies: false,
        timeoutMs: null,
        contentType: 'application/json',
        methodTranslation: {},
        appendHeaders: [],
        deletePatterns: [],
        cacheDurationSeconds: spec.cacheDurationSeconds ?? null,
      };
    case 'composite':
      return { ...base, kind: 'composite', url: 'http://127.0.0.1:9', compositeName: name, description: null, steps: [] };
    case 'static':
      return { ...base, kind: 'static', contentFile: `${path.posix.dirname(base.sourceFile)}/x.json`, contentType: 'application/json', enableFiltering: false, responseTransforms: transforms };
    case 'webhook':
      return { ...base, kind: 'webhook', schema: 'dbo', objectName: 'Webhooks', webhookIds: [] };
    case 'files':
      return {
        ...base,
        kind: 'files',
        storageType: 'Local',
        baseDirectory: name,
        storageDirectory: null,
        allowedExtensions: [],
        maxFileSizeBytes: null,
      };
  }
}

export function routeModuleFor(model: EndpointModel): RouteModule {
  const base = {
    endpointId: model.id,
    methods: model.methods,
    routeKeys: [model.routePath, ...model.routeAliases].map((key) => key.toLowerCase()),
    schemas: { queryBody: null, writeBody: null, item: null, list: null },
  };
  if (model.kind === 'sql') {
    return {
      ...base,
      kind: 'sql',
      columnsByName: { Id: 'Id' },
      namesByColumn: { Id: 'Id' },
      defaultSelect: ['Id'],
      supportsExpand: model.objectType !== 'TableValuedFunction',
    };
  }
  return { ...base, kind: model.kind };
}

export interface FixtureContent {
  readonly endpoints: readonly EndpointSpec[];
  readonly sourceHash?: string;
  /** Overrides written into manifest.json as is (e.g. a wrong schemaVersion). */
  readonly manifestOverrides?: Record<string, unknown>;
  /** sourceHash exported by the bundle; default the manifest's. */
  readonly bundleHash?: string;
  readonly openapi?: unknown;
  /** Text of database.snapshot.json (the build's copy of endpoints/database.snapshot.json); none = not written. */
  readonly dbSnapshot?: string;
}

/** Writes generated/ files into `dir` (created if needed). */
export async function writeGenerated(dir: string, content: FixtureContent): Promise<void> {
  await mkdir(dir, { recursive: true });
  const models = content.endpoints.map(endpointModel).sort((a, b) => a.id.localeCompare(b.id));
  const sourceHash = content.sourceHash ?? 'fixture-hash-1';
  const manifest = { schemaVersion: MANIFEST_SCHEMA_VERSION, sourceHash, endpoints: models, ...content.manifestOverrides };
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const routes = models.map(routeModuleFor);
  const bundle =
    `export const sourceHash = ${JSON.stringify(content.bundleHash ?? sourceHash)};\n` +
    `export const routes = ${JSON.stringify(routes, null, 2)};\n`;
  await writeFile(path.join(dir, 'routes.bundle.mjs'), bundle);
  const openapi = content.openapi ?? { openapi: '3.1.0', info: { title: 'fixture', version: sourceHash }, paths: {} };
  await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(openapi));
  if (content.dbSnapshot !== undefined) await writeFile(path.join(dir, 'database.snapshot.json'), content.dbSnapshot);
}

export interface TempProject {
  readonly root: string;
  readonly generatedDir: string;
  readonly environmentsDir: string;
  cleanup(): Promise<void>;
}

export interface TempProjectOptions {
  readonly generated: FixtureContent;
  readonly serverSettings?: unknown;
  /** environment name -> settings.json content */
  readonly environments?: Readonly<Record<string, unknown>>;
}

export async function createTempProject(options: TempProjectOptions): Promise<TempProject> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-runtime-'));
  const generatedDir = path.join(root, 'generated');
  const environmentsDir = path.join(root, 'environments');
  await writeGenerated(generatedDir, options.generated);
  await mkdir(environmentsDir, { recursive: true });
  if (options.serverSettings !== undefined) {
    await writeFile(path.join(environmentsDir, 'settings.json'), JSON.stringify(options.serverSettings));
  }
  for (const [name, settings] of Object.entries(options.environments ?? {})) {
    await mkdir(path.join(environmentsDir, name), { recursive: true });
    await writeFile(path.join(environmentsDir, name, 'settings.json'), JSON.stringify(settings));
  }
  return { root, generatedDir, environmentsDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}
