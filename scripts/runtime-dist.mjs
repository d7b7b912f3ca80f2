// The production build of the runtime: runtime/main.ts bundled by esbuild into plain JavaScript under
// .wharf/dist/runtime/ (main.js plus one chunk per lazily imported part, e.g. the SQL Server driver);
// npm packages stay external. One file instead of hundreds of modules is what makes the cold start
// fast (the ES module loader pays per file). Each module's `import.meta.url` is rewritten to the URL
// its own compiled file would have, and the non-TypeScript files of runtime/ are copied with the
// folder layout kept, so paths relative to a module (the demo SQL, the docs-site assets) stay valid.
// Source maps are linked (relative paths), so stack traces name the .ts lines.
// Deterministic: same sources, same bytes. `stamp.json` holds a hash of the sources; the `wharf`
// binary runs the compiled server only when that hash matches the sources on disk (plain JS here:
// this module is loaded without any TypeScript loader).
// The console's validator (compiler/validate/single-file.ts bundled with ajv and the schemas) is built
// here too, into .wharf/dist/validator/ (buildValidator): it is Wharf's own code, so it belongs with
// the compiled runtime, not in a project's generated/ (runtime/admin/validate-route.ts loads it).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkInputs, fileDigest, fileStat, stampInputs } from './input-stamp.mjs';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(PACKAGE_ROOT, '.wharf', 'dist');
export const DIST_MAIN = path.join(DIST_DIR, 'runtime', 'main.js');
const STAMP = path.join(DIST_DIR, 'stamp.json');
/** The console's validator (POST /ui/api/endpoints/{type}/validate); runtime/admin/validate-route.ts finds it at this path. */
export const VALIDATOR_BUNDLE = path.join(DIST_DIR, 'validator', 'validator.mjs');
const VALIDATOR_STAMP = path.join(DIST_DIR, 'validator', 'stamp.json');
const VALIDATOR_ENTRY = 'compiler/validate/single-file.ts';
const RUNTIME_DIR = path.join(PACKAGE_ROOT, 'runtime');
/** Files outside runtime/ that the bundle embeds (the settings registry imports its schemas). */
const EMBEDDED = ['schemas/settings.schema.json', 'schemas/sync/service.schema.json'];

function isSource(rel) {
  return rel.endsWith('.ts') && !rel.endsWith('.test.ts') && !rel.startsWith('testing/');
}

function isAsset(rel) {
  return !rel.endsWith('.ts') && !rel.startsWith('testing/');
}

/** Every file under runtime/, relative, sorted (posix separators). */
async function runtimeFiles() {
  // synchronous: hundreds of small files, read on every build; fs/promises costs ~10x more here
  const entries = readdirSync(RUNTIME_DIR, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(RUNTIME_DIR, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Hash of the files the build reads (sources and assets) plus this script; null when runtime/ is absent (an image holding only the build). */
export async function runtimeSourceHash() {
  if (!existsSync(RUNTIME_DIR)) return null;
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const rel of await runtimeFiles()) {
    if (!isSource(rel) && !isAsset(rel)) continue;
    hash.update(rel).update('\0').update(readFileSync(path.join(RUNTIME_DIR, rel))).update('\0');
  }
  for (const rel of EMBEDDED) hash.update(rel).update('\0').update(readFileSync(path.join(PACKAGE_ROOT, rel))).update('\0');
  return hash.digest('hex');
}

async function readStamp() {
  try {
    return JSON.parse(await readFile(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * `size:mtimeMs` of every file the source hash reads (this script first): when none changed since
 * the build, the sources are those of the build and the cold start skips reading ~500 files.
 */
async function sourceStats() {
  const rels = (await runtimeFiles()).filter((rel) => isSource(rel) || isAsset(rel));
  const files = [fileURLToPath(import.meta.url), ...rels.map((rel) => path.join(RUNTIME_DIR, rel)), ...EMBEDDED.map((rel) => path.join(PACKAGE_ROOT, rel))];
  const stats = files.map(fileStat);
  return files.map((f, i) => `${path.relative(PACKAGE_ROOT, f)}=${stats[i]}`).join('\n');
}

function stampText(sourceHash, files, sourceStats) {
  return `${JSON.stringify({ sourceHash, files, sourceStats }, null, 2)}\n`;
}

/** True when .wharf/dist holds a build of the runtime sources on disk (or no sources are present). */
export async function isDistCurrent() {
  if (!existsSync(DIST_MAIN)) return false;
  const stamp = await readStamp();
  if (!stamp) return false;
  if (!existsSync(RUNTIME_DIR)) return true;
  if (stamp.sourceStats && stamp.sourceStats === (await sourceStats())) return true;
  return stamp.sourceHash === (await runtimeSourceHash());
}

/**
 * Bundled, every module shares the bundle's `import.meta.url`: each module's own is rewritten to the
 * URL its compiled file would have in the folder layout (`runtime/a/b.ts` -> `<dist>/runtime/a/b.js`),
 * relative to the bundle file (main.js and the chunks sit in <dist>/runtime/).
 */
const moduleUrlPlugin = {
  name: 'module-url',
  setup(build) {
    build.onLoad({ filter: /[\\/]runtime[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      const rel = path.relative(RUNTIME_DIR, args.path).split(path.sep).join('/').replace(/\.ts$/, '.js');
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${rel}`)}, import.meta.url).href`), loader: 'ts' };
    });
  },
};

/** Writes a file through a temporary name (concurrent builds write the same bytes; readers never see half a file). */
export async function writeAtomic(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const existing = await readFile(file).catch(() => null);
  if (existing && Buffer.compare(existing, Buffer.from(contents)) === 0) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, file);
  return true;
}

/**
 * Removes compiled files of older builds (the one-file-per-module layout, chunks of other sources),
 * so the folder holds exactly this build. Counted as written.
 */
async function removeStale(keep) {
  const entries = await readdir(path.join(DIST_DIR, 'runtime'), { recursive: true, withFileTypes: true });
  let removed = 0;
  for (const e of entries) {
    const file = path.join(e.parentPath ?? e.path, e.name);
    if (!e.isFile() || keep.has(file) || !/\.js(\.map)?$/.test(e.name)) continue;
    await rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

/** Compiles runtime/ into .wharf/dist/runtime/ unless the stamp says it is current. */
export async function buildRuntime() {
  const started = performance.now();
  // stats before the hash: a file edited meanwhile has a newer mtime than recorded, so it is rehashed
  const stats = await sourceStats();
  const stamp = await readStamp();
  // unchanged stats: the sources of the stamp's build, without reading them (as isDistCurrent)
  if (stamp && stamp.sourceStats === stats && existsSync(DIST_MAIN)) return { written: 0, files: stamp.files, ms: Math.round(performance.now() - started), upToDate: true };
  const sourceHash = await runtimeSourceHash();
  if (stamp && stamp.sourceHash === sourceHash && existsSync(DIST_MAIN)) {
    if (stamp.sourceStats !== stats) await writeAtomic(STAMP, stampText(sourceHash, stamp.files, stats));
    return { written: 0, files: stamp.files, ms: Math.round(performance.now() - started), upToDate: true };
  }
  const { build } = await import('esbuild');
  const files = await runtimeFiles();
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: ['runtime/main.ts'],
    outbase: 'runtime',
    outdir: path.join(DIST_DIR, 'runtime'),
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
    plugins: [moduleUrlPlugin],
  });
  let written = 0;
  for (const out of result.outputFiles) if (await writeAtomic(out.path, out.contents)) written += 1;
  for (const rel of files.filter(isAsset)) {
    if (await writeAtomic(path.join(DIST_DIR, 'runtime', rel), await readFile(path.join(RUNTIME_DIR, rel)))) written += 1;
  }
  written += await removeStale(new Set([...result.outputFiles.map((o) => o.path), ...files.filter(isAsset).map((rel) => path.join(DIST_DIR, 'runtime', rel))]));
  const files_ = result.outputFiles.length + files.filter(isAsset).length;
  await writeAtomic(STAMP, stampText(sourceHash, files_, stats));
  return { written, files: files_, ms: Math.round(performance.now() - started), upToDate: false };
}

/**
 * Bundles compiler/validate/single-file.ts (the rules of `wharf check` for one entity.json; ajv,
 * jsonc-parser and the schemas included) into .wharf/dist/validator/validator.mjs, unless every file
 * esbuild read last time (listed with its SHA-256 in the stamp, plus this script) is unchanged.
 * Skipped when compiler/ is absent (an image holding only the build).
 */
export async function buildValidator() {
  const started = performance.now();
  if (!existsSync(path.join(PACKAGE_ROOT, VALIDATOR_ENTRY))) return { written: 0, ms: 0, upToDate: true, skipped: true };
  const stamp = await readFile(VALIDATOR_STAMP, 'utf8').then(JSON.parse, () => null);
  const self = fileDigest(fileURLToPath(import.meta.url));
  const held = stamp && stamp.self === self && existsSync(VALIDATOR_BUNDLE) ? checkInputs(PACKAGE_ROOT, stamp.inputs) : { changed: true };
  if (!held.changed) {
    if (held.restat) await writeAtomic(VALIDATOR_STAMP, `${JSON.stringify({ self, inputs: held.inputs }, null, 2)}\n`);
    return { written: 0, ms: Math.round(performance.now() - started), upToDate: true, skipped: false };
  }
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: [VALIDATOR_ENTRY],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: false,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
    metafile: true,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    // jsonc-parser's `main` is a UMD build with dynamic requires; its `module` build bundles cleanly.
    mainFields: ['module', 'main'],
    banner: { js: `// Built by wharf (scripts/runtime-dist.mjs): esbuild bundle of ${VALIDATOR_ENTRY}. Do not edit.\nimport { createRequire as __wharfCreateRequire } from 'node:module';\nconst require = __wharfCreateRequire(import.meta.url);` },
  });
  const [output] = result.outputFiles;
  if (output === undefined || result.outputFiles.length !== 1) throw new Error('runtime-dist: esbuild produced no single validator bundle');
  const written = (await writeAtomic(VALIDATOR_BUNDLE, output.contents)) ? 1 : 0;
  const inputs = stampInputs(PACKAGE_ROOT, Object.keys(result.metafile.inputs).sort());
  await writeAtomic(VALIDATOR_STAMP, `${JSON.stringify({ self, inputs }, null, 2)}\n`);
  return { written, ms: Math.round(performance.now() - started), upToDate: false, skipped: false };
}
