/**
 * The built-in Content-Security-Policy: scripts only from our origin plus a per-response nonce
 * when the site file's head has inline `<script>` tags (they carry `nonce="…"`; the server fills
 * in a fresh value for every response) and the origins of external head scripts;
 * styles from our origin plus inline style attributes (shiki colours code tokens with them);
 * no plugins, no framing, no foreign form targets. `Docs:ContentSecurityPolicy` replaces it.
 * A static export's page carries the policy as a meta tag (metaPolicyTag).
 */
import { randomBytes } from 'node:crypto';
import type { DocsHeadTag } from '../contract/docs-site.js';
import { escapeHtml } from './escape.js';

function originOf(url: string | undefined): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Written into the nonce attribute of inline scripts at render time, replaced per response. */
export const NONCE_PLACEHOLDER = '__WHARF_NONCE__';
export const nonceAttribute = (nonce: string): string => `nonce="${nonce}"`;

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function hasInlineScript(head: readonly DocsHeadTag[]): boolean {
  return head.some((tag) => tag.tag === 'script' && !tag.attrs['src'] && !!tag.content);
}

/** `nonce` is the value for this response (null when the page has no inline script). */
export function builtInCsp(head: readonly DocsHeadTag[], customCssUrl: string | null, nonce: string | null = null): string {
  const scripts = new Set<string>(["'self'"]);
  const styles = new Set<string>(["'self'", "'unsafe-inline'"]);
  for (const tag of head) {
    if (tag.tag === 'script') {
      const origin = originOf(tag.attrs['src']);
      if (origin) scripts.add(origin);
      else if (tag.content && nonce) scripts.add(`'nonce-${nonce}'`);
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

/**
 * An SVG of the docs folder opened on its own is a document that can run script and submit forms in
 * the site's origin: it gets no script, no connection, inline styles only, and a sandbox (an opaque
 * origin, no forms, no top navigation). An SVG shown as `<img>` never runs script and ignores this header.
 */
export const SVG_ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The same policy for a page of the static export, as a `<meta>` (a file server sends no header): without `frame-ancestors`, which a meta policy cannot carry. */
export function metaPolicyTag(policy: string): string {
  const kept = policy.split(';').map((d) => d.trim()).filter((d) => d !== '' && !/^frame-ancestors\b/i.test(d)).join('; ');
  return `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(kept)}">`;
}
