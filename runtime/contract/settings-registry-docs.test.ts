/**
 * The settings registry is the documentation: docs/settings.md lists exactly the registry's keys,
 * each row rendered from it (type, range, default, restart, secret, console, meaning); every key a
 * reader asks for (`source.int('A:B')` ...) is registered; the schemas compile with ajv and the
 * project's own settings files pass. A setting added in code but not in the registry fails here.
 * After changing the registry: `WRITE_SETTINGS_DOCS=1 npx vitest run runtime/contract/settings-registry-docs.test.ts`
 * rewrites the two tables of docs/settings.md (then review the diff).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { SETTINGS_KEYWORDS, settingsRegistry, settingsSchema } from './settings-registry.js';
import type { SettingsFile, SettingSpec } from './settings-registry.js';
import { checkSettingsDocument } from './settings-document.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(REPO, 'docs/settings.md');

const code = (value: string) => `\`${value}\``;

function typeText(spec: SettingSpec): string {
  const range = (unit: string) => {
    const { minimum: min, maximum: max, exclusiveMinimum: above } = spec;
    if (min !== undefined && max !== undefined) return `${unit} ${min} to ${max}`;
    if (min !== undefined) return `${unit} ≥ ${min}`;
    if (above !== undefined) return `${unit} > ${above}`;
    if (max !== undefined) return `${unit} ≤ ${max}`;
    return unit;
  };
  switch (spec.type) {
    case 'boolean':
      return spec.nullable ? 'bool or absent' : 'bool';
    case 'integer':
      return spec.words ? `${range('int')} or ${spec.words.map(code).join(' ')}` : range('int');
    case 'number':
      return range('number');
    case 'string':
      if (spec.enum) return spec.enum.map(code).join(' ');
      if (spec.minLength !== undefined && spec.minLength > 1 && spec.maxLength !== undefined) return `text, ${spec.minLength} to ${spec.maxLength} characters`;
      return spec.maxLength !== undefined ? `text, at most ${spec.maxLength} characters` : 'text';
    case 'list':
      return spec.items ? `list of ${{ ip: 'IPs', cidr: 'CIDRs', origin: 'origins', host: 'hosts' }[spec.items]}` : 'list';
    case 'map':
      return 'map';
  }
}

function defaultText(spec: SettingSpec): string {
  const value = spec.default;
  if (value === null) return '(absent)';
  if (value === '') return '(empty)';
  if (Array.isArray(value)) return value.length === 0 ? code('[]') : value.map((item) => code(String(item))).join(' ');
  return code(String(value));
}

function meaning(spec: SettingSpec): string {
  const legacy = spec.env.length > 0 ? ` (also ${spec.env.map(code).join(', ')})` : '';
  return `${spec.description}${legacy}`.replaceAll('|', '\\|');
}

function row(spec: SettingSpec): string {
  return `| ${code(spec.key)} | ${typeText(spec)} | ${defaultText(spec)} | ${spec.restart ? 'restart' : 'at once'} | ${spec.secret ? 'secret' : ''} | ${spec.writable ? 'yes' : ''} | ${meaning(spec)} |`;
}

function renderTable(file: SettingsFile): string {
  return [
    '| Key | Type | Default | Applies | Secret | Console | Meaning |',
    '|---|---|---|---|---|---|---|',
    ...settingsRegistry(file).specs.map(row),
  ].join('\n');
}

/** The table after `<!-- registry:<file> -->` in docs/settings.md. */
function documentedTable(file: SettingsFile): string {
  const text = readFileSync(DOC, 'utf8');
  const marker = `<!-- registry:${file} -->\n`;
  const start = text.indexOf(marker);
  if (start < 0) return `(no ${marker.trim()} in docs/settings.md)`;
  const rest = text.slice(start + marker.length);
  const end = rest.search(/\n(?!\|)/);
  return end < 0 ? rest : rest.slice(0, end);
}

function runtimeSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

function writeTable(file: SettingsFile): void {
  const text = readFileSync(DOC, 'utf8');
  const current = documentedTable(file);
  const marker = `<!-- registry:${file} -->\n`;
  if (text.includes(marker)) writeFileSync(DOC, text.replace(`${marker}${current}`, `${marker}${renderTable(file)}`));
}

describe('docs/settings.md and the settings registry', () => {
  it.each(['settings.json', 'sync.json'] as const)('documents every key of %s as the registry says', (file) => {
    if (process.env['WRITE_SETTINGS_DOCS'] === '1') writeTable(file);
    expect(documentedTable(file)).toBe(renderTable(file));
  });

  it('every key a reader asks for is registered', () => {
    const read = /\.(?:int|intOrWord|bool|optionalBool|number|string|choice|stringList|map)\(\s*'([A-Za-z]+(?::[A-Za-z]+)+)'/g;
    const unregistered: string[] = [];
    for (const file of runtimeSources(path.join(REPO, 'runtime'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(read)) {
        const key = match[1]!.toLowerCase();
        if (!settingsRegistry('settings.json').byKey.has(key) && !settingsRegistry('sync.json').byKey.has(key)) {
          unregistered.push(`${path.relative(REPO, file)}: ${match[1]}`);
        }
      }
    }
    expect(unregistered).toEqual([]);
  });

  it('every registered key has a description, a default that passes its own rules, and both flags', () => {
    for (const file of ['settings.json', 'sync.json'] as const) {
      for (const spec of settingsRegistry(file).specs) {
        expect(spec.description, spec.key).not.toBe('');
        const doc: Record<string, unknown> = {};
        let node = doc;
        const parts = spec.key.split(':');
        for (const part of parts.slice(0, -1)) node = (node[part] = {}) as Record<string, unknown>;
        node[parts.at(-1)!] = spec.default;
        expect(checkSettingsDocument(doc, file), spec.key).toEqual([]);
      }
    }
  });

  it('the schemas compile with ajv and the project settings pass them', () => {
    const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
    ajv.addVocabulary([...SETTINGS_KEYWORDS]);
    const validate = ajv.compile(settingsSchema('settings.json'));
    const own = JSON.parse(readFileSync(path.join(REPO, 'environments/settings.json'), 'utf8')) as unknown;
    expect(validate(own), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ RateLimting: {} })).toBe(false);
    expect(ajv.compile(settingsSchema('sync.json'))({ Health: { Port: 1 } })).toBe(true);
  });
});
