// The production build of the runtime: runtime/**/*.ts (tests and runtime/testing left out) compiled
// file by file with esbuild into plain JavaScript under .wharf/dist/runtime/, the folder layout kept so
// paths relative to a module (the demo SQL, the docs-site assets) stay valid; non-TypeScript files are
// copied. Source maps are linked (relative paths), so stack traces name the .ts lines.
// Deterministic: same sources, same bytes. `stamp.json` holds a hash of the sources; the `wharf`
// binary runs the compiled server only when that hash matches the sources on disk (plain JS here:
// this module is loaded without any TypeScript loader).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(PACKAGE_ROOT, '.wharf', 'dist');
export const DIST_MAIN = path.join(DIST_DIR, 'runtime', 'main.js');
const STAMP = path.join(DIST_DIR, 'stamp.json');
const RUNTIME_DIR = path.join(PACKAGE_ROOT, 'runtime');

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
  return hash.digest('hex');
}

async function readStamp() {
  try {
    return JSON.parse(await readFile(STAMP, 'utf8'));
  } catch {
    return null;
  }
}

/** True when .wharf/dist holds a build of the runtime sources on disk (or no sources are present). */
export async function isDistCurrent() {
  if (!existsSync(DIST_MAIN)) return false;
  const stamp = await readStamp();
  if (!stamp) return false;
  const current = await runtimeSourceHash();
  return current === null || stamp.sourceHash === current;
}

/** Writes a file through a temporary name (concurrent builds write the same bytes; readers never see half a file). */
async function writeAtomic(file, contents) {
  await mkdir(path.dirname(file), { recursive: true });
  const existing = await readFile(file).catch(() => null);
  if (existing && Buffer.compare(existing, Buffer.from(contents)) === 0) return false;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, file);
  return true;
}

/** Compiles runtime/ into .wharf/dist/runtime/ unless the stamp says it is current. */
export async function buildRuntime() {
  const started = performance.now();
  const sourceHash = await runtimeSourceHash();
  const stamp = await readStamp();
  if (stamp && stamp.sourceHash === sourceHash && existsSync(DIST_MAIN)) {
    return { written: 0, files: stamp.files, ms: Math.round(performance.now() - started), upToDate: true };
  }
  const { build } = await import('esbuild');
  const files = await runtimeFiles();
  const sources = files.filter(isSource);
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: sources.map((rel) => `runtime/${rel}`),
    outbase: 'runtime',
    outdir: path.join(DIST_DIR, 'runtime'),
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    write: false,
    logLevel: 'silent',
  });
  let written = 0;
  for (const out of result.outputFiles) if (await writeAtomic(out.path, out.contents)) written += 1;
  for (const rel of files.filter(isAsset)) {
    if (await writeAtomic(path.join(DIST_DIR, 'runtime', rel), await readFile(path.join(RUNTIME_DIR, rel)))) written += 1;
  }
  const files_ = result.outputFiles.length + files.filter(isAsset).length;
  await writeAtomic(STAMP, `${JSON.stringify({ sourceHash, files: files_ }, null, 2)}\n`);
  return { written, files: files_, ms: Math.round(performance.now() - started), upToDate: false };
}
