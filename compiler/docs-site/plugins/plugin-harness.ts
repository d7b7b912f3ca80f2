/** Test helper: a bare markdown-it with one plugin, rendering with a fresh env. */
import MarkdownItCtor, { type MarkdownIt } from 'markdown-it';
import { createRenderEnv, type DocsRenderEnv } from './env.js';

export function renderWith(plugin: (md: MarkdownIt) => void, source: string, file = 'page.md', known: string[] = [], assets: string[] | null = null): { html: string; env: DocsRenderEnv } {
  const md = new MarkdownItCtor({ html: false });
  md.use(plugin);
  const env = createRenderEnv(file, new Set(known), assets ? new Set(assets) : null);
  return { html: md.render(source, env), env };
}
