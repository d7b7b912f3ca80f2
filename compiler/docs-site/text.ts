/** Plain text of a rendered token stream: the search index body and description fallback. */
import type { Token } from 'markdown-it';

export interface PageText {
  /** Text of every block except headings, code blocks included, one block per line. */
  readonly body: string;
  /** Text of the first paragraph (description fallback). */
  readonly firstParagraph: string;
  /** Text of the first level-1 heading (title fallback). */
  readonly firstH1: string | null;
}

function inlineText(token: Token): string {
  return (token.children ?? [])
    .map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type === 'softbreak' ? ' ' : ''))
    .join('');
}

export function extractText(tokens: readonly Token[]): PageText {
  const lines: string[] = [];
  let firstParagraph = '';
  let firstH1: string | null = null;
  let inHeading = false;
  let inParagraph = false;
  for (const token of tokens) {
    if (token.type === 'heading_open') {
      inHeading = true;
      if (token.tag === 'h1' && firstH1 === null) firstH1 = '';
    } else if (token.type === 'heading_close') inHeading = false;
    else if (token.type === 'paragraph_open') inParagraph = true;
    else if (token.type === 'paragraph_close') inParagraph = false;
    else if (token.type === 'inline') {
      const text = inlineText(token).trim();
      if (inHeading) {
        if (firstH1 === '') firstH1 = text;
        continue;
      }
      if (inParagraph && firstParagraph === '' && text !== '') firstParagraph = text;
      if (text) lines.push(text);
    } else if (token.type === 'fence' || token.type === 'code_block') lines.push(token.content.trim());
  }
  return { body: lines.join('\n'), firstParagraph, firstH1: firstH1 || null };
}

/** Cut at a word boundary to at most `max` characters, adding an ellipsis when cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd() + '…';
}
