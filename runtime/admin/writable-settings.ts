/**
 * The keys PUT /ui/api/settings accepts, each with its kind and whether it needs a restart, and
 * the validation of one value. Texts follow the reference notes (docs/console-api.md):
 *   '<key>' is not a writable setting | '<key>' expects true or false | '<key>' must be N or more ...
 */
import { everyAddressProblem, everyAddressTrusted } from '../traffic/network-coverage.js';
import { isIP } from 'node:net';
import { LOG_LEVELS } from '../settings/server-settings.js';

export type WritableKind = 'bool' | 'int' | 'choice' | 'text' | 'iplist' | 'cidrlist' | 'originlist';

export interface WritableSetting {
  readonly key: string;
  readonly kind: WritableKind;
  readonly requiresRestart: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly choices?: readonly string[];
  readonly maxLength?: number;
}

const LIST_MAX = 50;

export const WRITABLE_SETTINGS: readonly WritableSetting[] = [
  { key: 'RateLimiting:Enabled', kind: 'bool', requiresRestart: true },
  { key: 'RateLimiting:IpLimit', kind: 'int', requiresRestart: true, min: 1, max: 1_000_000 },
  { key: 'RateLimiting:IpWindow', kind: 'int', requiresRestart: true, min: 1, max: 86_400 },
  { key: 'RateLimiting:TokenLimit', kind: 'int', requiresRestart: true, min: 1, max: 1_000_000 },
  { key: 'RateLimiting:TokenWindow', kind: 'int', requiresRestart: true, min: 1, max: 86_400 },
  { key: 'Caching:Enabled', kind: 'bool', requiresRestart: true },
  { key: 'Caching:DefaultDurationSeconds', kind: 'int', requiresRestart: true, min: 0, max: 2_592_000 },
  { key: 'SqlConnectionPooling:Enabled', kind: 'bool', requiresRestart: true },
  { key: 'SqlConnectionPooling:MinPoolSize', kind: 'int', requiresRestart: true, min: 0, max: 1000 },
  { key: 'SqlConnectionPooling:MaxPoolSize', kind: 'int', requiresRestart: true, min: 1, max: 1000 },
  { key: 'Logging:MinLevel', kind: 'choice', requiresRestart: false, choices: LOG_LEVELS },
  { key: 'HealthChecks:Enabled', kind: 'bool', requiresRestart: true },
  { key: 'HealthChecks:CacheTimeSeconds', kind: 'int', requiresRestart: true, min: 0, max: 3600 },
  { key: 'Environment:ServerName', kind: 'text', requiresRestart: true, maxLength: 100 },
  { key: 'WebUi:SecureCookies', kind: 'bool', requiresRestart: false },
  { key: 'WebUi:PublicOrigins', kind: 'originlist', requiresRestart: false },
  { key: 'ForwardedHeaders:KnownProxies', kind: 'iplist', requiresRestart: true },
  { key: 'ForwardedHeaders:KnownNetworks', kind: 'cidrlist', requiresRestart: true },
];

export function findWritable(key: string): WritableSetting | undefined {
  return WRITABLE_SETTINGS.find((setting) => setting.key.toLowerCase() === key.toLowerCase());
}

export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

const fail = (error: string): Checked => ({ ok: false, error });

function checkList(setting: WritableSetting, value: unknown, entry: (item: string) => string | null): Checked {
  const { key } = setting;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return fail(`'${key}' expects a list of strings`);
  if (value.length > LIST_MAX) return fail(`'${key}' accepts at most ${LIST_MAX} entries`);
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
