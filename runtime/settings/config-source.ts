/**
 * Flat, case-insensitive view of the server settings: environments/settings.json flattened to
 * colon keys (`RateLimiting:Enabled`, arrays as `Environment:AllowedEnvironments:0`), then
 * environment variables with `__` as separator laid over it (ASP.NET style, case-insensitive).
 * Typed getters validate; a bad value is a startup error naming the key and where it came from.
 */
import { WharfError } from '../errors/wharf-error.js';

export type ConfigScalar = string | number | boolean | null;

export interface ConfigEntry {
  /** Key as written (colon separated), for messages. */
  readonly key: string;
  readonly value: ConfigScalar | readonly [];
  /** `environments/settings.json` or `environment variable X__Y`. */
  readonly source: string;
}

export interface IntRange {
  readonly min?: number;
  readonly max?: number;
}

function flattenInto(
  target: Map<string, ConfigEntry>,
  value: unknown,
  prefix: string,
  source: string,
): void {
  if (Array.isArray(value)) {
    if (value.length === 0 && prefix) target.set(prefix.toLowerCase(), { key: prefix, value: [], source });
    value.forEach((item, index) => flattenInto(target, item, `${prefix}:${index}`, source));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, child] of Object.entries(value)) {
      flattenInto(target, child, prefix ? `${prefix}:${name}` : name, source);
    }
    return;
  }
  if (!prefix) return;
  target.set(prefix.toLowerCase(), { key: prefix, value: value as ConfigScalar, source });
}

export class ConfigSource {
  private readonly entries: ReadonlyMap<string, ConfigEntry>;

  private constructor(entries: ReadonlyMap<string, ConfigEntry>) {
    this.entries = entries;
  }

  /** `fileJson` is the parsed settings.json (or undefined when absent); `env` is process.env-like. */
  static from(
    fileJson: unknown,
    fileLabel: string,
    env: Readonly<Record<string, string | undefined>>,
  ): ConfigSource {
    const entries = new Map<string, ConfigEntry>();
    flattenInto(entries, fileJson, '', fileLabel);
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined || !name.includes('__')) continue;
      const key = name.split('__').join(':');
      entries.set(key.toLowerCase(), { key, value, source: `environment variable ${name}` });
    }
    return new ConfigSource(entries);
  }

  entry(key: string): ConfigEntry | undefined {
    return this.entries.get(key.toLowerCase());
  }

  /** Every entry, for dumps (always pass through redact() before logging). */
  all(): readonly ConfigEntry[] {
    return [...this.entries.values()].sort((a, b) => a.key.localeCompare(b.key));
  }

  string(key: string, fallback: string): string {
    const found = this.entry(key);
    if (!found || found.value === null) return fallback;
    if (typeof found.value === 'string' || typeof found.value === 'number') return String(found.value);
    throw invalid(found, 'must be a string');
  }

  choice<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(key, fallback);
    const match = allowed.find((option) => option.toLowerCase() === raw.toLowerCase());
    if (match === undefined) throw invalid(this.entry(key)!, `must be one of ${allowed.join(', ')}`);
    return match;
  }

  bool(key: string, fallback: boolean): boolean {
    const found = this.entry(key);
    if (!found || found.value === null) return fallback;
    if (typeof found.value === 'boolean') return found.value;
    if (typeof found.value === 'string') {
      const text = found.value.trim().toLowerCase();
      if (text === 'true') return true;
      if (text === 'false') return false;
    }
    throw invalid(found, 'must be true or false');
  }

  int(key: string, fallback: number, range: IntRange = {}): number {
    const found = this.entry(key);
    if (!found || found.value === null) return fallback;
    const value =
      typeof found.value === 'number'
        ? found.value
        : typeof found.value === 'string' && /^-?\d+$/.test(found.value.trim())
          ? Number(found.value.trim())
          : Number.NaN;
    if (!Number.isSafeInteger(value)) throw invalid(found, 'must be a whole number');
    if (range.min !== undefined && value < range.min) throw invalid(found, `must be ${range.min} or more`);
    if (range.max !== undefined && value > range.max) throw invalid(found, `must be ${range.max} or less`);
    return value;
  }

  /**
   * A list: the indexed children `key:0`, `key:1`, ... (file and `KEY__0` variables merged by
   * index), or a comma-separated string at the key itself (`Environment__AllowedEnvironments=a,b`),
   * which replaces the list. null when the key is absent.
   */
  stringList(key: string): readonly string[] | null {
    const own = this.entry(key);
    if (own && typeof own.value === 'string') {
      return own.value.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
    }
    const prefix = `${key.toLowerCase()}:`;
    const items: { index: number; entry: ConfigEntry }[] = [];
    for (const [name, entry] of this.entries) {
      if (!name.startsWith(prefix)) continue;
      const rest = name.slice(prefix.length);
      if (!/^\d+$/.test(rest)) throw invalid(entry, `is not a list item (expected ${key}:<index>)`);
      items.push({ index: Number(rest), entry });
    }
    if (items.length === 0) return own && Array.isArray(own.value) ? [] : own ? invalidList(own) : null;
    return items
      .sort((a, b) => a.index - b.index)
      .map(({ entry }) => {
        if (typeof entry.value !== 'string') throw invalid(entry, 'must be a string');
        return entry.value;
      });
  }
}

function invalidList(entry: ConfigEntry): never {
  throw invalid(entry, 'must be a list of strings');
}

function invalid(entry: ConfigEntry, reason: string): WharfError {
  return new WharfError('SETTINGS_INVALID_VALUE', { key: entry.key, source: entry.source, reason });
}
