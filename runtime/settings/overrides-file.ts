/**
 * `environments/settings.overrides.json`: the settings the console wrote (PUT /ui/api/settings).
 * Same nested shape as settings.json; laid over it when settings load, under the `__` environment
 * variables (which still win). The user's settings.json is never rewritten.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const OVERRIDES_FILE = 'settings.overrides.json';

export function overridesPath(environmentsDir: string): string {
  return path.join(environmentsDir, OVERRIDES_FILE);
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The overrides (an empty object when the file is absent). A broken file is an error naming it. */
export async function readOverrides(environmentsDir: string): Promise<Json> {
  const file = overridesPath(environmentsDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed = JSON.parse(text) as unknown;
  if (!isObject(parsed)) throw new Error(`${file} must hold a JSON object`);
  return parsed;
}

/** `over` laid on `base`: objects merge key by key (case-insensitively), anything else replaces. */
export function mergeSettings(base: unknown, over: unknown): unknown {
  if (!isObject(base) || !isObject(over)) return over === undefined ? base : over;
  const result: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const existing = Object.keys(result).find((name) => name.toLowerCase() === key.toLowerCase());
    if (existing !== undefined && existing !== key) {
      result[existing] = mergeSettings(result[existing], value);
    } else {
      result[key] = mergeSettings(result[key], value);
    }
  }
  return result;
}

/** Sets a colon-path key (`RateLimiting:IpLimit`) in a nested object, matching existing names case-insensitively. */
export function setByPath(target: Json, key: string, value: unknown): void {
  const parts = key.split(':');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const name = Object.keys(node).find((existing) => existing.toLowerCase() === part.toLowerCase()) ?? part;
    if (!isObject(node[name])) node[name] = {};
    node = node[name] as Json;
  }
  const last = parts.at(-1)!;
  const name = Object.keys(node).find((existing) => existing.toLowerCase() === last.toLowerCase()) ?? last;
  node[name] = value;
}

/** Reads a colon-path key in a nested object, matching names case-insensitively; `found` false when a part is missing. */
export function getByPath(tree: unknown, key: string): { readonly found: boolean; readonly value: unknown } {
  let node = tree;
  for (const part of key.split(':')) {
    if (!isObject(node)) return { found: false, value: undefined };
    const name = Object.keys(node).find((existing) => existing.toLowerCase() === part.toLowerCase());
    if (name === undefined) return { found: false, value: undefined };
    node = node[name];
  }
  return { found: true, value: node };
}
