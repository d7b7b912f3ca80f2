/**
 * ```` ```mermaid ```` blocks become `<pre class="mermaid">` with the diagram source as escaped
 * text; the page then loads the bundled Mermaid script (/_wharf/mermaid.js), which draws them
 * in the browser. Every other fence goes to the renderer that was there before (highlighting).
 */
import type { MarkdownIt } from 'markdown-it';
import type { DocsRenderEnv } from './env.js';

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function diagramsPlugin(md: MarkdownIt): void {
  const fallback = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, idx, options, envIn, self) => {
    const env = (envIn ?? {}) as Partial<DocsRenderEnv>;
    const token = tokens[idx];
    if (token && token.info.trim().split(/\s+/)[0]?.toLowerCase() === 'mermaid') {
      if (env.usesMermaid !== undefined) env.usesMermaid = true;
      return `<pre class="mermaid">${escapeHtml(token.content)}</pre>\n`;
    }
    return fallback ? fallback(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
}
