import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { builtInCsp } from './csp.js';

describe('builtInCsp', () => {
  it('allows only self scripts by default', () => {
    expect(builtInCsp([], null)).toContain("script-src 'self'; style-src 'self' 'unsafe-inline';");
  });

  it('adds the hash of inline head scripts and origins of external ones', () => {
    const inline = 'window.x = 1;';
    const hash = createHash('sha256').update(inline).digest('base64');
    const csp = builtInCsp(
      [
        { tag: 'script', attrs: {}, content: inline },
        { tag: 'script', attrs: { src: 'https://stats.example.com/s.js' }, content: null },
        { tag: 'link', attrs: { rel: 'stylesheet', href: 'https://fonts.example.com/f.css' }, content: null },
      ],
      null,
    );
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}' https://stats.example.com;`);
    expect(csp).toContain("style-src 'self' 'unsafe-inline' https://fonts.example.com;");
  });
});
