/**
 * The one grammar of a setting's value, for JSON values and for the text of environment variables
 * alike (the gateway, `wharf docs serve`, `wharf sync` and `wharf check` all use it):
 *   boolean  true or false (JSON, or text in any case; nothing else: `yes`, `0`, `nope` are errors)
 *   integer  a whole number (JSON, or text `-?[0-9]+`), within minimum/maximum; or one of its
 *            `words` in any case (Server:Workers `auto`), given as that word
 *   number   a number (JSON, or text `-?[0-9]+(.[0-9]+)?`), within minimum/exclusiveMinimum/maximum
 *   string   text (a JSON number is taken as its text); an enum matches case-insensitively; format
 *            `git-argument` (Git:Url, Git:Branch) may not start with `-`: git would read it as an option
 *   list     strings; at most maxItems; items of format `host` must be host patterns (host-pattern.ts;
 *            the formats ip, cidr and origin are checked where the console writes them)
 * The reasons read after "Setting 'X' (from Y) ".
 */
import type { SettingSpec } from './settings-registry.js';
import { hostPatternProblem } from './host-pattern.js';

export type Coerced = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

const fail = (reason: string): Coerced => ({ ok: false, reason });

function inRange(spec: SettingSpec, value: number, words: readonly string[] = []): Coerced {
  const or = words.map((w) => ` (or ${w})`).join('');
  if (spec.minimum !== undefined && value < spec.minimum) return fail(`must be ${spec.minimum} or more${or}`);
  if (spec.exclusiveMinimum !== undefined && value <= spec.exclusiveMinimum) return fail(`must be more than ${spec.exclusiveMinimum}`);
  if (spec.maximum !== undefined && value > spec.maximum) return fail(`must be ${spec.maximum} or less${or}`);
  return { ok: true, value };
}

/** Why one item of a list breaks its setting's item format; null when it does not (or the format is checked elsewhere). */
export function listItemProblem(spec: SettingSpec, item: string): string | null {
  return spec.items === 'host' ? hostPatternProblem(item) : null;
}

/**
 * Why a value handed to git as an argument is refused: one starting with `-` would be read as an
 * option (`--upload-pack=<command>` runs a command); null when it is fine.
 */
export function gitArgumentProblem(value: string): string | null {
  return value.trim().startsWith('-') ? "must not start with '-' (git would read it as an option)" : null;
}

/** One scalar value of `spec` (not a list or a map). */
export function coerceValue(spec: SettingSpec, raw: unknown): Coerced {
  if (raw === null) return spec.nullable ? { ok: true, value: null } : { ok: true, value: spec.default };
  const text = typeof raw === 'string' ? raw.trim() : null;
  switch (spec.type) {
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (text !== null && /^(true|false)$/i.test(text)) return { ok: true, value: text.toLowerCase() === 'true' };
      return fail('must be true or false');
    case 'integer': {
      const word = text === null ? undefined : spec.words?.find((w) => w === text.toLowerCase());
      if (word !== undefined) return { ok: true, value: word };
      const value = typeof raw === 'number' ? raw : text !== null && /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
      if (Number.isSafeInteger(value)) return inRange(spec, value, spec.words);
      return fail(spec.words ? `must be a whole number or ${spec.words.join(' or ')}` : 'must be a whole number');
    }
    case 'number': {
      const value = typeof raw === 'number' ? raw : text !== null && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
      return Number.isFinite(value) ? inRange(spec, value) : fail('must be a number');
    }
    case 'string': {
      if (typeof raw !== 'string' && typeof raw !== 'number') return fail('must be a string');
      const value = String(raw);
      if (spec.enum) {
        const match = spec.enum.find((option) => option.toLowerCase() === value.trim().toLowerCase());
        return match === undefined ? fail(`must be one of ${spec.enum.join(', ')}`) : { ok: true, value: match };
      }
      if (spec.maxLength !== undefined && value.length > spec.maxLength) return fail(`must be at most ${spec.maxLength} characters`);
      if (spec.minLength !== undefined && value.length < spec.minLength) return fail(`must be at least ${spec.minLength} characters`);
      const wrong = spec.format === 'git-argument' ? gitArgumentProblem(value) : null;
      return wrong === null ? { ok: true, value } : fail(wrong);
    }
    case 'list':
      return typeof raw === 'string' ? { ok: true, value: raw } : fail('must be a list of strings');
    case 'map':
      return fail('must be an object');
  }
}
