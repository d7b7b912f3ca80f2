/**
 * The compiler pipeline: discover -> parse -> identify -> validate -> normalize -> emit.
 * Pure with respect to generated/: returns the outputs; `write` (write.ts) puts them on disk.
 * Every stage collects diagnostics; one run reports them all; any blocking error means no outputs.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { EndpointModel } from '../runtime/contract/index.js';
import { emitConsoleUi } from './console-ui/build.js';
import { buildDocsSite } from './docs-site/index.js';
import { discover } from './discover.js';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { emitAll } from './emit/index.js';
import { identify } from './identify.js';
import { normalize } from './model/normalize.js';
import { parseEntity } from './parse.js';
import { hashSources } from './source-hash.js';
import type { EntityContext, OutputFile } from './stages.js';
import { validate } from './validate/index.js';

/**
 * Diagnostics whose endpoint is skipped instead of failing the build (spec: an endpoint claiming
 * a reserved namespace is skipped by the loader). `wharf check`, which CI runs, fails on them.
 */
export const SKIP_CODES: ReadonlySet<string> = new Set(['namespace-reserved', 'endpoint-name-reserved']);

export interface CompileOptions {
  readonly root: string;
  /** 'check' turns skip diagnostics into errors. Default 'build'. */
  readonly mode?: 'build' | 'check';
  /** Also precompile docs/ into generated/docs/ (default: when the project has a docs/ folder). */
  readonly docs?: boolean;
  /** Also emit the web console's assets into generated/ui/ (default true). */
  readonly consoleUi?: boolean;
}

export interface CompileResult {
  readonly diagnostics: Diagnostic[];
  readonly models: EndpointModel[] | null;
  /** null when any blocking error occurred: nothing may be written then. */
  readonly outputs: OutputFile[] | null;
  readonly sourceHash: string;
  /** Which paths of generated/ this compile owns (prunable). */
  readonly owns: (relativePath: string) => boolean;
}

export const GENERATED_README = `# generated/

Everything in this folder is written by \`npm run build\` (\`wharf build\`) from \`endpoints/\`,
\`schemas/\` and \`docs/\`. Do not edit it by hand: CI runs \`wharf check\` and fails when these
files differ from a fresh build. Review \`openapi.json\` diffs in pull requests.
`;

export async function compile(options: CompileOptions): Promise<CompileResult> {
  const { root } = options;
  const mode = options.mode ?? 'build';
  const withDocs = options.docs ?? existsSync(path.join(root, 'docs'));
  const withUi = options.consoleUi !== false;
  const owns = (p: string) => (withDocs || !p.startsWith('docs/')) && (withUi || !p.startsWith('ui/'));
  const diagnostics: Diagnostic[] = [];

  const found = await discover(root);
  diagnostics.push(...found.diagnostics);

  const contexts: EntityContext[] = [];
  for (const source of found.entities) {
    const parsed = parseEntity(source, await readFile(source.absolutePath, 'utf8'));
    diagnostics.push(...parsed.diagnostics);
    if (parsed.entity.value === undefined) continue;
    const identified = identify(parsed.entity);
    diagnostics.push(...identified.diagnostics);
    if (identified.context) contexts.push(identified.context);
  }
  diagnostics.push(...validate(contexts));

  const skipped = new Set(diagnostics.filter((d) => SKIP_CODES.has(d.code)).map((d) => d.file));
  const reported = diagnostics.map((d): Diagnostic =>
    SKIP_CODES.has(d.code) ? { ...d, severity: mode === 'check' ? 'error' : 'warning' } : d,
  );
  const sourceHash = await hashSources(root, ['endpoints', 'schemas']);
  if (hasErrors(reported.filter((d) => !SKIP_CODES.has(d.code)))) {
    return { diagnostics: sortDiagnostics(reported), models: null, outputs: null, sourceHash, owns };
  }

  const models = normalize(contexts.filter((c) => !skipped.has(c.parsed.source.file)));
  const outputs: OutputFile[] = [{ path: 'README.md', content: GENERATED_README }];
  outputs.push(...(await emitAll({ models, sourceHash, root })));
  if (withUi) outputs.push(...(await emitConsoleUi()));
  if (withDocs) {
    const docs = await buildDocsSite({ root, dates: 'front-matter' });
    reported.push(...docs.diagnostics);
    outputs.push(...docs.files.map((f) => ({ path: `docs/${f.path}`, content: f.content })));
  }
  // Skipped endpoints never block writing; `check` still fails on them (they are errors there).
  const fatal = hasErrors(reported.filter((d) => !SKIP_CODES.has(d.code)));
  outputs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    diagnostics: sortDiagnostics(reported),
    models,
    outputs: fatal ? null : outputs,
    sourceHash,
    owns,
  };
}
