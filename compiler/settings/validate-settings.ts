/**
 * `wharf build` / `wharf check` validate the settings files like entity.json, with
 * file:line:column diagnostics: environments/settings.json against the settings registry
 * (runtime/contract/settings-document.ts: unknown keys with "did you mean", the one value grammar
 * and the registry's ranges) and every environments/<env>/settings.json (Provider,
 * ConnectionString, Headers: the rules the gateway starts with, runtime/contract/environment-settings.ts;
 * unknown fields too).
 * environments/sync.json and environments/<env>/sync.json: compiler/sync/validate-sync.ts.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { closest } from '../../runtime/contract/suggest.js';
import { isEnvironmentSettingsProblem, readEnvironmentSettings } from '../../runtime/contract/environment-settings.js';
import { checkSettingsDocument } from '../../runtime/contract/settings-document.js';
import type { Diagnostic } from '../diagnostics.js';
import { isJsonSyntaxError, parseJsonFile } from '../json-file.js';
import { checkConfigFile } from '../read-config-file.js';
import { pointer } from '../validate/pointer.js';

/** Diagnostics of environments/settings.json (`file` relative to the project root). */
export function validateSettingsFile(file: string, text: string | Uint8Array): Diagnostic[] {
  const parsed = parseJsonFile(file, text);
  if (isJsonSyntaxError(parsed)) return [parsed];
  return [
    ...parsed.duplicates,
    ...checkSettingsDocument(parsed.value, 'settings.json').map((p) =>
      parsed.diagnostic('error', p.code, p.pointer, p.message, { atKey: p.atKey, ...(p.hint ? { hint: p.hint } : {}) }),
    ),
  ];
}

const ENVIRONMENT_FIELDS = ['$schema', 'Provider', 'ConnectionString', 'Headers'];

/** Diagnostics of one environments/<env>/settings.json. */
export function validateEnvironmentFile(file: string, raw: string | Uint8Array): Diagnostic[] {
  const parsed = parseJsonFile(file, raw);
  if (isJsonSyntaxError(parsed)) return [parsed];
  const out: Diagnostic[] = [...parsed.duplicates];
  const doc = parsed.value;
  if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
    for (const field of Object.keys(doc)) {
      if (ENVIRONMENT_FIELDS.includes(field)) continue;
      const near = closest(field, ENVIRONMENT_FIELDS.slice(1));
      out.push(parsed.diagnostic('error', 'settings-unknown-key', pointer('', field), `'${field}' is not a known field of an environment's settings.json`, {
        atKey: true,
        ...(near !== null ? { hint: `did you mean '${near}'?` } : {}),
      }));
    }
  }
  const read = readEnvironmentSettings(doc);
  if (isEnvironmentSettingsProblem(read)) {
    const at = read.field === null ? '' : read.header === undefined ? pointer('', read.field) : pointer('', read.field, read.header);
    out.push(parsed.diagnostic('error', 'settings-value', at, read.reason));
  }
  return out;
}

/** Every settings file of the project's environments/ folder. */
export async function validateSettingsFiles(root: string): Promise<Diagnostic[]> {
  const dir = path.join(root, 'environments');
  if (!existsSync(dir)) return [];
  const out: Diagnostic[] = [];
  const main = path.join(dir, 'settings.json');
  if (existsSync(main)) out.push(...checkConfigFile(main, 'environments/settings.json', (bytes) => validateSettingsFile('environments/settings.json', bytes)));
  const folders = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const folder of folders) {
    const file = path.join(dir, folder, 'settings.json');
    const rel = `environments/${folder}/settings.json`;
    if (existsSync(file)) out.push(...checkConfigFile(file, rel, (bytes) => validateEnvironmentFile(rel, bytes)));
  }
  return out;
}
