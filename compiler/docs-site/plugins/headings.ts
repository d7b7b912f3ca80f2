/**
 * Heading ids, permalinks and the table of contents: markdown-it-anchor gives every heading a
 * unique slug id; a core rule after it collects `{level,id,text}` into `env.headings`.
 */
import type { MarkdownIt } from 'markdown-it';
import anchor from 'markdown-it-anchor';
import type { DocsRenderEnv } from './env.js';

export function slugify(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

export function headingsPlugin(md: MarkdownIt): void {
  md.use(anchor, {
    slugify,
    level: [1, 2, 3, 4],
    permalink: anchor.permalink.linkInsideHeader({ symbol: '#', placement: 'before', ariaHidden: true }),
  });
  md.core.ruler.push('wharf_collect_headings', (state) => {
    const env = state.env as Partial<DocsRenderEnv>;
    if (!Array.isArray(env.headings)) return;
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const open = tokens[i];
      if (open?.type !== 'heading_open') continue;
      const inline = tokens[i + 1];
      const attr = open.attrGet('id');
      const id = attr === null ? null : String(attr);
      if (!inline || !id) continue;
      const text = (inline.children ?? [])
        .filter((t) => t.type === 'text' || t.type === 'code_inline')
        .map((t) => t.content)
        .join('')
        .trim();
      env.headings.push({ level: Number(open.tag.slice(1)), id, text });
    }
  });
}
