import { describe, expect, it } from 'vitest';
import MarkdownItCtor from 'markdown-it';
import { clip, extractText } from './text.js';

describe('extractText', () => {
  it('collects body text without headings, the first paragraph and the first h1', () => {
    const tokens = new MarkdownItCtor().parse('# Title\n\nFirst *para*\nline two.\n\n## Sub\n\n- item `code`\n\n```\nfenced\n```\n', {});
    expect(extractText(tokens)).toEqual({ body: 'First para line two.\nitem code\nfenced', firstParagraph: 'First para line two.', firstH1: 'Title' });
  });
});

describe('clip', () => {
  it.each([
    ['short', 10, 'short'],
    ['one two three four five', 14, 'one two three…'],
    ['abcdefghijklmnop', 5, 'abcde…'],
  ])('%s / %i', (text, max, want) => expect(clip(text, max)).toBe(want));
});
