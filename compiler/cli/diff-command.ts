/**
 * `wharf diff [BASE] [--allow-breaking] [--root DIR]`: the OpenAPI of the working tree (compiled
 * in memory, as `wharf check` does) against a base: a file path, or a git ref whose
 * generated/openapi.json is read with `git show REF:generated/openapi.json`; by default the merge
 * base of HEAD with the main branch. Prints each change as breaking or compatible and exits 1 on a
 * breaking change unless --allow-breaking (2 on a usage error or an unreadable base).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { diffOpenApi, formatChange, hasBreaking } from '../openapi-diff/diff.js';
import { printDiagnostics, type Printer } from './build-command.js';

const USAGE = 'Usage: wharf diff [BASE] [--allow-breaking] [--root DIR]   (BASE: a git ref or an OpenAPI JSON file; default: the merge base with main)';
const OPENAPI = 'generated/openapi.json';

function git(root: string, args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
}

/** The merge base of HEAD with the first of main, origin/main, master, origin/master that exists. */
function defaultBase(root: string): string {
  for (const branch of ['main', 'origin/main', 'master', 'origin/master']) {
    try {
      git(root, ['rev-parse', '--verify', '--quiet', `${branch}^{commit}`]);
    } catch {
      continue;
    }
    return git(root, ['merge-base', 'HEAD', branch]).trim();
  }
  throw new Error('no main branch (main, origin/main, master) to take the merge base with; name a BASE');
}

/** The base document's text and a label for it. */
export function readBase(root: string, base: string | undefined): { text: string; label: string } {
  if (base !== undefined) {
    const file = path.resolve(root, base);
    if (existsSync(file) && statSync(file).isFile()) return { text: readFileSync(file, 'utf8'), label: base };
  }
  const ref = base ?? defaultBase(root);
  try {
    // `./` makes the path relative to --root inside the repository, wherever its top level is.
    return { text: git(root, ['show', `${ref}:./${OPENAPI}`]), label: `${base ?? `merge base ${ref.slice(0, 12)}`}:${OPENAPI}` };
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim().split('\n')[0] ?? String(error);
    throw new Error(`cannot read ${OPENAPI} at '${ref}': ${detail}`);
  }
}

export async function runDiffCommand(argv: readonly string[], root: string, print: Printer): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { 'allow-breaking': { type: 'boolean' }, root: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (error) {
    print.err(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    print.err(USAGE);
    return 2;
  }
  const projectRoot = values.root ?? root;
  let base: unknown;
  let label: string;
  try {
    const read = readBase(projectRoot, positionals[0]);
    label = read.label;
    base = JSON.parse(read.text);
  } catch (error) {
    print.err(`wharf diff: ${(error as Error).message}`);
    return 2;
  }
  const { compile } = await import('../pipeline.js');
  const result = await compile({ root: projectRoot, mode: 'check', docs: false });
  const head = result.outputs?.find((f) => f.path === 'openapi.json');
  if (result.diagnostics.some((d) => d.severity === 'error') || !head) {
    printDiagnostics(result.diagnostics, print);
    print.err('wharf diff: the working tree does not build.');
    return 2;
  }
  const changes = diffOpenApi(base, JSON.parse(typeof head.content === 'string' ? head.content : Buffer.from(head.content).toString('utf8')));
  for (const change of changes) print.out(formatChange(change));
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  const summary = `${changes.length} change(s) against ${label}: ${breaking} breaking, ${changes.length - breaking} compatible.`;
  if (!hasBreaking(changes)) {
    print.out(summary);
    return 0;
  }
  if (values['allow-breaking']) {
    print.out(`${summary} Allowed (--allow-breaking).`);
    return 0;
  }
  print.err(`${summary} Clients of the base break; pass --allow-breaking if that is intended.`);
  return 1;
}
