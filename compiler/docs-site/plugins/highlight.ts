/**
 * Code blocks highlighted at build time with shiki (offline: grammars are bundled JS).
 * One highlighter per process, created on first use with the Oniguruma (WASM) engine (~100 ms
 * once, the reference TextMate semantics). Tokenizing has no time limit, so output is the same
 * on a loaded machine (generated/ must be byte-stable). Results are cached by SHA-256 of (lang, code) so a hot-reload rebuild
 * only pays the ~47 ms/doc highlight cost for blocks that changed.
 * Dual theme: light colours inline, dark colours as `--shiki-dark` variables used by the CSS.
 */
import type { MarkdownIt } from 'markdown-it';
import { createHash } from 'node:crypto';
import { createHighlighterCore, type HighlighterCore } from 'shiki/core';
import { createOnigurumaEngine } from 'shiki/engine/oniguruma';

const LANGS = [
  import('shiki/langs/typescript.mjs'),
  import('shiki/langs/javascript.mjs'),
  import('shiki/langs/json.mjs'),
  import('shiki/langs/jsonc.mjs'),
  import('shiki/langs/shellscript.mjs'),
  import('shiki/langs/sql.mjs'),
  import('shiki/langs/yaml.mjs'),
  import('shiki/langs/http.mjs'),
  import('shiki/langs/diff.mjs'),
  import('shiki/langs/xml.mjs'),
  import('shiki/langs/html.mjs'),
  import('shiki/langs/css.mjs'),
  import('shiki/langs/markdown.mjs'),
];

let highlighter: Promise<HighlighterCore> | null = null;
const cache = new Map<string, string>();

export function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
    langs: LANGS,
    engine: createOnigurumaEngine(import('shiki/wasm')),
  });
  return highlighter;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function highlightCode(hl: HighlighterCore, code: string, lang: string): string {
  const key = createHash('sha256').update(lang).update('\0').update(code).digest('hex');
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const known = lang !== '' && hl.getLoadedLanguages().includes(lang);
  const html = known
    ? hl.codeToHtml(code, {
        lang,
        themes: { light: 'github-light', dark: 'github-dark' },
        defaultColor: 'light',
        // No time limit: under load the first tokenization (regex compilation) can pass
        // shiki's 500 ms default, which silently leaves the rest of a line uncoloured.
        tokenizeTimeLimit: 0,
      })
    : `<pre class="shiki plain"><code>${escapeHtml(code)}</code></pre>`;
  const wrapped = `<div class="code-block" data-lang="${escapeHtml(lang || 'text')}">${html}</div>`;
  cache.set(key, wrapped);
  return wrapped;
}

/** Replaces the fence renderer: every fenced block goes through the cached highlighter. */
export function highlightPlugin(md: MarkdownIt, hl: HighlighterCore): void {
  md.renderer.rules.fence = (tokens, idx) => {
    const token = tokens[idx];
    if (!token) return '';
    const lang = token.info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    return highlightCode(hl, token.content.replace(/\n$/, ''), lang);
  };
}
