import { describe, expect, it } from 'vitest';
import { alertsPlugin } from './alerts.js';
import { renderWith } from './plugin-harness.js';

describe('alerts plugin', () => {
  it.each([
    ['> [!NOTE]\n> Read this.', '<div class="alert alert-note"><p class="alert-title">Note</p>\n<p>Read this.</p>\n</div>\n'],
    ['> [!warning] Careful now.', '<div class="alert alert-warning"><p class="alert-title">Warning</p>\n<p>Careful now.</p>\n</div>\n'],
    ['> [!UNKNOWN]\n> x', '<blockquote>\n<p>[!UNKNOWN]\nx</p>\n</blockquote>\n'],
    ['> plain quote', '<blockquote>\n<p>plain quote</p>\n</blockquote>\n'],
  ])('%j', (source, want) => expect(renderWith(alertsPlugin, source).html).toBe(want));
});
