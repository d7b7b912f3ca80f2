import { describe, expect, it } from 'vitest';
import { refusedScheme } from './link-scheme.js';

describe('refusedScheme', () => {
  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['JAVASCRIPT:alert(1)', 'javascript'],
    ['java\tscript:alert(1)', 'javascript'],
    ['java\nscript:alert(1)', 'javascript'],
    ['  \u0000\u001fjavascript:alert(1)', 'javascript'],
    ['vbscript:msgbox(1)', 'vbscript'],
    ['data:text/html,x', 'data'],
    ['file:///etc/passwd', 'file'],
  ])('%j is refused (%s)', (url, scheme) => {
    expect(refusedScheme(url)).toBe(scheme);
  });

  it.each(['https://example.com/a', 'http://x', 'mailto:a@example.com', 'tel:+1', '/guide', 'guide/intro', './a.md', '#part', '', 'javascript', '/javascript:x', '\u00a0javascript:x'])(
    '%j may be written',
    (url) => {
      expect(refusedScheme(url)).toBeNull();
    },
  );
});
