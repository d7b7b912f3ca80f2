/**
 * The keys PUT /ui/api/settings accepts (the registry's `x-writable` settings, with their kind,
 * restart flag and range from schemas/settings.schema.json), and the validation of one value. Texts follow the reference notes (docs/console-api.md):
 *   '<key>' is not a writable setting | '<key>' expects true or false | '<key>' must be N or more ...
 */
import { everyAddressProblem, everyAddressTrusted } from '../traffic/network-coverage.js';
import { isIP } from 'node:net';
import { settingsRegistry, type SettingSpec } from '../contract/settings-registry.js';

export type WritableKind = 'bool' | 'int' | 'choice' | 'text' | 'iplist' | 'cidrlist' | 'originlist';

export interface WritableSetting {
  readonly key: string;
  readonly kind: WritableKind;
  readonly requiresRestart: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  readonly maxLength?: number;
  readonly maxItems?: number;
}

const LIST_MAX = 50;

function kindOf(spec: SettingSpec): WritableKind {
  switch (spec.type) {
    case 'boolean':
      return 'bool';
    case 'integer':
      return 'int';
    case 'string':
      return spec.enum ? 'choice' : 'text';
    case 'list':
      if (spec.items === 'ip') return 'iplist';
      if (spec.items === 'cidr') return 'cidrlist';
      if (spec.items === 'origin') return 'originlist';
  }
  throw new Error(`Setting '${spec.key}' is marked x-writable but the console cannot edit a ${spec.type}${spec.type === 'list' ? ' without x-items' : ''}`);
}

/** The registry's settings marked `x-writable`, with their kind, restart flag and bounds. */
export const WRITABLE_SETTINGS: readonly WritableSetting[] = settingsRegistry('settings.json')
  .specs.filter((spec) => spec.writable)
  .map((spec) => ({
    key: spec.key,
    kind: kindOf(spec),
    requiresRestart: spec.restart,
    ...(spec.minimum !== undefined ? { min: spec.minimum } : {}),
    ...(spec.maximum !== undefined ? { max: spec.maximum } : {}),
    ...(spec.enum ? { choices: spec.enum } : {}),
    ...(spec.maxLength !== undefined ? { maxLength: spec.maxLength } : {}),
    ...(spec.maxItems !== undefined ? { maxItems: spec.maxItems } : {}),
  }));

export function findWritable(key: string): WritableSetting | undefined {
  return WRITABLE_SETTINGS.find((setting) => setting.key.toLowerCase() === key.toLowerCase());
}

export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

const fail = (error: string): Checked => ({ ok: false, error });

function checkList(setting: WritableSetting, value: unknown, entry: (item: string) => string | null): Checked {
  const { key } = setting;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return fail(`'${key}' expects a list of strings`);
  const max = setting.maxItems ?? LIST_MAX;
  if (value.length > max) return fail(`'${key}' accepts at most ${max} entries`);
  const items = (value as string[]).map((item) => item.trim());
  for (const item of items) {
    const problem = entry(item);
    if (problem) return fail(`'${key}': '${item}' ${problem}`);
  }
  return { ok: true, value: items };
}

function cidrProblem(item: string): string | null {
  const [base = '', bits = ''] = item.split('/');
  const family = isIP(base);
  const prefix = Number(bits);
  if (family === 0 || !/^\d+$/.test(bits)) return 'is not a CIDR range such as 10.0.0.0/8';
  if (prefix < 1 || prefix > (family === 4 ? 32 : 128)) return 'has an invalid prefix length (/0 is refused)';
  return null;
}

function originProblem(item: string): string | null {
  let url: URL;
  try {
    url = new URL(item);
  } catch {
    return 'is not an origin such as https://console.example.com';
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin.toLowerCase() !== item.toLowerCase().replace(/\/$/, '')) {
    return 'must be scheme and host only, such as https://console.example.com';
  }
  return null;
}

/** Validates one value against its setting; returns the value to store. */
export function checkValue(setting: WritableSetting, value: unknown): Checked {
  const { key } = setting;
  switch (setting.kind) {
    case 'bool':
      return typeof value === 'boolean' ? { ok: true, value } : fail(`'${key}' expects true or false`);
    case 'int': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail(`'${key}' expects a whole number`);
      if (setting.min !== undefined && value < setting.min) return fail(`'${key}' must be ${setting.min} or more`);
      if (setting.max !== undefined && value > setting.max) return fail(`'${key}' must be ${setting.max} or less`);
      return { ok: true, value };
    }
    case 'choice': {
      const match = setting.choices?.find((choice) => typeof value === 'string' && choice.toLowerCase() === value.toLowerCase());
      return match === undefined ? fail(`'${key}' must be one of ${setting.choices?.join(', ')}`) : { ok: true, value: match };
    }
    case 'text':
      if (value === null) return { ok: true, value: null };
      if (typeof value !== 'string') return fail(`'${key}' expects text`);
      if (value.length > (setting.maxLength ?? 200)) return fail(`'${key}' must be at most ${setting.maxLength ?? 200} characters`);
      return { ok: true, value };
    case 'iplist':
      return checkList(setting, value, (item) => (isIP(item) === 0 ? 'is not an IP address' : null));
    case 'cidrlist': {
      const checked = checkList(setting, value, cidrProblem);
      if (!checked.ok) return checked;
      const every = everyAddressTrusted(checked.value as string[]);
      return every ? fail(`'${key}': ${JSON.stringify(checked.value)} ${everyAddressProblem(every)}`) : checked;
    }
    case 'originlist':
      return checkList(setting, value, originProblem);
  }
}
