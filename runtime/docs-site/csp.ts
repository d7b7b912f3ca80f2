/**
 * The built-in Content-Security-Policy: scripts only from our origin plus the SHA-256 hash of
 * each inline `<script>` head tag from the site file and the origins of external head scripts;
 * styles from our origin plus inline style attributes (shiki colours code tokens with them);
 * no plugins, no framing, no foreign form targets. `Docs:ContentSecurityPolicy` replaces it.
 */
import { createHash } from 'node:crypto';
import type { DocsHeadTag } from '../contract/docs-site.js';

function originOf(url: string | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

export function builtInCsp(head: readonly DocsHeadTag[], customCssUrl: string | null): string {
  const scripts = new Set<string>(["'self'"]);
  const styles = new Set<string>(["'self'", "'unsafe-inline'"]);
  for (const tag of head) {
    if (tag.tag === 'script') {
      const origin = originOf(tag.attrs['src']);
      if (origin) scripts.add(origin);
      else if (tag.content) scripts.add(`'sha256-${createHash('sha256').update(tag.content).digest('base64')}'`);
    }
    if (tag.tag === 'link' && /stylesheet/i.test(tag.attrs['rel'] ?? '')) {
      const origin = originOf(tag.attrs['href']);
      if (origin) styles.add(origin);
    }
  }
  const cssOrigin = originOf(customCssUrl ?? undefined);
  if (cssOrigin) styles.add(cssOrigin);
  return [
    "default-src 'self'",
    `script-src ${[...scripts].join(' ')}`,
    `style-src ${[...styles].join(' ')}`,
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
