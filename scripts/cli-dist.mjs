// The compiled `wharf` command line for the build commands: compiler/cli/main.ts bundled by esbuild
// into .wharf/dist/cli/ (main.js plus one chunk per lazily imported command), npm packages external.
// `wharf build` and `wharf check` run it with no TypeScript loader: registering tsx and transforming
// a few hundred modules cost ~0.4 s of every build, more than an unchanged 1,000-endpoint tree takes.
// Every module's `import.meta.url` is rewritten to its source file's URL, so paths relative to a
// module (schemas/, runtime/console-ui, node_modules) resolve exactly as from the sources; the bundle
// is a cache beside them (.wharf/ is never committed), rebuilt when any file esbuild read changed.
// The stamp lists those files with `size:mtimeMs` and SHA-256: unchanged stats skip reading them;
// a changed stat with the same bytes (a checkout) only refreshes the stamp.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST_DIR, PACKAGE_ROOT, writeAtomic } from './runtime-dist.mjs';

const CLI_DIR = path.join(DIST_DIR, 'cli');
export const CLI_MAIN = path.join(CLI_DIR, 'main.js');
const CLI_STAMP = path.join(CLI_DIR, 'stamp.json');
const CLI_ENTRY = 'compiler/cli/main.ts';
const SELF = fileURLToPath(import.meta.url);

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

function statKey(file) {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : null;
}

function digest(file) {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}

/** [relative path, size:mtimeMs, sha256] of this script and every input of the bundle. */
function inputsOf(rels) {
  return [path.relative(PACKAGE_ROOT, SELF), ...rels].map((rel) => {
    const file = path.join(PACKAGE_ROOT, rel);
    return [rel, statKey(file), digest(file)];
  });
}

/** null when the bundle matches the files on disk; otherwise why not ('absent' or 'changed'). */
function staleness(stamp) {
  if (!stamp || !Array.isArray(stamp.inputs) || !existsSync(CLI_MAIN)) return 'absent';
  let restat = false;
  for (const [rel, stat, hash] of stamp.inputs) {
    const file = path.join(PACKAGE_ROOT, rel);
    if (statKey(file) === stat) continue;
    if (digest(file) !== hash) return 'changed';
    restat = true;
  }
  return restat ? 'restat' : null;
}

/** Rewrites `import.meta.url` of Wharf's own modules to the URL of their source file. */
const sourceUrlPlugin = {
  name: 'source-url',
  setup(build) {
    build.onLoad({ filter: /[\\/](compiler|runtime)[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
    });
  },
};

/**
 * The path of the compiled command line, bundled first when it is absent or any of its inputs
 * changed; null when compiler/ is absent (an image holding only the compiled runtime).
 */
export async function compiledCli() {
  if (!existsSync(path.join(PACKAGE_ROOT, CLI_ENTRY))) return null;
  const stamp = await readFile(CLI_STAMP, 'utf8').then(JSON.parse, () => null);
  const state = staleness(stamp);
  if (state === null) return CLI_MAIN;
  if (state === 'restat') {
    await writeAtomic(CLI_STAMP, `${JSON.stringify({ inputs: inputsOf(stamp.inputs.slice(1).map(([rel]) => rel)) }, null, 2)}\n`);
    return CLI_MAIN;
  }
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: [CLI_ENTRY],
    outdir: CLI_DIR,
    entryNames: 'main',
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [sourceUrlPlugin],
  });
  for (const out of result.outputFiles) await writeAtomic(out.path, out.contents);
  // chunks of earlier bundles (their names carry a hash of their contents)
  const keep = new Set(result.outputFiles.map((out) => path.basename(out.path)));
  for (const name of await readdir(CLI_DIR)) if (name.endsWith('.js') && !keep.has(name)) await rm(path.join(CLI_DIR, name), { force: true });
  const rels = Object.keys(result.metafile.inputs).filter((rel) => !rel.startsWith('node_modules/')).sort();
  await writeAtomic(CLI_STAMP, `${JSON.stringify({ inputs: inputsOf(rels) }, null, 2)}\n`);
  return CLI_MAIN;
}
