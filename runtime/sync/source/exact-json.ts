/**
 * JSON.parse that loses no digits: a number with more than 15 significant digits (a bigint past
 * 2^53, a long numeric) becomes its decimal text, as the gateway answers such numeric columns
 * (sql/drivers/type-parsers.ts parseNumeric); safe integers and numbers a double holds exactly
 * (1000000000000000000, a float8 PostgreSQL wrote out in full) stay numbers. A procedure's change set is
 * one JSON document: JSON.parse alone turned 9007199254740993 into ...992 without a word.
 * Numbers with an exponent (doubles, float8) parse as before.
 */
import { parseNumeric } from '../../sql/drivers/type-parsers.js';

/** A run of 16+ digits (with dots): the only way a number can hold more than 15 significant digits. */
const MAYBE_LONG_NUMBER = /\d[\d.]{15,}/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Whether a double changes the digits of `token` (one without exponent: those come from doubles). */
function loses(token: string): boolean {
  if (/[eE]/.test(token)) return false;
  if (!token.includes('.') && Number.isSafeInteger(Number(token))) return false;
  return typeof parseNumeric(token) === 'string';
}

export function parseJsonExact(text: string): unknown {
  if (!MAYBE_LONG_NUMBER.test(text)) return JSON.parse(text) as unknown;
  const pieces: string[] = [];
  let copied = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // Skip the string: to its closing quote, over escapes.
      i++;
      while (i < length) {
        const s = text.charCodeAt(i);
        if (s === 92 /* \ */) i += 2;
        else if (s === 34) break;
        else i++;
      }
      i++;
    } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) return JSON.parse(text) as unknown; // not JSON: let JSON.parse name the problem
      const token = match[0];
      if (token.length > 15 && loses(token)) {
        pieces.push(text.slice(copied, i), '"', token, '"');
        copied = i + token.length;
      }
      i += token.length;
    } else i++;
  }
  if (copied === 0) return JSON.parse(text) as unknown;
  pieces.push(text.slice(copied));
  return JSON.parse(pieces.join('')) as unknown;
}
