import { describe, expect, it } from 'vitest';
import { parseStaticContent, staticFormatOf } from './static-content.js';

describe('staticFormatOf', () => {
  it.each([
    ['application/json', 'json'],
    ['application/vnd.api+json; charset=utf-8', 'json'],
    ['text/xml', 'xml'],
    ['application/atom+xml', 'xml'],
    ['text/csv', 'csv'],
    ['text/plain', null],
    ['image/png', null],
  ])('%s -> %s', (type, want) => {
    expect(staticFormatOf(type)).toBe(want);
  });
});

describe('parseStaticContent', () => {
  it.each([
    ['JSON root array', '[{"a":1},{"b":"x"}]', 'json', { rows: [{ a: 1 }, { b: 'x' }], columns: ['a', 'b'], wrapperKey: null }],
    ['JSON first array property', '{"v":1,"items":[{"a":1}],"more":[{"b":2}]}', 'json', { rows: [{ a: 1 }], wrapperKey: 'items' }],
    [
      'CSV typed columns',
      'n,b,s,e\n1,true,007,\n-2.5,FALSE,x,1\n',
      'csv',
      { rows: [{ n: 1, b: true, s: '007', e: null }, { n: -2.5, b: false, s: 'x', e: 1 }], columns: ['n', 'b', 's', 'e'] },
    ],
    [
      'XML repeating element with attributes',
      '<r><meta>x</meta><i id="1"><a>x</a></i><i id="2"><a>3</a></i></r>',
      'xml',
      { rows: [{ id: 1, a: 'x' }, { id: 2, a: '3' }], xmlRoot: 'r', xmlItem: 'i' },
    ],
  ] as const)('%s', (_name, text, format, want) => {
    const result = parseStaticContent(text, format);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.dataset).toMatchObject(want);
  });

  it.each([
    ['JSON syntax with position', '[\n  {"a": 1,}\n]', 'json', { line: 2, column: 11 }],
    // V8 gives no position here, only the character: the column is that character's, V8's quoted text is dropped
    ['JSON token without a V8 position', '[\n  {"a": tru}\n]', 'json', { line: 2, column: 12, message: "invalid JSON: Unexpected token '}'" }],
    ['JSON garbage after the value', '[{"a":1}] x', 'json', { line: 1, column: 11, message: 'invalid JSON: Unexpected non-whitespace character after JSON' }],
    ['binary content', 'GIF89a\u0000\u0001\u0002\u001b[31m', 'json', { line: null, message: 'the file looks binary, not JSON (it starts "GIF89a\\u0000\\u0001\\u0002\\u001b[31m")' }],
    ['JSON without records', '{"a": 1}', 'json', { line: null, message: 'JSON content has no array of records (neither at the root nor under a top-level property)' }],
    ['JSON record not an object', '[1]', 'json', { message: 'JSON record 1 is not an object' }],
    ['XML mismatched tag', '<r>\n<i></j>\n</r>', 'xml', { line: 2 }],
    ['CSV unclosed quote', 'a\n"x\n', 'csv', { line: 2 }],
  ] as const)('%s', (_name, text, format, want) => {
    const result = parseStaticContent(text, format);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject(want);
  });
});
