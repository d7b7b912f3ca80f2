import { describe, expect, it } from 'vitest';
import { mathPlugin } from './math.js';
import { renderWith } from './plugin-harness.js';

describe('math plugin', () => {
  it.each<[string, string, boolean]>([
    ['inline', 'Area $\\pi r^2$ here.', true],
    ['display block', '$$\nE = mc^2\n$$', true],
    ['display on one line', '$$ a + b $$', true],
    ['prices stay text', 'costs $5 and $6 today', false],
    ['space after opening $ stays text', 'a $ b$ c', false],
    ['escaped dollar', 'a \\$b$ c', false],
  ])('%s', (_name, source, math) => {
    const { html, env } = renderWith(mathPlugin, source);
    expect(html.includes('class="katex"')).toBe(math);
    expect(env.usesMath).toBe(math);
    expect(env.problems).toEqual([]);
  });

  it('renders display math in a block with MathML', () => {
    const { html } = renderWith(mathPlugin, 'Text\n\n$$\nx^2\n$$\n\nAfter');
    expect(html).toMatch(/^<p>Text<\/p>\n<div class="math-display"><span class="katex-display"><span class="katex"><span class="katex-mathml"><math/);
    expect(html).toContain('<p>After</p>');
  });

  it('reports formulas that do not parse with their line', () => {
    const { html, env } = renderWith(mathPlugin, 'a\n\n$$\n\\frac{1}{\n$$\n\ntext\nmore $\\sqrt{$ here');
    expect(html).toContain('katex-error');
    expect(env.problems.map((p) => [p.code, p.line])).toEqual([['docs-math', 3], ['docs-math', 7]]);
  });
});
