// The compiled `wharf` command line for the build commands: compiler/cli/main.ts bundled by esbuild
// into .wharf/dist/cli/ (main.js plus one chunk per lazily imported command), npm packages external.
// `wharf build` and `wharf check` run it with no TypeScript loader: registering tsx and transforming
// a few hundred modules cost ~0.4 s of every build, more than an unchanged 1,000-endpoint tree takes.
// Every module's `import.meta.url` is rewritten to its source file's URL, so paths relative to a
// module (schemas/, runtime/console-ui, node_modules) resolve exactly as from the sources; the bundle
// is a cache beside them (.wharf/ is never committed), rebuilt when any file esbuild read changed.
// The stamp lists those files and this script (scripts/input-stamp.mjs): unchanged stats skip
// reading them; a changed stat with the same bytes (a checkout) only refreshes the stamp.
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkInputs, stampInputs } from './input-stamp.mjs';
import { DIST_DIR, PACKAGE_ROOT, writeAtomic } from './runtime-dist.mjs';

const CLI_DIR = path.join(DIST_DIR, 'cli');
export const CLI_MAIN = path.join(CLI_DIR, 'main.js');
const CLI_STAMP = path.join(CLI_DIR, 'stamp.json');
const CLI_ENTRY = 'compiler/cli/main.ts';
const SELF = fileURLToPath(import.meta.url);

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
  const held = stamp && existsSync(CLI_MAIN) ? checkInputs(PACKAGE_ROOT, stamp.inputs) : { changed: true };
  if (!held.changed) {
    if (held.restat) await writeAtomic(CLI_STAMP, `${JSON.stringify({ inputs: held.inputs }, null, 2)}\n`);
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
  // this script too: a change to how the bundle is made makes it again
  await writeAtomic(CLI_STAMP, `${JSON.stringify({ inputs: stampInputs(PACKAGE_ROOT, [path.relative(PACKAGE_ROOT, SELF), ...rels]) }, null, 2)}\n`);
  return CLI_MAIN;
}
