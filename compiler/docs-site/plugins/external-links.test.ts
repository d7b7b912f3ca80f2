import { describe, expect, it } from 'vitest';
import { externalLinksPlugin } from './external-links.js';
import { renderWith } from './plugin-harness.js';

describe('external links plugin', () => {
  it.each([
    ['[x](https://example.com)', '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a></p>\n'],
    ['[x](//cdn.example.com)', '<p><a href="//cdn.example.com" target="_blank" rel="noopener noreferrer">x</a></p>\n'],
    ['[x](/local)', '<p><a href="/local">x</a></p>\n'],
    ['[x](#top)', '<p><a href="#top">x</a></p>\n'],
  ])('%s', (source, want) => expect(renderWith(externalLinksPlugin, source).html).toBe(want));
});
