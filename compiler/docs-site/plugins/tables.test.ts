import { describe, expect, it } from 'vitest';
import { tablesPlugin } from './tables.js';
import { renderWith } from './plugin-harness.js';

describe('tables plugin', () => {
  it('wraps tables in a scroll box', () => {
    const { html } = renderWith(tablesPlugin, '| a |\n|---|\n| 1 |\n');
    expect(html.startsWith('<div class="table-wrap"><table>')).toBe(true);
    expect(html.trimEnd().endsWith('</table>\n</div>')).toBe(true);
  });

  it('leaves other blocks alone', () => {
    expect(renderWith(tablesPlugin, 'text').html).toBe('<p>text</p>\n');
  });
});
