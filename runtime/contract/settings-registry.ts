/**
 * The settings registry: every key of the gateway and `wharf docs serve` (schemas/settings.schema.json,
 * file environments/settings.json) and of `wharf sync` (schemas/sync/service.schema.json, file
 * environments/sync.json), flattened to colon keys with type, range, default, restart and secret
 * flags. It is the only place a default or a range is written: ConfigSource, the console's writable
 * list, redaction, `wharf check` and docs/settings.md all read it.
 *
 * How to add a setting: add the key to its section in schemas/settings.schema.json (or
 * schemas/sync/service.schema.json) with `type`, `default`, `minimum`/`maximum` or `enum`,
 * `x-restart`, `x-secret` and a `description` (`x-writable: true` lets the console change it,
 * `x-env` names legacy variables); read it with the key alone, e.g. `source.int('Server:BodyLimitBytes')` (no default, no range
 * in the reader); add its row to docs/settings.md (registry-docs.test.ts prints the expected row).
 * Reading a key that is not registered throws, and an unregistered key in a settings file or a
 * `Section__Key` variable of a known section stops startup and fails `wharf check`.
 */
import settingsSchemaJson from '../../schemas/settings.schema.json' with { type: 'json' };
import syncServiceSchemaJson from '../../schemas/sync/service.schema.json' with { type: 'json' };
import { closest } from './suggest.js';

export type SettingsFile = 'settings.json' | 'sync.json';
export type SettingType = 'boolean' | 'integer' | 'number' | 'string' | 'list' | 'map';
export type ItemFormat = 'ip' | 'cidr' | 'origin' | 'host';
/** Formats of a string setting (`x-format`): `git-argument` goes to git as an argument, so it may not start with `-`. */
export type StringFormat = 'git-argument';

export interface SettingSpec {
  /** Colon key as registered, e.g. `RateLimiting:IpLimit`. */
  readonly key: string;
  readonly file: SettingsFile;
  readonly type: SettingType;
  /** null is a valid value (it means "absent", e.g. Git:Enabled). */
  readonly nullable: boolean;
  readonly default: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly maxItems?: number;
  readonly enum?: readonly string[];
  /**
   * An integer that also takes these words (`"type": ["integer", "string"]` with `"pattern": "^auto$"`
   * or `"^(a|b)$"`), matched case-insensitively, e.g. Server:Workers `auto`.
   */
  readonly words?: readonly string[];
  /** A change takes effect only after a restart. */
  readonly restart: boolean;
  /** Never shown or logged. */
  readonly secret: boolean;
  /** PUT /ui/api/settings may change it. */
  readonly writable: boolean;
  readonly items?: ItemFormat;
  readonly format?: StringFormat;
  /** Legacy variables (e.g. HEALTHCHECK_CACHE_TIME), below `Section__Key` and above the file. */
  readonly env: readonly string[];
  readonly description: string;
}

/** Custom keywords of the settings schemas, for ajv (`ajv.addVocabulary(SETTINGS_KEYWORDS)`). */
export const SETTINGS_KEYWORDS = ['x-restart', 'x-secret', 'x-env', 'x-writable', 'x-items', 'x-format'] as const;

export const SETTINGS_SCHEMA_FILES: Readonly<Record<SettingsFile, string>> = {
  'settings.json': 'settings.schema.json',
  'sync.json': 'sync/service.schema.json',
};

type Json = Record<string, unknown>;

/** The words of an integer that also takes a few words: the alternatives of its string `pattern`. */
function wordsOf(node: Json): { words?: readonly string[] } {
  const types = Array.isArray(node['type']) ? (node['type'] as string[]) : [];
  if (!types.includes('integer') || !types.includes('string')) return {};
  const match = /^\^\(?([a-z]+(?:\|[a-z]+)*)\)?\$$/.exec(typeof node['pattern'] === 'string' ? node['pattern'] : '');
  if (!match) throw new Error(`settings schema: an integer-or-string setting needs a "pattern" like "^auto$", got ${JSON.stringify(node['pattern'])}`);
  return { words: (match[1] as string).split('|') };
}

function typeOf(node: Json): { type: SettingType; nullable: boolean } {
  const types = (Array.isArray(node['type']) ? node['type'] : [node['type']]) as string[];
  const nullable = types.includes('null');
  const main = types.find((t) => t !== 'null');
  if (main === 'array') return { type: 'list', nullable };
  if (main === 'object') return { type: 'map', nullable };
  if (main === 'boolean' || main === 'integer' || main === 'number' || main === 'string') return { type: main, nullable };
  throw new Error(`settings schema: unsupported type ${JSON.stringify(node['type'])}`);
}

function leaf(key: string, file: SettingsFile, node: Json): SettingSpec {
  const num = (name: string) => (typeof node[name] === 'number' ? { [name]: node[name] as number } : {});
  return {
    key,
    file,
    ...typeOf(node),
    default: node['default'] ?? null,
    ...num('minimum'),
    ...num('maximum'),
    ...num('exclusiveMinimum'),
    ...num('maxLength'),
    ...num('minLength'),
    ...num('maxItems'),
    ...(Array.isArray(node['enum']) ? { enum: node['enum'] as string[] } : {}),
    ...wordsOf(node),
    restart: node['x-restart'] !== false,
    secret: node['x-secret'] === true,
    writable: node['x-writable'] === true,
    ...(typeof node['x-items'] === 'string' ? { items: node['x-items'] as ItemFormat } : {}),
    ...(typeof node['x-format'] === 'string' ? { format: node['x-format'] as StringFormat } : {}),
    env: Array.isArray(node['x-env']) ? (node['x-env'] as string[]) : [],
    description: typeof node['description'] === 'string' ? node['description'] : '',
  };
}

function flatten(node: Json, prefix: string, file: SettingsFile, out: SettingSpec[]): void {
  const properties = node['properties'] as Record<string, Json> | undefined;
  if (node['type'] === 'object' && properties) {
    for (const [name, child] of Object.entries(properties)) {
      if (name === '$schema') continue;
      flatten(child, prefix ? `${prefix}:${name}` : name, file, out);
    }
    return;
  }
  out.push(leaf(prefix, file, node));
}

export interface Registry {
  readonly file: SettingsFile;
  readonly specs: readonly SettingSpec[];
  /** Lower-case first segments (sections and top-level keys): a `Section__Key` variable is ours when its first part is one. */
  readonly sections: ReadonlySet<string>;
  readonly byKey: ReadonlyMap<string, SettingSpec>;
}

const registries = new Map<SettingsFile, Registry>();

/** The schema document of a settings file (embedded: the compiled runtime needs no schemas/ folder). */
export function settingsSchema(file: SettingsFile): Json {
  return (file === 'settings.json' ? settingsSchemaJson : syncServiceSchemaJson) as Json;
}

export function settingsRegistry(file: SettingsFile = 'settings.json'): Registry {
  let registry = registries.get(file);
  if (!registry) {
    const specs: SettingSpec[] = [];
    flatten(settingsSchema(file), '', file, specs);
    registry = Object.freeze({
      file,
      specs: Object.freeze(specs),
      sections: new Set(specs.map((s) => (s.key.split(':')[0] as string).toLowerCase())),
      byKey: new Map(specs.map((s) => [s.key.toLowerCase(), s])),
    });
    registries.set(file, registry);
  }
  return registry;
}

/** The registered setting of `key`; throws when a reader asks for a key nobody registered. */
export function settingSpec(key: string, file: SettingsFile = 'settings.json'): SettingSpec {
  const spec = settingsRegistry(file).byKey.get(key.toLowerCase());
  if (!spec) throw new Error(`Setting '${key}' is read but not registered in schemas/${SETTINGS_SCHEMA_FILES[file]}`);
  return spec;
}

export interface ResolvedKey {
  readonly spec: SettingSpec;
  /** Below the setting: a list index (`0`) or a map key (`PrimaryColor`); '' for the setting itself. */
  readonly rest: string;
}

/** Which setting a flat key (`A:B`, `A:B:0`, `Docs:Themes:X`) belongs to; null when none. */
export function resolveKey(flatKey: string, file: SettingsFile = 'settings.json'): ResolvedKey | null {
  const { byKey } = settingsRegistry(file);
  const parts = flatKey.split(':');
  for (let n = parts.length; n > 0; n--) {
    const spec = byKey.get(parts.slice(0, n).join(':').toLowerCase());
    if (!spec) continue;
    const rest = parts.slice(n).join(':');
    if (rest === '' || spec.type === 'map' || (spec.type === 'list' && /^\d+$/.test(rest))) return { spec, rest };
    return null;
  }
  return null;
}

/** The registered key closest to a misspelt one, or null. */
export function suggestKey(flatKey: string, file: SettingsFile = 'settings.json'): string | null {
  const keys = settingsRegistry(file).specs.map((s) => s.key);
  const hit = closest(flatKey, keys);
  if (hit !== null) return hit;
  // A misspelt last part under a known section: compare with that section's keys only.
  const section = flatKey.split(':').slice(0, -1).join(':').toLowerCase();
  const siblings = keys.filter((k) => k.toLowerCase().startsWith(`${section}:`));
  const last = flatKey.split(':').pop() ?? '';
  const near = closest(last, siblings.map((k) => k.split(':').pop() as string));
  return near === null ? null : (siblings.find((k) => k.split(':').pop() === near) ?? null);
}
