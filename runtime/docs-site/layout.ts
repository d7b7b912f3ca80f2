/**
 * The HTML document around a precompiled page: head (title from the template, description,
 * favicon, styles, RSS alternate, site-file head tags), top bar, sidebar, the page fragment,
 * footer, scripts. BasePath is applied here to every root-relative href/src.
 */
import type { DocsHeadTag, DocsSiteConfig } from '../contract/docs-site.js';
import { escapeHtml as e } from './escape.js';
import { renderHeader } from './header.js';
import type { ResolvedTheme } from './theme.js';
import { NONCE_PLACEHOLDER, nonceAttribute } from './csp.js';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

export interface LayoutContext {
  readonly config: DocsSiteConfig;
  readonly theme: ResolvedTheme;
  readonly basePath: string;
  readonly mode: 'server' | 'static';
  readonly hotReload: boolean;
  /** Build version the page belongs to; the hot-reload poller compares against it. */
  readonly buildVersion: number;
}

export interface LayoutPage {
  readonly title: string;
  readonly description: string | null;
  readonly sidebar: string;
  readonly fragment: string;
  /** Math pages link the KaTeX stylesheet; diagram pages load Mermaid. */
  readonly uses?: { readonly math: boolean; readonly mermaid: boolean };
}

/** Prefix root-relative `href="/…"` and `src="/…"` (not `//host`) with BasePath. */
export function withBase(html: string, basePath: string): string {
  return basePath === '' ? html : html.replace(/((?:href|src)=")\/(?!\/)/g, `$1${basePath}/`);
}

export function brandOf(config: DocsSiteConfig, theme: ResolvedTheme): string {
  return config.brand ?? config.title ?? theme.brandText ?? 'Docs';
}

export function pageTitle(config: DocsSiteConfig, title: string): string {
  const site = config.title ?? config.brand;
  if (!site || title === site) return title;
  return config.titleTemplate.replace(/:title/g, title).replace(/:siteName/g, site);
}

export function renderHeadTag(tag: DocsHeadTag): string {
  const attrs = Object.entries(tag.attrs)
    .map(([k, v]) => ` ${k}="${e(v)}"`)
    .join('');
  if (VOID.has(tag.tag)) return `<${tag.tag}${attrs}>`;
  const content = tag.content ?? '';
  const inner = tag.tag === 'script' || tag.tag === 'style' ? content : e(content);
  const nonce = tag.tag === 'script' && !tag.attrs['src'] && content ? ` ${nonceAttribute(NONCE_PLACEHOLDER)}` : '';
  return `<${tag.tag}${attrs}${nonce}>${inner}</${tag.tag}>`;
}

function favicon(value: string | null): string {
  if (!value) return '';
  if ([...new Intl.Segmenter().segment(value)].length === 1 && !/^[\w./:-]$/.test(value)) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${value}</text></svg>`;
    return `<link rel="icon" href="data:image/svg+xml,${encodeURIComponent(svg)}">`;
  }
  return `<link rel="icon" href="${e(value)}">`;
}

export function renderDocument(ctx: LayoutContext, page: LayoutPage): string {
  const { config, theme } = ctx;
  const brand = brandOf(config, theme);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(pageTitle(config, page.title))}</title>`,
    page.description || config.description ? `<meta name="description" content="${e(page.description || config.description || '')}">` : '',
    favicon(config.favicon),
    '<link rel="stylesheet" href="/_wharf/docs.css">',
    page.uses?.math ? '<link rel="stylesheet" href="/_wharf/katex/katex.min.css">' : '',
    theme.builtIn ? `<link rel="stylesheet" href="/_wharf/themes/${theme.builtIn}.css">` : '',
    theme.css ? '<link rel="stylesheet" href="/_wharf/theme.css">' : '',
    theme.customCssUrl ? `<link rel="stylesheet" href="${e(theme.customCssUrl)}">` : '',
    config.pageControls.subscribeRss ? `<link rel="alternate" type="application/rss+xml" title="${e(brand)}" href="/feed.xml">` : '',
    ...config.head.map(renderHeadTag),
    page.uses?.mermaid ? '<script src="/_wharf/mermaid.js" defer></script>' : '',
    '<script src="/_wharf/client.js" defer></script>',
  ].filter(Boolean);
  const body = [
    `<body data-base="${e(ctx.basePath)}" data-mode="${ctx.mode}" data-hot-reload="${String(ctx.hotReload)}"${ctx.hotReload ? ` data-build-version="${ctx.buildVersion}"` : ''} data-dark-mode="${String(theme.darkMode)}">`,
    '<a class="skip-link" href="#main">Skip to content</a>',
    theme.showScrollIndicator ? '<div class="scroll-indicator" id="scroll-indicator" aria-hidden="true"></div>' : '',
    renderHeader(config, brand, theme.darkMode),
    `<div class="layout"><aside class="sidebar" id="sidebar">${page.sidebar}</aside>${page.fragment}</div>`,
    config.footerHtml ? `<footer class="site-footer">${config.footerHtml}</footer>` : '',
    theme.customJs !== null ? '<script src="/theme/custom.js"></script>' : '',
    '</body>',
  ].filter(Boolean);
  const html = `<!doctype html>\n<html lang="${e(config.lang)}">\n<head>\n${head.join('\n')}\n</head>\n${body.join('\n')}\n</html>\n`;
  return withBase(html, ctx.basePath);
}

export function notFoundFragment(): string {
  return '<main class="content" id="main"><article class="doc"><h1>Page not found</h1><p>There is no page at this address.</p><p><a href="/">Go to the start page</a></p></article></main>';
}
