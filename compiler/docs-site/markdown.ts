/**
 * The Markdown renderer: markdown-it with `html: false` (raw HTML in Markdown is escaped, never
 * executed) plus one plugin per file in plugins/.
 */
import MarkdownItCtor, { type MarkdownIt } from 'markdown-it';
import type { HighlighterCore } from 'shiki/core';
import { headingsPlugin } from './plugins/headings.js';
import { linksPlugin } from './plugins/links.js';
import { externalLinksPlugin } from './plugins/external-links.js';
import { tablesPlugin } from './plugins/tables.js';
import { highlightPlugin } from './plugins/highlight.js';
import { alertsPlugin } from './plugins/alerts.js';
import { mathPlugin } from './plugins/math.js';
import { diagramsPlugin } from './plugins/diagrams.js';

export function createMarkdown(highlighter: HighlighterCore): MarkdownIt {
  const md = new MarkdownItCtor({ html: false, linkify: true, typographer: false });
  md.use(headingsPlugin);
  md.use(linksPlugin);
  md.use(externalLinksPlugin);
  md.use(tablesPlugin);
  md.use(alertsPlugin);
  md.use(mathPlugin);
  highlightPlugin(md, highlighter);
  md.use(diagramsPlugin);
  return md;
}
