/**
 * The compiler pipeline: discover -> parse -> identify -> validate -> normalize -> emit.
 * Pure with respect to generated/: returns the outputs; `write` (write.ts) puts them on disk.
 * Every stage collects diagnostics; one run reports them all; any blocking error means no outputs.
 * With a cache folder (`wharf build`), each entity's own validation, model and route module come
 * from `.wharf/entities.json` while its key is unchanged (endpoint-analysis.ts), and the
 * endpoint-independent outputs from `.wharf/artifacts/`; without one (`wharf check`) everything is
 * computed. Either way the same code runs over the same values, so the bytes are the same.
 */
import { readFileSync } from 'node:fs';
import type { EndpointModel } from '../runtime/contract/index.js';
import { artifactCache, TOOL_ARTIFACTS_DIR } from './artifact-cache.js';
import { makeConsoleUi } from './console-ui/build.js';
import { makeSyncDashboardUi } from './sync/dashboard-ui.js';
import { buildScope } from './build-scope.js';
import { discover } from './discover.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { emitAll } from './emit/index.js';
import { hashSources, SOURCE_FOLDERS } from './source-hash.js';
import type { OutputFile } from './stages.js';
import { validateAcross } from './validate/index.js';
import { analyzeEntities, modelsOf } from './endpoint-analysis.js';
import { readEntityCache, writeEntityCache } from './entity-cache.js';
import { readOpenApiFragments, writeOpenApiFragments } from './openapi-fragment-cache.js';
import { RULES } from './validate/rules/index.js';
import { useStandaloneValidators } from './validate/schema.js';
import { readBlockedIpRanges } from './network-policy.js';
import { validateSettingsFiles } from './settings/validate-settings.js';
import { validateSyncConfig } from './sync/validate-sync.js';
import { readDbSnapshot } from './db-snapshot/read.js';

/**
 * Reserved names: the spec's loader skips such an endpoint at load time, and the runtime keeps
 * that as its defence for files that bypassed the build; the build itself fails on them (errors
 * in `build` and `check` alike), so CI catches them.
 */
import { SKIP_CODES } from './skip-codes.js';
import { parseAndIdentify } from './entity-contexts.js';

export { SKIP_CODES };

export interface CompileOptions {
  readonly root: string;
  /** Kept for callers: 'build' and 'check' report the same diagnostics (reserved names are errors in both). */
  readonly mode?: 'build' | 'check';
  /**
   * Also check docs/ (broken links, missing images, bad formulas; default: when the project has a
   * docs/ folder). Nothing of it is written: `wharf docs serve|export` build the site themselves.
   */
  readonly docs?: boolean;
  /** Also emit the web console's assets into generated/ui/ (default true). */
  readonly consoleUi?: boolean;
  /** Folder of the build's memory (`<root>/.wharf`); none = compute everything (what `wharf check` does). */
  readonly cacheDir?: string;
  /** With cacheDir: the hash of the tool (compiler, runtime, schemas, lock file) that made the cached results. */
  readonly toolHash?: string;
  /** hashSources of SOURCE_FOLDERS when the caller read them already (`wharf build`: buildKey); default: hashed here. */
  readonly sourceHash?: string;
  /**
   * The bytes of the files the caller read already, by absolute path (`wharf build`: buildKey): an
   * entity.json found there is not read again (on a slow file system an open costs far more than
   * the parse). Default: every entity.json is read here.
   */
  readonly sourceBytes?: ReadonlyMap<string, Buffer>;
}

export interface CompileResult {
  readonly diagnostics: Diagnostic[];
  readonly models: EndpointModel[] | null;
  /** null when any blocking error occurred: nothing may be written then. */
  readonly outputs: OutputFile[] | null;
  readonly sourceHash: string;
  /** Which paths of generated/ this compile owns (prunable). */
  readonly owns: (relativePath: string) => boolean;
  /** Entities analysed in this compile (validated alone, normalized, printed); the others came from the cache. */
  readonly analysed: number;
}

export const GENERATED_README = `# generated/

Everything in this folder is written by \`npm run build\` (\`wharf build\`) from \`endpoints/\`
and \`schemas/\`. Do not edit it by hand: CI runs \`wharf check\` and fails when these
files differ from a fresh build. Review \`openapi.json\` diffs in pull requests.
`;

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const { root } = options;
  const { withDocs, withUi, owns } = buildScope(options);
  const diagnostics: Diagnostic[] = [];

  const found = await discover(root);
  diagnostics.push(...found.diagnostics);

  const known = options.sourceBytes;
  const { contexts, diagnostics: parsedDiagnostics } = await parseAndIdentify(found.entities, async (source) => known?.get(source.absolutePath) ?? readFileSync(source.absolutePath));
  diagnostics.push(...parsedDiagnostics);
  const blockedIpRanges = await readBlockedIpRanges(root);
  const cache = options.cacheDir !== undefined && options.toolHash !== undefined ? { dir: options.cacheDir, tool: options.toolHash } : null;
  if (cache) useStandaloneValidators(TOOL_ARTIFACTS_DIR);
  const analysis = analyzeEntities(contexts, {
    blockedIpRanges,
    ...(cache ? { cache: { records: await readEntityCache(cache.dir, cache.tool), inputs: JSON.stringify(blockedIpRanges) } } : {}),
  });
  if (cache) await writeEntityCache(cache.dir, cache.tool, analysis.records);
  const verdicts = new Map(contexts.map((ctx, i) => [ctx, analysis.results[i]] as const));
  diagnostics.push(...analysis.results.flatMap((r) => r.diagnostics));
  const db = readDbSnapshot(root);
  diagnostics.push(...db.diagnostics);
  diagnostics.push(...validateAcross(contexts, (ctx) => verdicts.get(ctx)?.schemaValid === true, RULES, { blockedIpRanges, dbSnapshot: db.snapshot }));
  diagnostics.push(...(await validateSettingsFiles(root)));
  diagnostics.push(...(await validateSyncConfig(root)));

  const reported = [...diagnostics];
  const sourceHash = options.sourceHash ?? (await hashSources(root, SOURCE_FOLDERS));
  const { analysed } = analysis;
  if (hasErrors(reported)) {
    return { diagnostics: sortDiagnostics(reported), models: null, outputs: null, sourceHash, owns, analysed };
  }

  const { models, routeSource } = modelsOf(contexts, analysis.results);
  const artifacts = artifactCache(options.cacheDir === undefined ? null : TOOL_ARTIFACTS_DIR);
  const outputs: OutputFile[] = [{ path: 'README.md', content: GENERATED_README }];
  const openApiFragments = cache ? await readOpenApiFragments(cache.dir, cache.tool) : undefined;
  outputs.push(...(await emitAll({ models, sourceHash, root, artifacts, routeSource, dbSnapshot: db.snapshot, ...(openApiFragments ? { openApiFragments } : {}) })));
  if (cache && openApiFragments) await writeOpenApiFragments(cache.dir, cache.tool, openApiFragments);
  if (withUi) {
    outputs.push(...(await artifacts.get('console-ui', '', makeConsoleUi)));
    outputs.push(...(await artifacts.get('sync-ui', '', makeSyncDashboardUi)));
  }
  if (withDocs) {
    // checked, not emitted: nothing reads precompiled pages (`wharf docs serve|export` build in
    // memory, with the file dates the spec asks for); markdown-it and shiki load only for this
    const { buildDocsSite } = await import('./docs-site/index.js');
    reported.push(...(await buildDocsSite({ root, dates: 'front-matter' })).diagnostics);
  }
  const fatal = hasErrors(reported);
  outputs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    diagnostics: sortDiagnostics(reported),
    models,
    outputs: fatal ? null : outputs,
    sourceHash,
    owns,
    analysed,
  };
}
