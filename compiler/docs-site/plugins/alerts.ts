/**
 * GitHub-style alerts: a blockquote starting with `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
 * `[!WARNING]` or `[!CAUTION]` renders as `<div class="alert alert-note">` with a title.
 */
import type { MarkdownIt } from 'markdown-it';

const KINDS = ['note', 'tip', 'important', 'warning', 'caution'] as const;

export function alertsPlugin(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'wharf_alerts', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const open = tokens[i];
      if (open?.type !== 'blockquote_open') continue;
      const inline = tokens[i + 2];
      if (tokens[i + 1]?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
      const match = /^\[!(\w+)\]\s*/.exec(inline.content);
      const kind = match?.[1]?.toLowerCase() as (typeof KINDS)[number] | undefined;
      if (!match || !kind || !KINDS.includes(kind)) continue;
      let depth = 0;
      for (let j = i; j < tokens.length; j++) {
        const t = tokens[j];
        if (!t) break;
        if (t.type === 'blockquote_open') depth++;
        if (t.type === 'blockquote_close' && --depth === 0) {
          t.type = 'alert_close';
          break;
        }
      }
      open.type = 'alert_open';
      open.info = kind;
      const first = inline.children?.[0];
      if (first?.type === 'text') first.content = first.content.replace(/^\[!\w+\]\s*/, '');
      inline.content = inline.content.slice(match[0].length);
      const next = inline.children?.[1];
      if (first && first.content === '' && next?.type === 'softbreak') inline.children?.splice(0, 2);
    }
  });
  md.renderer.rules.alert_open = (tokens, idx) => {
    const kind = tokens[idx]?.info ?? 'note';
    const title = kind.charAt(0).toUpperCase() + kind.slice(1);
    return `<div class="alert alert-${kind}"><p class="alert-title">${title}</p>\n`;
  };
  md.renderer.rules.alert_close = () => '</div>\n';
}
