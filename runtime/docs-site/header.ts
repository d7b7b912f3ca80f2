/** The top bar: brand, search box, topNav (links or dropdowns), social links, dark-mode toggle. */
import type { DocsSiteConfig, DocsSocialLink, DocsTopNavItem } from '../contract/docs-site.js';
import { escapeHtml as e } from './escape.js';

const ICONS: Readonly<Record<string, string>> = {
  github:
    '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor"><path d="M12 .5a11.5 11.5 0 0 0-3.64 22.41c.58.1.79-.25.79-.56v-2c-3.2.7-3.88-1.37-3.88-1.37-.52-1.34-1.28-1.7-1.28-1.7-1.05-.71.08-.7.08-.7 1.16.08 1.77 1.19 1.77 1.19 1.03 1.77 2.7 1.26 3.36.96.1-.75.4-1.26.73-1.55-2.56-.29-5.25-1.28-5.25-5.7 0-1.26.45-2.29 1.19-3.1-.12-.29-.52-1.46.11-3.05 0 0 .97-.31 3.17 1.18a11 11 0 0 1 5.77 0c2.2-1.49 3.17-1.18 3.17-1.18.63 1.59.23 2.76.11 3.05.74.81 1.19 1.84 1.19 3.1 0 4.43-2.7 5.4-5.26 5.69.41.36.78 1.06.78 2.14v3.17c0 .31.21.67.8.56A11.5 11.5 0 0 0 12 .5Z"/></svg>',
  mastodon:
    '<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor"><path d="M23.27 5.31C22.9 2.55 20.49.4 17.63 0 17.14-.08 15.3-.33 11.04-.33h-.03C6.75-.33 5.84-.08 5.36 0 2.58.4.03 2.36-.34 5.16c-.18 1.36-.21 2.87-.18 4.25.05 1.98.06 3.96.24 5.93.13 1.32.35 2.62.65 3.9.58 2.36 2.9 4.33 5.19 5.13 2.44.83 5.07.97 7.58.4.28-.07.55-.14.83-.23.61-.2 1.33-.42 1.86-.8a.06.06 0 0 0 .02-.04v-1.9a.06.06 0 0 0-.07-.05c-1.61.38-3.26.57-4.92.57-2.85 0-3.62-1.35-3.84-1.91a5.9 5.9 0 0 1-.33-1.49.05.05 0 0 1 .07-.05c1.59.38 3.21.57 4.84.57.39 0 .78 0 1.17-.01 1.64-.05 3.37-.13 4.98-.45l.11-.02c2.55-.49 4.97-2.01 5.22-5.86l.03-.56c0-.52.18-3.68-.03-5.62ZM19.4 14.7h-2.66V8.2c0-1.37-.57-2.07-1.73-2.07-1.27 0-1.91.83-1.91 2.46v3.55H10.5V8.59c0-1.63-.64-2.46-1.91-2.46-1.15 0-1.73.7-1.73 2.07v6.5H4.2V8.01c0-1.37.35-2.46 1.05-3.27.72-.8 1.67-1.22 2.85-1.22 1.36 0 2.4.52 3.08 1.57l.66 1.11.66-1.11c.68-1.05 1.72-1.57 3.08-1.57 1.17 0 2.12.41 2.85 1.22.7.81 1.05 1.9 1.05 3.27Z"/></svg>',
};

function topNavItem(item: DocsTopNavItem): string {
  if (item.items) {
    return `<details class="topnav-menu"><summary>${e(item.text)}</summary><ul>${item.items
      .map((c) => `<li>${topNavItem(c)}</li>`)
      .join('')}</ul></details>`;
  }
  const link = item.link ?? '#';
  const ext = /^https?:\/\//i.test(link) ? ' target="_blank" rel="noopener noreferrer"' : '';
  return `<a href="${e(link)}"${ext}>${e(item.text)}</a>`;
}

function social(link: DocsSocialLink): string {
  const icon = ICONS[link.icon.toLowerCase()] ?? e(link.icon);
  const label = e(link.title ?? link.icon);
  return `<a class="social" href="${e(link.url)}" target="_blank" rel="noopener noreferrer" aria-label="${label}" title="${label}">${icon}</a>`;
}

export function renderHeader(config: DocsSiteConfig, brand: string, darkMode: boolean): string {
  const image = config.brandImage ? `<img class="brand-image" src="${e(config.brandImage)}" alt="" height="28">` : '';
  const nav = config.topNav.length ? `<nav class="topnav" aria-label="Main">${config.topNav.map(topNavItem).join('')}</nav>` : '';
  const socials = config.socialLinks.length ? `<div class="socials">${config.socialLinks.map(social).join('')}</div>` : '';
  const toggle = darkMode
    ? '<button type="button" class="theme-toggle" id="theme-toggle" aria-label="Toggle dark mode" title="Toggle dark mode"><span class="icon-sun" aria-hidden="true">☀</span><span class="icon-moon" aria-hidden="true">☾</span></button>'
    : '';
  return [
    '<header class="topbar">',
    '<button type="button" class="menu-toggle" id="menu-toggle" aria-label="Menu" aria-controls="sidebar" aria-expanded="false">☰</button>',
    `<a class="brand" href="/">${image}<span>${e(brand)}</span></a>`,
    '<div class="search" role="search"><input type="search" id="search-input" placeholder="Search docs" aria-label="Search docs" autocomplete="off"><div class="search-results" id="search-results" hidden></div></div>',
    nav,
    socials,
    toggle,
    '</header>',
  ].join('');
}
