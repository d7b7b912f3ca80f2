import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED, memoByContentType } from './content-type-memo.js';
import { isJson } from './response-inspection.js';
import { isRewritable } from './url-rewrite.js';

describe('memoByContentType', () => {
  it('classifies each header text once, then answers from memory', () => {
    let calls = 0;
    const json = memoByContentType((text) => {
      calls += 1;
      return text.startsWith('application/json');
    });
    for (let i = 0; i < 1000; i += 1) expect(json('application/json; charset=utf-8')).toBe(true);
    expect(json('text/plain')).toBe(false);
    expect(json(undefined)).toBe(false);
    expect(calls).toBe(3);
  });

  it('remembers at most MAX_REMEMBERED texts; later ones are classified afresh, with the same answers', () => {
    let calls = 0;
    const json = memoByContentType((text) => {
      calls += 1;
      return text.includes('json');
    });
    for (let i = 0; i < MAX_REMEMBERED + 10; i += 1) json(`application/json; v=${i}`);
    calls = 0;
    expect(json('application/json; v=0')).toBe(true);
    expect(json(`application/json; v=${MAX_REMEMBERED + 5}`)).toBe(true);
    expect(calls).toBe(1);
  });

  it('keeps the answers of isJson and isRewritable', () => {
    const cases: [string | undefined, boolean, boolean][] = [
      ['application/json', true, true],
      ['Application/JSON; charset=utf-8', true, true],
      ['text/json', true, false],
      ['application/problem+json', true, true],
      ['application/xml', false, true],
      ['text/xml; charset=utf-8', false, true],
      ['application/atom+xml', false, true],
      ['text/plain', false, false],
      ['', false, false],
      [undefined, false, false],
    ];
    for (const [type, json, rewritable] of cases) {
      expect(isJson(type), String(type)).toBe(json);
      expect(isRewritable(type), String(type)).toBe(rewritable);
    }
  });
});
