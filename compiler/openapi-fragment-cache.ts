/**
 * The incremental build's memory of each endpoint's OpenAPI fragments (compiler/emit/openapi/
 * fragments.ts), `<root>/.wharf/openapi-fragments.json`, by endpoint id. Fragments carry their own
 * keys (the model, its tag, its snapshot object); the file is kept per tool, so a new compiler
 * makes them all again. A file of another version or tool, or one that does not parse, counts as
 * empty. Not committed (.gitignore).
 */
import { readFile } from 'node:fs/promises';
import { writeThroughTemp } from './atomic-write.js';
import path from 'node:path';
import type { OpenApiFragment, OpenApiFragments } from './emit/openapi/fragments.js';

const CACHE_VERSION = 1;
const FILE = 'openapi-fragments.json';

interface CacheFile {
  readonly version: number;
  readonly tool: string;
  readonly fragments: Record<string, OpenApiFragment>;
}

export async function readOpenApiFragments(dir: string, tool: string): Promise<OpenApiFragments> {
  let previous = new Map<string, OpenApiFragment>();
  try {
    const data = JSON.parse(await readFile(path.join(dir, FILE), 'utf8')) as CacheFile;
    if (data.version === CACHE_VERSION && data.tool === tool && typeof data.fragments === 'object' && data.fragments !== null) {
      previous = new Map(Object.entries(data.fragments).filter(([, f]) => typeof f?.key === 'string' && Array.isArray(f.paths) && Array.isArray(f.schemas) && Array.isArray(f.operationIds)));
    }
  } catch {
    // none yet, or unreadable: every fragment is made
  }
  return { previous, next: new Map(), made: 0 };
}

/** Writes this build's fragments when any was made or dropped (else the file already holds them). */
export async function writeOpenApiFragments(dir: string, tool: string, fragments: OpenApiFragments): Promise<void> {
  if (fragments.made === 0 && fragments.next.size === fragments.previous.size) return;
  const data: CacheFile = { version: CACHE_VERSION, tool, fragments: Object.fromEntries(fragments.next) };
  await writeThroughTemp(path.join(dir, FILE), JSON.stringify(data));
}
