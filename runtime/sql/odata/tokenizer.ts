/**
 * OData expression tokenizer. Positions are 1-based character offsets into the option value.
 * Literal recognition is by shape (GUID, date-time, date, time, number) so that `2024-01-01`
 * is one date token, not `2024 - 01 - 01`.
 */
import { ODataError, describeText } from './errors.js';
import { ODATA_LIMITS } from './limits.js';

export type TokenType =
  | 'lparen' | 'rparen' | 'comma' | 'semicolon' | 'equals' | 'slash' | 'star'
  | 'string' | 'int' | 'decimal' | 'date' | 'datetime' | 'time' | 'guid'
  | 'ident' | 'eof';

export interface Token {
  readonly type: TokenType;
  /** Source text (for strings: the unescaped value). */
  readonly text: string;
  /** 1-based position of the first character. */
  readonly pos: number;
}

const GUID = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![\p{L}\p{N}_-])/uy;
const DATETIME =
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})(?![\p{L}\p{N}_])/uy;
const DATE = /\d{4}-\d{2}-\d{2}(?![\p{L}\p{N}_:T-])/uy;
const TIME = /\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?![\p{L}\p{N}_:])/uy;
const NUMBER = /-?\d+(?:(\.\d+)?([eE][+-]?\d+)?)(?![\p{L}\p{N}_.])/uy;
const IDENT = /[\p{L}_$][\p{L}\p{N}_]*/uy;

const PUNCT: Readonly<Record<string, TokenType>> = {
  '(': 'lparen', ')': 'rparen', ',': 'comma', ';': 'semicolon', '=': 'equals', '/': 'slash', '*': 'star',
};

function sticky(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? m[0] : null;
}

export function tokenize(option: string, text: string): Token[] {
  if (text.length > ODATA_LIMITS.maxOptionLength) {
    throw new ODataError(`${option}: longer than ${ODATA_LIMITS.maxOptionLength} characters`);
  }
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const pos = i + 1;
    const punct = PUNCT[c];
    if (punct) {
      tokens.push({ type: punct, text: c, pos });
      i++;
      continue;
    }
    if (c === "'") {
      const { value, end } = readString(option, text, i);
      tokens.push({ type: 'string', text: value, pos });
      i = end;
      continue;
    }
    const shaped = readShaped(text, i);
    if (shaped) {
      tokens.push({ type: shaped.type, text: shaped.text, pos });
      i += shaped.text.length;
      continue;
    }
    const ident = sticky(IDENT, text, i);
    if (ident) {
      tokens.push({ type: 'ident', text: ident, pos });
      i += ident.length;
      continue;
    }
    const cp = String.fromCodePoint(text.codePointAt(i) ?? 0);
    throw ODataError.at(option, `unexpected character ${describeText(cp)}`, pos);
  }
  tokens.push({ type: 'eof', text: '', pos: text.length + 1 });
  return tokens;
}

function readShaped(text: string, i: number): { type: TokenType; text: string } | null {
  const guid = sticky(GUID, text, i);
  if (guid) return { type: 'guid', text: guid };
  const c = text[i] as string;
  if (!(c >= '0' && c <= '9') && c !== '-') return null;
  const dt = sticky(DATETIME, text, i);
  if (dt) return { type: 'datetime', text: dt };
  const date = sticky(DATE, text, i);
  if (date) return { type: 'date', text: date };
  const time = sticky(TIME, text, i);
  if (time) return { type: 'time', text: time };
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(text);
  if (m) return { type: m[1] || m[2] ? 'decimal' : 'int', text: m[0] };
  return null;
}

function readString(option: string, text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const next = text.indexOf("'", i);
    if (next < 0) throw ODataError.at(option, 'unterminated string', start + 1);
    value += text.slice(i, next);
    if (text[next + 1] === "'") {
      value += "'";
      i = next + 2;
    } else {
      i = next + 1;
      break;
    }
    if (value.length > ODATA_LIMITS.maxLiteralLength) break;
  }
  if (value.length > ODATA_LIMITS.maxLiteralLength) {
    throw ODataError.at(option, `string literal longer than ${ODATA_LIMITS.maxLiteralLength} characters`, start + 1);
  }
  return { value, end: i };
}
