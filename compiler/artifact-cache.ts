/**
 * Outputs that do not depend on the endpoints (the console's assets, the
 * config types) are remembered with the input files they were made from, in Wharf's own
 * `.wharf/artifacts/<name>.json` (they depend on Wharf's sources, not on a project's, so a new
 * project reuses them; like the compiled runtime in `.wharf/dist`): the SHA-256 of every input
 * file (for the esbuild bundles, each file esbuild read, listed by its metafile; plus the
 * emitter's own source and the tool's version) and a key for inputs that are not files (the
 * project's schema texts). A later build re-hashes those inputs and reuses the files only when
 * every byte is the same; any other case, or an unreadable record, makes them again. Not
 * committed (.gitignore).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeThroughTemp } from './atomic-write.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OutputFile } from './stages.js';

const RECORD_VERSION = 1;
/** Wharf's own cache folder for them. */
export const TOOL_ARTIFACTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.wharf', 'artifacts');
/** File times come from a coarse kernel clock (a few ms behind Date.now()); anything this close to the start counts as during. */
const MTIME_SLACK_MS = 100;

/** What making an artifact produced: its files and every file whose bytes they depend on (absolute). */
export interface MadeArtifact {
  readonly files: readonly OutputFile[];
  readonly inputs: readonly string[];
}

export interface ArtifactCache {
  /** The artifact's files: remembered ones when `key` and every input are unchanged, else `make()`'s. */
  get(name: string, key: string, make: () => Promise<MadeArtifact>): Promise<OutputFile[]>;
}

interface ArtifactRecord {
  readonly version: number;
  readonly key: string;
  /** [absolute path, sha256] of every input. */
  readonly inputs: ReadonlyArray<readonly [string, string]>;
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string }>;
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

function digest(file: string): string | null {
  try {
    return sha256(readFileSync(file));
  } catch {
    return null;
  }
}

async function readRecord(file: string): Promise<ArtifactRecord | null> {
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as ArtifactRecord;
    if (record.version !== RECORD_VERSION || !Array.isArray(record.inputs) || !Array.isArray(record.files)) return null;
    return record;
  } catch {
    return null;
  }
}

async function isCurrent(record: ArtifactRecord, key: string): Promise<boolean> {
  if (record.key !== key) return false;
  const now = record.inputs.map(([file]) => digest(file));
  return record.inputs.every(([, sha], i) => now[i] === sha);
}

/** No directory: every artifact is made each time (what `wharf check` uses). */
export function artifactCache(dir: string | null): ArtifactCache {
  return {
    async get(name, key, make) {
      const file = dir === null ? null : path.join(dir, `${name}.json`);
      const record = file === null ? null : await readRecord(file);
      if (record !== null && (await isCurrent(record, key))) return record.files.map((f) => ({ path: f.path, content: f.content }));
      const started = Date.now();
      const made = await make();
      // best effort: a folder that cannot be written (a read-only install) only means no reuse
      if (file !== null) await remember(file, key, made, started).catch(() => undefined);
      return [...made.files];
    },
  };
}

/**
 * Records the inputs' digests as they are now. An input modified since `started` may have been
 * read in its old state while making: then nothing is remembered (the next build makes it again).
 */
async function remember(file: string, key: string, made: MadeArtifact, started: number): Promise<void> {
  if (made.files.some((f) => typeof f.content !== 'string')) return; // only text artifacts are remembered
  const inputs = [...new Set(made.inputs)].sort();
  const modified = inputs.map((input) => statSync(input, { throwIfNoEntry: false })?.mtimeMs ?? Infinity);
  if (modified.some((ms) => ms >= started - MTIME_SLACK_MS)) return;
  const digests = inputs.map(digest);
  if (digests.some((d) => d === null)) return;
  const record: ArtifactRecord = {
    version: RECORD_VERSION,
    key,
    inputs: inputs.map((input, i) => [input, digests[i] as string] as const),
    files: made.files.map((f) => ({ path: f.path, content: f.content as string })),
  };
  await writeThroughTemp(file, JSON.stringify(record));
}
