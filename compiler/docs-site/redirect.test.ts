import { describe, expect, it } from 'vitest';
import { resolveRedirect } from './redirect.js';

describe('resolveRedirect', () => {
  it.each<[string, string, string | null]>([
    ['https://example.org/x', 'a.md', 'https://example.org/x'],
    ['//cdn.example.org/x', 'a.md', '//cdn.example.org/x'],
    ['/Guide/New.md', 'old/a.md', '/guide/new'],
    ['./new.md#part', 'guide/a.md', '/guide/new#part'],
    ['../other', 'guide/a.md', '/other'],
    ['/', 'a.md', '/'],
    ['../../out.md', 'guide/a.md', null],
  ])('%s from %s', (target, from, want) => expect(resolveRedirect(target, from)).toBe(want));
});
