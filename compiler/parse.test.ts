import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getNodeValue, parseTree, type ParseError } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { listFiles } from './output-tree.js';
import { MAX_JSON_DEPTH, tooDeepAt } from './json-text.js';
import { parseEntity, pointerSegments } from './parse.js';
import type { DiscoveredEntity } from './stages.js';

const source: DiscoveredEntity = {
  file: 'endpoints/SQL/X/entity.json',
  absolutePath: '/abs/endpoints/SQL/X/entity.json',
  typeFolder: 'SQL',
  folders: [],
  name: 'X',
};

const text = `{
  "DatabaseObjectName": "Products",
  "AllowedColumns": [
    "Id",
    "Name;Title"
  ],
  "Documentation": { "MethodDescriptions": { "GET": "x" } }
}`;

describe('parseEntity', () => {
  it('parses a valid object and locates pointers', () => {
    const { entity, diagnostics } = parseEntity(source, text);
    expect(diagnostics).toEqual([]);
    expect(entity.value).toEqual({
      DatabaseObjectName: 'Products',
      AllowedColumns: ['Id', 'Name;Title'],
      Documentation: { MethodDescriptions: { GET: 'x' } },
    });
    const cases: [string, { line: number; column: number }][] = [
      ['', { line: 1, column: 1 }],
      ['/DatabaseObjectName', { line: 2, column: 25 }],
      ['/AllowedColumns/1', { line: 5, column: 5 }],
      ['/Documentation/MethodDescriptions/GET', { line: 7, column: 53 }],
      // missing property: closest existing parent
      ['/Documentation/TagDescription', { line: 7, column: 20 }],
      ['/AllowedColumns/9', { line: 3, column: 21 }],
    ];
    for (const [pointer, want] of cases) expect(entity.locate(pointer), pointer).toEqual(want);
    expect(entity.locateKey('/AllowedColumns')).toEqual({ line: 3, column: 3 });
  });

  it.each([
    ['trailing comma', '{\n  "A": 1,\n}', 3, 1, 'Property name expected'],
    ['comment', '{\n  // no\n  "A": 1\n}', 2, 3, 'Comments are not allowed in JSON'],
    ['missing comma', '{\n  "A": 1\n  "B": 2\n}', 3, 3, "',' expected"],
    ['unterminated (points at the string start)', '{ "A": "x }', 1, 8, 'Unterminated string'],
  ])('reports %s with line and column', (_name, body, line, column, text) => {
    const { entity, diagnostics } = parseEntity(source, body);
    expect(entity.value).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'json-syntax', severity: 'error', line, column });
    expect(diagnostics[0]?.message).toContain(text);
    expect(diagnostics[0]?.message).toContain(`line ${line}, column ${column}`);
  });

  it('rejects a document that is not an object', () => {
    const { diagnostics } = parseEntity(source, '[1, 2]');
    expect(diagnostics.map((d) => d.message)).toEqual(['entity.json must contain a JSON object']);
  });

  it('ignores a byte order mark', () => {
    expect(parseEntity(source, '\ufeff{"A":1}').entity.value).toEqual({ A: 1 });
  });

  it('unescapes pointer segments', () => {
    expect(pointerSegments('/a~1b/c~0d/0')).toEqual(['a/b', 'c~d', '0']);
  });

  it('gives what jsonc-parser alone gave (value, prototypes, diagnostics, positions) for every entity of the repository and odd texts', async () => {
    const repo = path.resolve(import.meta.dirname, '..');
    const files = (await Promise.all(['endpoints', 'test', 'compiler'].map(async (folder) =>
      (await listFiles(path.join(repo, folder))).filter((f) => f.endsWith('entity.json')).map((f) => path.join(repo, folder, f)),
    ))).flat();
    expect(files.length).toBeGreaterThan(10);
    const odd = [
      '{"__proto__": {"polluted": true}, "constructor": 1}',
      '{"a": 1, "a": 2, "10": "x", "2": "y"}',
      '{"s": "\\u00e9 \\ud83d\\ude00 \\ud800 \\n \\u2028", "n": [1e400, -0, 1.5e-7, 123456789012345678901234567890]}',
      '\ufeff{"bom": true}',
      '{"a": [] , "b": {} }\n',
      '{"nbsp":\u00a01}',
      '{"a": 1,}',
      '{"a": 1} // comment',
      '[1, 2]',
      '"text"',
      '',
      '{"a": "tab\tinside"}',
      '{"a": 01}',
      '{"a": .5}',
    ];
    // jsonc-parser alone overflows its stack on those nested too deep (parse refuses them first; tested below)
    for (const text of [...files.map((f) => readFileSync(f, 'utf8')), ...odd].filter((t) => tooDeepAt(t) === undefined)) {
      const { entity, diagnostics } = parseEntity(source, text);
      const bare = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
      const errors: ParseError[] = [];
      const tree = parseTree(bare, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
      const reference = errors.length === 0 && tree ? (getNodeValue(tree) as unknown) : undefined;
      const isObject = reference !== null && typeof reference === 'object' && !Array.isArray(reference);
      expect(diagnostics.length === 0, text).toBe(errors.length === 0 && isObject);
      if (diagnostics.length > 0) continue;
      expect(entity.value, text).toStrictEqual(reference); // also the prototypes (none, as getNodeValue makes them)
      expect(Object.getPrototypeOf(entity.value)).toBeNull();
      for (const key of Object.keys(reference as object)) expect(entity.locate(`/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`)).not.toEqual({ line: 1, column: 1 });
    }
  });

  it.each([
    ['arrays', (n: number) => `{"x-a": ${'['.repeat(n)}${']'.repeat(n)}}`],
    ['objects', (n: number) => `{"x-a": ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`],
  ])('refuses %s nested deeper than MAX_JSON_DEPTH with a located json-syntax error, never a stack overflow', (_name, nest) => {
    expect(parseEntity(source, nest(MAX_JSON_DEPTH - 1)).diagnostics).toEqual([]);
    for (const depth of [MAX_JSON_DEPTH, 200_000]) {
      const { entity, diagnostics } = parseEntity(source, `\n${nest(depth)}`);
      expect(entity.value).toBeUndefined();
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatchObject({ code: 'json-syntax', severity: 'error', line: 2 });
      expect(diagnostics[0]?.message).toMatch(/^Invalid JSON: objects and arrays are nested deeper than 100 levels at line 2, column \d+$/);
    }
  });

  it('brackets inside strings do not count as nesting', () => {
    expect(parseEntity(source, `{"x-a": "${'[{'.repeat(500)}\\"${'['.repeat(500)}"}`).diagnostics).toEqual([]);
  });

  it.each([
    ['UTF-16 LE with its byte order mark', Buffer.from('\ufeff{"A": 1}', 'utf16le'), 1, 1, 'the file is UTF-16, not UTF-8'],
    ['UTF-16 BE with its byte order mark', Buffer.from('\ufeff{"A": 1}', 'utf16le').swap16(), 1, 1, 'the file is UTF-16, not UTF-8'],
    ['UTF-16 LE without one', Buffer.from('{"A": 1}', 'utf16le'), 1, 1, 'the file is UTF-16, not UTF-8'],
    ['a Latin-1 byte', Buffer.concat([Buffer.from('{\n  "A": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]), 2, 12, 'byte 0xE9 is not valid UTF-8'],
    ['a truncated sequence at the end', Buffer.concat([Buffer.from('{"A": 1}'), Buffer.from([0xe2, 0x82])]), 1, 9, 'byte 0xE2 is not valid UTF-8'],
    ['an overlong encoding', Buffer.concat([Buffer.from('{"A": "'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), 1, 8, 'byte 0xC0 is not valid UTF-8'],
    ['an encoded surrogate', Buffer.concat([Buffer.from('{"A": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), 1, 8, 'byte 0xED is not valid UTF-8'],
  ])('refuses bytes that are not UTF-8: %s', (_name, bytes, line, column, text) => {
    const { entity, diagnostics } = parseEntity(source, bytes);
    expect(entity.value).toBeUndefined();
    expect(diagnostics).toEqual([
      { severity: 'error', code: 'json-syntax', file: source.file, line, column, pointer: '', message: `Invalid JSON: ${text} at line ${line}, column ${column}`, hint: 'JSON files are UTF-8: save the file with the UTF-8 encoding.' },
    ]);
  });

  it('reads UTF-8 bytes, with or without a byte order mark, as their text', () => {
    const text = '{"A": "caf\u00e9 \u20ac \ud83d\ude00"}';
    for (const bytes of [Buffer.from(text), Buffer.from(`\ufeff${text}`)]) {
      const { entity, diagnostics } = parseEntity(source, bytes);
      expect(diagnostics).toEqual([]);
      expect(entity.value).toEqual({ A: 'caf\u00e9 \u20ac \ud83d\ude00' });
    }
  });
});
