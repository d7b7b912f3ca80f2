/**
 * The build's whole-tree memory between runs: `<root>/.wharf/build-cache.json` holds a key over
 * everything a build reads (the source folders, what it reads of environments/, the compiler,
 * runtime and schema sources that shape the output, the lock file, the options) and the SHA-256
 * of every file the build wrote to generated/. When the key matches and generated/ still holds
 * exactly those bytes, the build has nothing to do and skips compiling. Any other case (a changed
 * input, an edited or deleted output, no cache) compiles, incrementally per entity
 * (endpoint-analysis.ts), to the bytes of a fresh build. Never committed (.gitignore).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeThroughTemp } from './atomic-write.js';
import { listFiles } from './output-tree.js';
import { hashSourceFiles, readSource, SOURCE_FOLDERS, UNREADABLE } from './source-hash.js';
import type { OutputFile } from './stages.js';

const CACHE_VERSION = 3;
/** The code whose changes change the output (the emitters bundle runtime code). */
const TOOL_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TOOL_FOLDERS = ['compiler', 'runtime', 'schemas'];

export interface BuildCacheEntry {
  readonly version: number;
  readonly key: string;
  readonly endpoints: number;
  /** Formatted diagnostics of that build (warnings), printed again on a cached run. */
  readonly diagnostics: readonly string[];
  /** path under generated/ -> sha256 of its bytes, for every file the build owns. */
  readonly outputs: Readonly<Record<string, string>>;
  /** path -> `size:mtimeMs` right after the write: an unchanged stat skips reading the file. */
  readonly stats: Readonly<Record<string, string>>;
}

/**
 * SHA-256 over the sorted files of `folders` under `root` (relative path + NUL + bytes), read in
 * parallel; with `sources`, also hashSources' digest of those of the folders (read once for both).
 */
async function hashFolders(root: string, folders: readonly string[], sources: readonly string[] = []): Promise<{ digest: string; sources: string; bytes: ReadonlyMap<string, Buffer> }> {
  const files = (await Promise.all([...folders].sort().map(async (f) => (await listFiles(path.join(root, f))).map((rel) => `${f}/${rel}`)))).flat();
  // Synchronous reads: for thousands of small files in the page cache, ~10x faster than fs/promises.
  // an unreadable file hashes as UNREADABLE and is left out of `bytes`: compile reads it and reports file-unreadable
  const read: [string, Buffer | null][] = files.map((rel) => [rel, readSource(path.join(root, rel))]);
  const digests = read.map(([, bytes]) => sha256(bytes ?? UNREADABLE));
  const ofSources = read.filter(([rel]) => sources.includes(rel.slice(0, rel.indexOf('/')))).map(([rel, data]) => [rel, data ?? UNREADABLE] as const);
  const bytes = new Map(read.flatMap(([rel, data]) => (data ? [[path.join(root, rel), data] as const] : [])));
  return { digest: sha256(files.map((rel, i) => `${rel}\0${digests[i]}`).join('\n')), sources: hashSourceFiles(ofSources), bytes };
}

const statKey = (file: string): string | null => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.size}:${s.mtimeMs}` : null;
};

let toolHash: Promise<string> | null = null;

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * `<tool>/.wharf/tool-key.json`: the last tool key with the `size:mtimeMs` of every file it read.
 * While no stat changed, the key is taken from it instead of reading and hashing ~1,000 files.
 */
const TOOL_KEY_MEMO = path.join(TOOL_ROOT, '.wharf', 'tool-key.json');

async function toolStats(): Promise<string> {
  const files = (await Promise.all(TOOL_FOLDERS.map(async (f) => (await listFiles(path.join(TOOL_ROOT, f))).map((rel) => `${f}/${rel}`)))).flat().sort();
  return [...files, 'package-lock.json'].map((rel) => `${rel}=${statKey(path.join(TOOL_ROOT, rel))}`).join('\n');
}

/** SHA-256 over the code that shapes a build's output: the compiler, the runtime, the schemas, the lock file. */
export function toolKey(): Promise<string> {
  toolHash ??= (async () => {
    // stats before the reads: a file edited meanwhile has a newer stat than recorded, so it is hashed again next time
    const stats = await toolStats();
    const memo = await readFile(TOOL_KEY_MEMO, 'utf8').then((text) => JSON.parse(text) as { version?: number; stats?: string; key?: string }, () => null);
    if (memo?.version === CACHE_VERSION && memo.stats === stats && typeof memo.key === 'string') return memo.key;
    const lock = await readFile(path.join(TOOL_ROOT, 'package-lock.json')).catch(() => Buffer.alloc(0));
    const key = sha256(`${CACHE_VERSION}\0${(await hashFolders(TOOL_ROOT, TOOL_FOLDERS)).digest}\0${sha256(lock)}`);
    await writeThroughTemp(TOOL_KEY_MEMO, JSON.stringify({ version: CACHE_VERSION, stats, key })).catch(() => undefined); // a read-only install hashes every time
    return key;
  })();
  return toolHash;
}

/** What a build reads from environments/: the network policy (url-blocked warnings) and the settings and sync files it validates. */
function environmentInputs(root: string): string {
  const dir = path.join(root, 'environments');
  let folders: string[] = [];
  try {
    folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    // no environments/: nothing read
  }
  const files = ['network-access-policy.json', 'settings.json', 'sync.json', ...folders.flatMap((f) => [`${f}/settings.json`, `${f}/sync.json`])];
  return sha256(files.map((rel) => `${rel}\0${sha256(readIfExists(path.join(dir, rel)) ?? 'absent')}`).join('\n'));
}

/**
 * The key over every input of a build of `root`, the manifest's source hash (hashSources of
 * endpoints/ and schemas/) and the bytes read (by absolute path), from the same reads: compile()
 * need not read and hash them again, and compiles exactly the bytes the key was made of.
 */
export async function buildKey(root: string, options: { docs: boolean }): Promise<{ key: string; sourceHash: string; sourceBytes: ReadonlyMap<string, Buffer> }> {
  const read = await hashFolders(root, options.docs ? ['endpoints', 'schemas', 'docs'] : ['endpoints', 'schemas'], SOURCE_FOLDERS);
  const key = sha256(`${CACHE_VERSION}\0${await toolKey()}\0${read.digest}\0${environmentInputs(root)}\0docs=${options.docs}`);
  return { key, sourceHash: read.sources, sourceBytes: read.bytes };
}

/** The build's memory: `<root>/.wharf` (git-ignored). */
export function cacheDir(root: string): string {
  return path.join(root, '.wharf');
}

function cacheFile(root: string): string {
  return path.join(cacheDir(root), 'build-cache.json');
}

export async function readBuildCache(root: string): Promise<BuildCacheEntry | null> {
  try {
    const entry = JSON.parse(await readFile(cacheFile(root), 'utf8')) as BuildCacheEntry;
    const isRecord = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
    const wellFormed = typeof entry.key === 'string' && Array.isArray(entry.diagnostics) && isRecord(entry.outputs) && isRecord(entry.stats);
    return entry.version === CACHE_VERSION && wellFormed ? entry : null;
  } catch {
    return null;
  }
}

/** Record a build that was just written to `generatedDir` (so the files' stats are the written ones). */
export async function writeBuildCache(
  root: string,
  generatedDir: string,
  entry: Omit<BuildCacheEntry, 'version' | 'outputs' | 'stats'>,
  files: readonly OutputFile[],
): Promise<void> {
  const outputs = Object.fromEntries(files.map((f) => [f.path, contentDigest(f)]));
  const stats = Object.fromEntries(files.map((f) => [f.path, statKey(path.join(generatedDir, f.path)) ?? '']));
  await writeThroughTemp(cacheFile(root), `${JSON.stringify({ version: CACHE_VERSION, ...entry, outputs, stats })}\n`);
}

/** True when the file still has the size and mtime recorded right after the last build wrote it. */
function unchangedSince(generatedDir: string, entry: BuildCacheEntry, rel: string): boolean {
  const recorded = entry.stats[rel];
  return recorded !== undefined && recorded !== '' && statKey(path.join(generatedDir, rel)) === recorded;
}

/** True when generated/ holds exactly the recorded files (among those this build owns). */
export async function outputsIntact(generatedDir: string, entry: BuildCacheEntry, owns: (p: string) => boolean): Promise<boolean> {
  const onDisk = (await listFiles(generatedDir)).filter(owns).sort();
  const recorded = Object.keys(entry.outputs).sort();
  if (onDisk.length !== recorded.length || onDisk.some((p, i) => p !== recorded[i])) return false;
  return recorded.every((rel) => {
    if (unchangedSince(generatedDir, entry, rel)) return true;
    const bytes = readIfExists(path.join(generatedDir, rel));
    return bytes !== null && sha256(bytes) === entry.outputs[rel];
  });
}

/**
 * For the write stage of `wharf build`: vouches that generated/ already holds a file's new bytes
 * without reading it, when the last build recorded those bytes' hash and the file's stat is still
 * the one recorded right after that write. (`wharf check` never uses it: it compares real bytes.)
 */
export function sameAsRecorded(generatedDir: string, entry: BuildCacheEntry | null): ((file: OutputFile) => Promise<boolean>) | undefined {
  if (entry === null) return undefined;
  return async (file) => entry.outputs[file.path] === contentDigest(file) && unchangedSince(generatedDir, entry, file.path);
}

/** Each output's SHA-256, once per build: the write stage (sameAsRecorded) and writeBuildCache both need it. */
const contentDigests = new WeakMap<OutputFile, string>();
function contentDigest(file: OutputFile): string {
  let digest = contentDigests.get(file);
  if (digest === undefined) contentDigests.set(file, (digest = sha256(file.content)));
  return digest;
}

function readIfExists(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
