/**
 * Flat, case-insensitive view of one settings file (environments/settings.json or
 * environments/sync.json): the file flattened to colon keys (`RateLimiting:Enabled`, arrays as
 * `Environment:AllowedEnvironments:0`), then the legacy variables the registry names
 * (`HEALTHCHECK_CACHE_TIME`, `GIT_URL`), then environment variables with `__` as separator laid
 * over it (ASP.NET style, case-insensitive). Everything is checked once, in `from()`, against the
 * registry (runtime/contract/settings-registry.ts): an unknown key in the file, or a `Section__Key` variable of one of the
 * file's sections that names no setting, stops with "did you mean"; a bad value stops naming the
 * key and where it came from. The getters take default and range from the registry.
 */
import { closest } from '../contract/suggest.js';
import { WharfError } from '../errors/wharf-error.js';
import { resolveKey, settingSpec, settingsRegistry, suggestKey } from '../contract/settings-registry.js';
import type { SettingsFile, SettingSpec } from '../contract/settings-registry.js';
import { coerceValue, listItemProblem } from '../contract/setting-value.js';

export type ConfigScalar = string | number | boolean | null;

export interface ConfigEntry {
  /** Key as written (colon separated), for messages. */
  readonly key: string;
  readonly value: ConfigScalar | readonly [];
  /** `environments/settings.json` or `environment variable X__Y`. */
  readonly source: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function flattenInto(target: Map<string, ConfigEntry>, value: unknown, prefix: string, source: string): void {
  if (Array.isArray(value)) {
    if (value.length === 0 && prefix) target.set(prefix.toLowerCase(), { key: prefix, value: [], source });
    value.forEach((item, index) => flattenInto(target, item, `${prefix}:${index}`, source));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, child] of Object.entries(value)) {
      if (!prefix && name === '$schema') continue;
      flattenInto(target, child, prefix ? `${prefix}:${name}` : name, source);
    }
    return;
  }
  if (!prefix) return;
  target.set(prefix.toLowerCase(), { key: prefix, value: value as ConfigScalar, source });
}

/** An entry laid over the map; the key keeps the spelling it already had (file casing wins). */
function overlay(target: Map<string, ConfigEntry>, key: string, value: string, source: string): void {
  const existing = target.get(key.toLowerCase());
  target.set(key.toLowerCase(), { key: existing?.key ?? key, value, source });
}

/** Sections of every settings file: a `Section__Key` variable of another Wharf process is not a typo. */
function allSections(): Set<string> {
  return new Set([...settingsRegistry('settings.json').sections, ...settingsRegistry('sync.json').sections]);
}

function unknown(key: string, source: string, suggestion: string | null): WharfError {
  return new WharfError('SETTINGS_UNKNOWN_KEY', { key, source, suggestion: suggestion ? ` Did you mean '${suggestion}'?` : '' });
}

/** The `Section__Key` variables that belong to `file`; a misspelt section close to one of ours is an error. */
function overrideVariables(env: Env, file: SettingsFile): [string, string, string][] {
  const { sections } = settingsRegistry(file);
  const others = allSections();
  const out: [string, string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.includes('__')) continue;
    const key = name.split('__').join(':');
    const section = (key.split(':')[0] as string).toLowerCase();
    if (!sections.has(section)) {
      // Short names (`DB__HOST`, `WEB__PORT`) belong to other programs more often than they are typos.
      const near = others.has(section) || section.length < 6 ? null : closest(section, [...sections]);
      if (near !== null) throw unknown(key, `environment variable ${name}`, suggestKey(key, file));
      continue;
    }
    out.push([name, key, value]);
  }
  return out;
}

export class ConfigSource {
  private readonly entries: ReadonlyMap<string, ConfigEntry>;
  /** Checked scalar values by lower-case registered key. */
  private readonly values: ReadonlyMap<string, unknown>;
  private readonly file: SettingsFile;

  private constructor(entries: ReadonlyMap<string, ConfigEntry>, file: SettingsFile) {
    this.entries = entries;
    this.file = file;
    this.values = check(entries, file);
    Object.freeze(this);
  }

  /**
   * `fileJson` is the parsed settings file (or undefined when absent); `env` is process.env-like.
   * Throws SETTINGS_UNKNOWN_KEY or SETTINGS_INVALID_VALUE on the first problem.
   */
  static from(fileJson: unknown, fileLabel: string, env: Env, file: SettingsFile = 'settings.json'): ConfigSource {
    const entries = new Map<string, ConfigEntry>();
    flattenInto(entries, fileJson, '', fileLabel);
    for (const spec of settingsRegistry(file).specs) {
      for (const name of spec.env) {
        const value = env[name];
        if (value !== undefined && value.trim() !== '') overlay(entries, spec.key, value, `environment variable ${name}`);
      }
    }
    for (const [name, key, value] of overrideVariables(env, file)) overlay(entries, key, value, `environment variable ${name}`);
    return new ConfigSource(entries, file);
  }

  entry(key: string): ConfigEntry | undefined {
    return this.entries.get(key.toLowerCase());
  }

  /** Every entry, for dumps (always pass through redact() before logging). */
  all(): readonly ConfigEntry[] {
    return [...this.entries.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  /**
   * Where the loaded value of `key` comes from: `environment` (a `__` or legacy variable), `file`
   * (the settings file, with the console's overrides laid over it) or null (absent: the default).
   * A list given item by item counts by its first item.
   */
  origin(key: string): 'environment' | 'file' | null {
    const lower = key.toLowerCase();
    const entry = this.entry(key) ?? this.all().find((e) => e.key.toLowerCase().startsWith(`${lower}:`));
    if (!entry) return null;
    return entry.source.startsWith('environment variable') ? 'environment' : 'file';
  }

  /**
   * The value of any registered key as its typed getter gives it (the checked value, else the
   * registry's default): for code that goes over the registry rather than naming one key.
   */
  read(key: string): unknown {
    const spec = settingSpec(key, this.file);
    const lower = spec.key.toLowerCase();
    return this.values.has(lower) ? this.values.get(lower) : spec.default;
  }

  private value(key: string, type: SettingSpec['type']): unknown {
    const spec = settingSpec(key, this.file);
    if (spec.type !== type) throw new Error(`Setting '${spec.key}' is registered as ${spec.type}, read as ${type}`);
    return this.read(spec.key);
  }

  string(key: string): string {
    return this.value(key, 'string') as string;
  }

  /** A string registered as nullable: null when absent (e.g. WebHost:AdminKey of wharf sync). */
  optionalString(key: string): string | null {
    return this.value(key, 'string') as string | null;
  }

  /** A string setting with an `enum` in the registry; `allowed` types the result and must be that enum. */
  choice<T extends string>(key: string, allowed: readonly T[]): T {
    const registered = settingSpec(key, this.file).enum ?? [];
    if (registered.length !== allowed.length || !allowed.every((option) => registered.includes(option))) {
      throw new Error(`Setting '${key}': the registry's enum (${registered.join(', ')}) differs from the reader's (${allowed.join(', ')})`);
    }
    return this.value(key, 'string') as T;
  }

  bool(key: string): boolean {
    return this.value(key, 'boolean') as boolean;
  }

  /** A boolean registered as nullable: null when absent (the reader decides, e.g. Git:Enabled). */
  optionalBool(key: string): boolean | null {
    return this.value(key, 'boolean') as boolean | null;
  }

  int(key: string): number {
    return this.value(key, 'integer') as number;
  }

  /** An integer that also takes words (Server:Workers: a count or `auto`): the number, or the word in lower case. */
  intOrWord(key: string): number | string {
    return this.value(key, 'integer') as number | string;
  }

  /** An integer registered as nullable: null when absent (the reader derives the value, e.g. Server:ShutdownDelaySeconds). */
  optionalInt(key: string): number | null {
    return this.value(key, 'integer') as number | null;
  }

  number(key: string): number {
    return this.value(key, 'number') as number;
  }

  /**
   * A list: the indexed children `key:0`, `key:1`, ... (file and `KEY__0` variables merged by
   * index), or a comma-separated string at the key itself (`Environment__AllowedEnvironments=a,b`),
   * which replaces the list. The registry's default (null or a list) when the key is absent.
   */
  stringList(key: string): readonly string[] | null {
    return this.value(key, 'list') as readonly string[] | null;
  }

  /** A map setting (free keys, e.g. Docs:Themes): keys as written, null when absent. */
  map(key: string): Readonly<Record<string, ConfigScalar>> | null {
    return this.value(key, 'map') as Readonly<Record<string, ConfigScalar>> | null;
  }
}

function invalid(entry: ConfigEntry, reason: string): WharfError {
  return new WharfError('SETTINGS_INVALID_VALUE', { key: entry.key, source: entry.source, reason });
}

/** Every entry resolved against the registry and checked; the values of the keys that are set. */
function check(entries: ReadonlyMap<string, ConfigEntry>, file: SettingsFile): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const lists = new Map<string, { spec: SettingSpec; own?: ConfigEntry; items: { index: number; entry: ConfigEntry }[] }>();
  for (const entry of entries.values()) {
    const resolved = resolveKey(entry.key, file);
    if (!resolved) throw unknown(entry.key, entry.source, suggestKey(entry.key, file));
    const { spec, rest } = resolved;
    const lower = spec.key.toLowerCase();
    if (spec.type === 'list') {
      const list = lists.get(lower) ?? { spec, items: [] };
      lists.set(lower, list);
      if (rest === '') list.own = entry;
      else list.items.push({ index: Number(rest), entry });
      continue;
    }
    if (spec.type === 'map') {
      if (rest === '') {
        if (!Array.isArray(entry.value) && entry.value !== null) throw invalid(entry, 'must be an object');
        continue;
      }
      const map = (values.get(lower) as Record<string, ConfigScalar> | undefined) ?? {};
      map[rest] = entry.value as ConfigScalar;
      values.set(lower, map);
      continue;
    }
    const coerced = coerceValue(spec, entry.value);
    if (!coerced.ok) throw invalid(entry, coerced.reason);
    values.set(lower, coerced.value);
  }
  for (const [lower, { spec, own, items }] of lists) values.set(lower, checkedList(spec, own, items));
  return values;
}

/** The list with its maxItems and item format checked, as `wharf check` does (settings-document.ts); a wrong item is named with its source. */
function checkedList(spec: SettingSpec, own: ConfigEntry | undefined, items: { index: number; entry: ConfigEntry }[]): readonly string[] | null {
  const list = listValue(spec, own, items);
  // a comma-separated string at the key replaces the items (listValue); items are sorted by index there
  const whole = own && typeof own.value === 'string' ? own : undefined;
  const source = whole ?? own ?? items[0]?.entry;
  if (list === null || source === undefined) return list;
  if (spec.maxItems !== undefined && list.length > spec.maxItems) throw invalid({ ...source, key: spec.key }, `accepts at most ${spec.maxItems} entries`);
  for (const [index, item] of list.entries()) {
    const wrong = listItemProblem(spec, item);
    if (wrong !== null) throw invalid(whole ?? items[index]?.entry ?? source, wrong);
  }
  return list;
}

function listValue(spec: SettingSpec, own: ConfigEntry | undefined, items: { index: number; entry: ConfigEntry }[]): readonly string[] | null {
  if (own && typeof own.value === 'string') {
    return own.value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
  }
  if (items.length === 0) {
    if (own && Array.isArray(own.value)) return [];
    if (own && own.value === null) return spec.default as readonly string[] | null;
    if (own) throw invalid(own, 'must be a list of strings');
    return spec.default as readonly string[] | null;
  }
  if (own && !Array.isArray(own.value) && own.value !== null) throw invalid(own, 'must be a list of strings');
  const list = items
    .sort((a, b) => a.index - b.index)
    .map(({ entry }) => {
      if (typeof entry.value !== 'string') throw invalid(entry, 'must be a string');
      return entry.value;
    });
  return list;
}
