/** `wharf build` and `wharf check`: compile, print diagnostics, write or compare generated/. */
import path from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../diagnostics.js';
import { diffOutputs, isClean } from '../output-tree.js';
import { buildKey, cacheDir, outputsIntact, readBuildCache, sameAsRecorded, toolKey, writeBuildCache } from '../build-cache.js';
import { buildScope } from '../build-scope.js';
import type { CompileResult } from '../pipeline.js';
import { OutputWriteError, writeOutputs } from '../write.js';

import { consolePrinter, type Printer } from '../../runtime/contract/printer.js';

export { consolePrinter, type Printer };

export function printDiagnostics(diagnostics: readonly Diagnostic[], print: Printer): void {
  for (const d of diagnostics) print.err(formatDiagnostic(d));
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  if (diagnostics.length) print.err(`${errors} error(s), ${warnings} warning(s)`);
}

export function generatedDir(root: string): string {
  return path.join(root, 'generated');
}

/** What a build did: a compile result, or `cached` when inputs and generated/ were unchanged. */
export type BuildOutcome = CompileResult | { readonly cached: true; readonly outputs: true; readonly endpoints: number };

/**
 * Compile and write (outputs null = failed, nothing written). An unchanged tree (same inputs, and
 * generated/ still holding the bytes the last build wrote) skips the compile (compiler/build-cache.ts).
 */
export async function runBuild(root: string, print: Printer, docs?: boolean): Promise<BuildOutcome> {
  const started = performance.now();
  const options = { root, ...(docs === false ? { docs } : {}) };
  const scope = buildScope(options);
  const { key, sourceHash, sourceBytes } = await buildKey(root, { docs: scope.withDocs });
  const cache = await readBuildCache(root);
  if (cache?.key === key && (await outputsIntact(generatedDir(root), cache, scope.owns))) {
    for (const line of cache.diagnostics) print.err(line);
    const ms = Math.round(performance.now() - started);
    print.out(`Compiled ${cache.endpoints} endpoints into generated/ in ${ms} ms (unchanged since the last build: 0 file(s) written).`);
    return { cached: true, outputs: true, endpoints: cache.endpoints };
  }
  // loaded only when there is work: the compiler's dependencies (esbuild, ajv, json-schema-to-typescript) take a while to load
  const { compile } = await import('../pipeline.js');
  const result = await compile({ ...options, cacheDir: cacheDir(root), toolHash: await toolKey(), sourceHash, sourceBytes });
  printDiagnostics(result.diagnostics, print);
  if (!result.outputs) {
    print.err('Build failed: nothing was written to generated/.');
    return result;
  }
  let report;
  try {
    report = await writeOutputs(generatedDir(root), result.outputs, result.owns, sameAsRecorded(generatedDir(root), cache));
  } catch (error) {
    if (!(error instanceof OutputWriteError)) throw error;
    print.err(`${error.message}\nBuild failed: generated/ could not be written completely; remove what is in the way and build again.`);
    return { ...result, outputs: null };
  }
  await writeBuildCache(
    root,
    generatedDir(root),
    { key, endpoints: result.models?.length ?? 0, diagnostics: result.diagnostics.map(formatDiagnostic) },
    result.outputs,
  );
  const ms = Math.round(performance.now() - started);
  print.out(
    `Compiled ${result.models?.length ?? 0} endpoints into generated/ in ${ms} ms ` +
      `(${result.analysed} entity file(s) analysed, ${report.written.length} file(s) written, ${report.removed.length} removed).`,
  );
  return result;
}

/** Compile in memory; fail on any error diagnostic or when generated/ differs from a fresh build. */
export async function runCheck(root: string, print: Printer, docs?: boolean): Promise<number> {
  const { compile } = await import('../pipeline.js');
  const result = await compile({ root, mode: 'check', ...(docs === false ? { docs } : {}) });
  printDiagnostics(result.diagnostics, print);
  if (result.diagnostics.some((d) => d.severity === 'error') || !result.outputs) {
    print.err('Check failed: the configuration has errors.');
    return 1;
  }
  const drift = await diffOutputs(generatedDir(root), result.outputs, result.owns);
  if (!isClean(drift)) {
    for (const f of drift.changed) print.err(`generated/${f}: differs from a fresh build`);
    for (const f of drift.missing) print.err(`generated/${f}: missing`);
    for (const f of drift.stale) print.err(`generated/${f}: stale (no longer produced)`);
    print.err('Check failed: generated/ is stale. Run `npm run build` and commit the result.');
    return 1;
  }
  print.out(`Check passed: ${result.models?.length ?? 0} endpoints, generated/ is up to date.`);
  return 0;
}
