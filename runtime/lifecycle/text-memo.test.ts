import { describe, expect, it } from 'vitest';
import { memoByText } from './text-memo.js';
import { isJson } from '../proxy/response-inspection.js';
import { isRewritable } from '../proxy/url-rewrite.js';
import { normalizeAddress, normalizeRemote } from '../traffic/client-ip.js';
import { connectionListed } from '../proxy/request-headers.js';

describe('memoByText', () => {
  it('computes each text once, then answers from memory', () => {
    let calls = 0;
    const json = memoByText((text) => {
      calls += 1;
      return text.startsWith('application/json');
    }, 64);
    for (let i = 0; i < 1000; i += 1) expect(json('application/json; charset=utf-8')).toBe(true);
    expect(json('text/plain')).toBe(false);
    expect(calls).toBe(2);
  });

  it('keeps at most `max` texts: when full it starts afresh, with the same answers', () => {
    let calls = 0;
    const upper = memoByText((text) => {
      calls += 1;
      return text.toUpperCase();
    }, 4);
    for (const text of ['a', 'b', 'c', 'd']) upper(text);
    expect(calls).toBe(4);
    expect(upper('e')).toBe('E'); // the fifth: the memo starts afresh with it
    expect(upper('e')).toBe('E');
    expect(calls).toBe(5);
    expect(upper('a')).toBe('A');
    expect(calls).toBe(6);
  });
});

describe('texts remembered on the request path', () => {
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
      for (let i = 0; i < 2; i += 1) {
        expect(isJson(type), String(type)).toBe(json);
        expect(isRewritable(type), String(type)).toBe(rewritable);
      }
    }
  });

  it('normalizeRemote answers as normalizeAddress does', () => {
    for (const address of ['127.0.0.1', '::ffff:10.1.2.3', '::FFFF:10.1.2.3', 'FE80::1%eth0', ' 2001:DB8::1 ', '']) {
      for (let i = 0; i < 2; i += 1) expect(normalizeRemote(address), address).toBe(normalizeAddress(address));
    }
  });

  it('connectionListed: one set per Connection text, the same names', () => {
    expect(connectionListed('keep-alive')).toBe(connectionListed('keep-alive'));
    expect([...connectionListed(' Keep-Alive, X-Secret ,,')]).toEqual(['keep-alive', 'x-secret']);
    expect([...connectionListed(['close', 'X-A'])]).toEqual(['close', 'x-a']);
    expect(connectionListed(undefined).size).toBe(0);
    expect(connectionListed('').size).toBe(0);
  });
});
