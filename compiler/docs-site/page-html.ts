/**
 * HTML fragments the compiler precomputes: one sidebar per distinct sidebar, and per page the
 * `<main>` region (breadcrumbs, page controls, article, last updated, edit link, prev/next)
 * plus the outline. Links are root-relative; the server prefixes BasePath and wraps the layout.
 */
import type { DocsHeading } from '../../runtime/contract/docs-site.js';
import { pageUrlPath } from '../../runtime/contract/docs-search.js';
import { escapeHtml as e } from './escape.js';
import type { SiteFile } from './config.js';
import type { Feature, Hero } from './page-source.js';
import { isExternal, type Crumb, type NavNode } from './nav.js';

/** A nav entry's URL: external as written, a page (always a known page path) percent-encoded where URLs need it. */
const href = (path: string): string => (isExternal(path) ? path : `/${pageUrlPath(path)}`);

function navItems(nodes: readonly NavNode[]): string {
  return nodes
    .map((n) => {
      if (n.items) {
        const inner = `<ul>${navItems(n.items)}</ul>`;
        if (n.collapsed === undefined) return `<li class="group"><p class="group-title">${e(n.title)}</p>${inner}</li>`;
        return `<li class="group"><details${n.collapsed ? '' : ' open'}><summary>${e(n.title)}</summary>${inner}</details></li>`;
      }
      const path = n.path ?? '';
      const ext = isExternal(path) ? ' target="_blank" rel="noopener noreferrer"' : '';
      return `<li><a href="${e(href(path))}"${ext}>${e(n.title)}</a></li>`;
    })
    .join('');
}

export function renderSidebar(nodes: readonly NavNode[]): string {
  return `<nav class="sidebar-nav" aria-label="Sidebar"><ul>${navItems(nodes)}</ul></nav>\n`;
}

export interface PageFragmentInput {
  readonly path: string;
  readonly file: string;
  readonly html: string;
  readonly headings: readonly DocsHeading[];
  readonly crumbs: readonly Crumb[];
  readonly prev: NavNode | null;
  readonly next: NavNode | null;
  readonly lastModified: string;
  readonly showToc: boolean;
  readonly showLastUpdated: boolean;
  /** Front matter `pagination` (false hides prev/next). */
  readonly showPager: boolean;
  readonly layout: string;
  readonly hero: Hero | null;
  readonly features: readonly Feature[];
}

const linkHref = (link: string): string => (isExternal(link) || link.startsWith('/') || link.startsWith('#') ? link : `/${link}`);

/** `layout: home`: the hero (name, text, tagline, action buttons) and the features grid. */
export function renderHome(hero: Hero | null, features: readonly Feature[]): string {
  const parts: string[] = [];
  if (hero) {
    const actions = hero.actions
      .map((a) => {
        const ext = isExternal(a.link) ? ' target="_blank" rel="noopener noreferrer"' : '';
        return `<a class="hero-action ${a.theme}" href="${e(linkHref(a.link))}"${ext}>${e(a.text)}</a>`;
      })
      .join('');
    parts.push(
      '<section class="hero">' +
        (hero.name ? `<h1 class="hero-name">${e(hero.name)}</h1>` : '') +
        (hero.text ? `<p class="hero-text">${e(hero.text)}</p>` : '') +
        (hero.tagline ? `<p class="hero-tagline">${e(hero.tagline)}</p>` : '') +
        (actions ? `<div class="hero-actions">${actions}</div>` : '') +
        '</section>',
    );
  }
  if (features.length > 0) {
    const items = features
      .map((f) => `<div class="feature">${f.icon ? `<span class="feature-icon" aria-hidden="true">${e(f.icon)}</span>` : ''}<h2>${e(f.title)}</h2>${f.details ? `<p>${e(f.details)}</p>` : ''}</div>`)
      .join('');
    parts.push(`<section class="features">${items}</section>`);
  }
  return parts.join('\n');
}

const EDIT_ICON =
  '<svg aria-hidden="true" width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><path d="M12 20h9"/><path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z"/></svg>';

function controls(site: SiteFile, page: PageFragmentInput, editUrl: string | null): string {
  const parts: string[] = [];
  const pc = site.pageControls;
  if (pc.downloadMarkdown) {
    parts.push(`<a class="control" href="/raw/${e(pageUrlPath(page.path))}.md" data-copy-raw>Copy page</a>`);
    parts.push(`<a class="control" href="/raw/${e(pageUrlPath(page.path))}.md?view=true">View as Markdown</a>`);
  }
  if (pc.subscribeRss) parts.push(`<a class="control" href="/feed.xml" data-copy-link>Copy feed URL</a>`);
  if (pc.editLink && editUrl) {
    const icon = pc.editLink.icon ? EDIT_ICON : '';
    parts.push(`<a class="control" href="${e(editUrl)}" target="_blank" rel="noopener noreferrer">${icon}${e(pc.editLink.label)}</a>`);
  }
  return parts.length ? `<div class="page-controls">${parts.join('')}</div>` : '';
}

function pagerLink(node: NavNode | null, rel: 'prev' | 'next'): string {
  if (!node?.path) return '<span></span>';
  const label = rel === 'prev' ? 'Previous' : 'Next';
  return `<a class="pager-${rel}" rel="${rel}" href="${e(href(node.path))}"><span class="pager-label">${label}</span><span class="pager-title">${e(node.title)}</span></a>`;
}

export function renderPageFragment(site: SiteFile, page: PageFragmentInput): string {
  const editUrl = site.editLink ? site.editLink.pattern.replace(/:path/g, page.file) : null;
  const crumbs = page.crumbs
    .map((c, i) =>
      i === page.crumbs.length - 1
        ? `<li aria-current="page">${e(c.title)}</li>`
        : c.path !== null ? `<li><a href="${e(href(c.path))}">${e(c.title)}</a></li>` : `<li>${e(c.title)}</li>`,
    )
    .join('');
  const homeCrumb = page.path === 'index' ? '' : '<li><a href="/">Home</a></li>';
  const meta: string[] = [];
  if (page.showLastUpdated && page.lastModified) {
    meta.push(`<p class="last-updated">Last updated: <time datetime="${e(page.lastModified)}">${page.lastModified.slice(0, 10)}</time></p>`);
  }
  if (site.editLink && editUrl) {
    meta.push(`<a class="edit-link" href="${e(editUrl)}" target="_blank" rel="noopener noreferrer">${e(site.editLink.text)}</a>`);
  }
  const toc = page.headings.filter((h) => h.level === 2 || h.level === 3);
  const outline =
    page.showToc && toc.length > 0
      ? `<aside class="toc"><nav aria-label="On this page"><p class="toc-title">On this page</p><ul>${toc
          .map((h) => `<li class="toc-h${h.level}"><a href="#${e(h.id)}">${e(h.text)}</a></li>`)
          .join('')}</ul></nav></aside>`
      : '';
  const home = page.layout === 'home';
  return [
    home ? '<main class="content home" id="main">' : '<main class="content" id="main">',
    home ? renderHome(page.hero, page.features) : '',
    home ? '' : `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${homeCrumb}${crumbs}</ol></nav>`,
    controls(site, page, editUrl),
    `<article class="doc">\n${page.html}</article>`,
    meta.length ? `<footer class="page-meta">${meta.join('')}</footer>` : '',
    page.showPager && (page.prev || page.next) ? `<nav class="pager" aria-label="Previous and next page">${pagerLink(page.prev, 'prev')}${pagerLink(page.next, 'next')}</nav>` : '',
    '</main>',
    outline,
  ]
    .filter(Boolean)
    .join('\n') + '\n';
}
