/** Links to other origins open in a new tab without handing over `window.opener`. */
import type { MarkdownIt } from 'markdown-it';

export function externalLinksPlugin(md: MarkdownIt): void {
  md.core.ruler.push('wharf_external_links', (state) => {
    for (const block of state.tokens) {
      for (const token of block.children ?? []) {
        if (token.type !== 'link_open') continue;
        const href = String(token.attrGet('href') ?? '');
        if (!/^(https?:)?\/\//i.test(href)) continue;
        token.attrSet('target', '_blank');
        token.attrSet('rel', 'noopener noreferrer');
      }
    }
  });
}
