/**
 * Every problem of one settings document (environments/settings.json or environments/sync.json)
 * against the registry, each at its JSON pointer: what `wharf check` reports as file:line:column
 * (compiler/settings/validate-settings.ts). Same rules as ConfigSource: the registry's keys, the
 * one value grammar (setting-value.ts), "did you mean" among the names at the same level. Pure.
 */
import { closest } from './suggest.js';
import { resolveKey, settingsRegistry } from './settings-registry.js';
import type { SettingsFile, SettingSpec } from './settings-registry.js';
import { coerceValue, listItemProblem } from './setting-value.js';

export interface SettingsProblem {
  readonly code: 'settings-unknown-key' | 'settings-value';
  readonly pointer: string;
  readonly message: string;
  readonly hint?: string;
  /** The problem is about the property name (point at the key, not the value). */
  readonly atKey: boolean;
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Names one level below `prefix` ('' = top level), as registered. */
function namesBelow(prefix: string, file: SettingsFile): string[] {
  const depth = prefix === '' ? 0 : prefix.split(':').length;
  const lower = prefix.toLowerCase();
  const names = new Set<string>();
  for (const { key } of settingsRegistry(file).specs) {
    if (lower !== '' && !key.toLowerCase().startsWith(`${lower}:`)) continue;
    const name = key.split(':')[depth];
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

function checkValue(spec: SettingSpec, value: unknown, pointer: string, out: SettingsProblem[]): void {
  const problem = (reason: string, at = pointer): void => {
    out.push({ code: 'settings-value', pointer: at, message: `${spec.key} ${reason}`, atKey: false });
  };
  if (spec.type === 'list') {
    if (value === null && spec.nullable) return;
    if (!Array.isArray(value)) return problem('must be a list of strings');
    value.forEach((item, index) => {
      if (typeof item !== 'string') problem('must be a list of strings', `${pointer}/${index}`);
      else {
        const wrong = listItemProblem(spec, item);
        if (wrong !== null) problem(wrong, `${pointer}/${index}`);
      }
    });
    if (spec.maxItems !== undefined && value.length > spec.maxItems) problem(`accepts at most ${spec.maxItems} entries`);
    return;
  }
  if (spec.type === 'map') {
    if (value === null) return;
    if (!isObject(value)) return problem('must be an object');
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== 'string' && typeof item !== 'boolean') problem('values must be text or true/false', `${pointer}/${escape(name)}`);
    }
    return;
  }
  const coerced = coerceValue(spec, value);
  if (!coerced.ok) problem(coerced.reason);
}

function walk(node: Record<string, unknown>, prefix: string, pointer: string, file: SettingsFile, out: SettingsProblem[]): void {
  for (const [name, value] of Object.entries(node)) {
    if (prefix === '' && name === '$schema') continue;
    const key = prefix ? `${prefix}:${name}` : name;
    const at = `${pointer}/${escape(name)}`;
    const resolved = resolveKey(key, file);
    if (resolved && resolved.rest === '') {
      checkValue(resolved.spec, value, at, out);
      continue;
    }
    if (namesBelow(key, file).length > 0) {
      if (isObject(value)) walk(value, key, at, file, out);
      else out.push({ code: 'settings-value', pointer: at, message: `${key} is a section: it must be an object`, atKey: false });
      continue;
    }
    const near = closest(name, namesBelow(prefix, file));
    const where = prefix === '' ? `environments/${file}` : prefix;
    out.push({
      code: 'settings-unknown-key',
      pointer: at,
      message: `'${name}' is not a known setting of ${where}`,
      ...(near !== null ? { hint: `did you mean '${near}'?` } : {}),
      atKey: true,
    });
  }
}

export function checkSettingsDocument(doc: unknown, file: SettingsFile = 'settings.json'): SettingsProblem[] {
  if (!isObject(doc)) return [{ code: 'settings-value', pointer: '', message: `environments/${file} must hold a JSON object`, atKey: false }];
  const out: SettingsProblem[] = [];
  walk(doc, '', '', file, out);
  return out;
}
