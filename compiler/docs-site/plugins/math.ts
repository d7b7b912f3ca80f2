/**
 * Math rendered at build time with KaTeX (HTML + MathML; the page then only needs the KaTeX
 * stylesheet and fonts, served from /_wharf/katex/, no script):
 *   inline  `$a^2$`: no space after the opening or before the closing `$`, and no digit right
 *           after the closing one, so `costs $5 and $6` stays text; `\$` is a literal dollar.
 *   display `$$ … $$` on its own lines (or on one line).
 * A formula KaTeX cannot parse is reported in `env.problems` and shown as KaTeX's red error text.
 */
import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';
import type { DocsRenderEnv } from './env.js';

function render(tex: string, displayMode: boolean, env: Partial<DocsRenderEnv>, line: number): string {
  if (env.usesMath !== undefined) env.usesMath = true;
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true, output: 'htmlAndMathml' });
  } catch (error) {
    env.problems?.push({ code: 'docs-math', line, message: `formula ${JSON.stringify(tex.length > 40 ? tex.slice(0, 40) + '…' : tex)} does not parse: ${(error as Error).message}` });
    return katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
  }
}

export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', (state, silent) => {
    const src = state.src;
    const start = state.pos;
    if (src.charCodeAt(start) !== 0x24 /* $ */ || src.charCodeAt(start + 1) === 0x24) return false;
    const first = src[start + 1];
    if (first === undefined || /\s/.test(first)) return false;
    let end = start + 1;
    for (;;) {
      end = src.indexOf('$', end);
      if (end < 0) return false;
      if (src[end - 1] !== '\\') break;
      end += 1;
    }
    if (/\s/.test(src[end - 1] ?? ' ') || /\d/.test(src[end + 1] ?? '')) return false;
    if (!silent) {
      const token = state.push('math_inline', 'math', 0);
      token.content = src.slice(start + 1, end);
      token.markup = '$';
    }
    state.pos = end + 1;
    return true;
  });

  md.block.ruler.before('fence', 'math_block', (state, startLine, endLine, silent) => {
    const lineStart = (n: number): number => (state.bMarks[n] ?? 0) + (state.tShift[n] ?? 0);
    const lineText = (n: number): string => state.src.slice(lineStart(n), state.eMarks[n]);
    const first = lineText(startLine);
    if (!first.startsWith('$$') || (state.sCount[startLine] ?? 0) - state.blkIndent >= 4) return false;
    const rest = first.slice(2);
    let content: string;
    let last = startLine;
    if (rest.trimEnd().endsWith('$$') && rest.trim().length > 2) {
      content = rest.trimEnd().slice(0, -2);
    } else {
      const lines = rest.trim() ? [rest] : [];
      let found = false;
      for (let n = startLine + 1; n < endLine; n++) {
        const text = lineText(n);
        if (text.trimEnd().endsWith('$$')) {
          lines.push(text.trimEnd().slice(0, -2));
          last = n;
          found = true;
          break;
        }
        lines.push(text);
      }
      if (!found) return false;
      content = lines.join('\n');
    }
    if (silent) return true;
    const token = state.push('math_block', 'math', 0);
    token.block = true;
    token.content = content.trim();
    token.map = [startLine, last + 1];
    token.markup = '$$';
    state.line = last + 1;
    return true;
  });

  // Inline tokens have no line of their own: give them their paragraph's, for the diagnostics.
  md.core.ruler.push('math_lines', (state) => {
    for (const block of state.tokens) {
      if (block.type !== 'inline' || !block.map) continue;
      for (const child of block.children ?? []) if (child.type === 'math_inline') child.map = block.map;
    }
  });

  md.renderer.rules['math_inline'] = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    return token ? render(token.content, false, (env ?? {}) as Partial<DocsRenderEnv>, (token.map?.[0] ?? -1) + 1) : '';
  };
  md.renderer.rules['math_block'] = (tokens, idx, _options, env) => {
    const token = tokens[idx];
    return token ? `<div class="math-display">${render(token.content, true, (env ?? {}) as Partial<DocsRenderEnv>, (token.map?.[0] ?? -1) + 1)}</div>\n` : '';
  };
}
