/** Wide tables scroll inside their own box instead of widening the page. */
import type { MarkdownIt } from 'markdown-it';

export function tablesPlugin(md: MarkdownIt): void {
  const open = md.renderer.rules.table_open ?? ((t, i, o, _e, s) => s.renderToken(t, i, o));
  const close = md.renderer.rules.table_close ?? ((t, i, o, _e, s) => s.renderToken(t, i, o));
  md.renderer.rules.table_open = (t, i, o, e, s) => '<div class="table-wrap">' + open(t, i, o, e, s);
  md.renderer.rules.table_close = (t, i, o, e, s) => close(t, i, o, e, s) + '</div>';
}
