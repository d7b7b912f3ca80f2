import { describe, expect, it } from 'vitest';
import { headingsPlugin, slugify } from './headings.js';
import { renderWith } from './plugin-harness.js';

describe('slugify', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['  Déjà vu!  ', 'deja-vu'],
    ['Docs:BasePath & more', 'docsbasepath-more'],
    ['snake_case  words', 'snake-case-words'],
  ])('%s -> %s', (text, want) => expect(slugify(text)).toBe(want));
});

describe('headings plugin', () => {
  it('gives headings unique ids with a permalink and collects the outline', () => {
    const { html, env } = renderWith(headingsPlugin, '# Title\n\n## Setup\n\n### The `port` option\n\n## Setup\n');
    expect(html).toContain('<h2 id="setup" tabindex="-1"><a class="header-anchor" href="#setup" aria-hidden="true">#</a> Setup</h2>');
    expect(env.headings).toEqual([
      { level: 1, id: 'title', text: 'Title' },
      { level: 2, id: 'setup', text: 'Setup' },
      { level: 3, id: 'the-port-option', text: 'The port option' },
      { level: 2, id: 'setup-1', text: 'Setup' },
    ]);
  });
});
