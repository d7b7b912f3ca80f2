/** Turn literal tokens into typed AST literals, validating calendar values. */
import type { Literal } from './ast.js';
import { ODataError, describeText } from './errors.js';
import type { Token } from './tokenizer.js';

/** Half of a UTF-16 pair without its other half: not encodable as UTF-8, so no database takes it. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const max = m === 2 && !leap ? 28 : (DAYS_IN_MONTH[m - 1] as number);
  return d <= max;
}

function validTime(h: number, mi: number, s: number): boolean {
  return h <= 23 && mi <= 59 && s <= 59;
}

function invalid(option: string, token: Token, what: string): ODataError {
  return ODataError.at(option, `invalid ${what} ${describeText(token.text)}`, token.pos);
}

/** null when the token is not a literal token. */
export function literalFromToken(option: string, token: Token): Literal | null {
  const t = token.text;
  switch (token.type) {
    case 'string':
      // No database stores U+0000 in text (PostgreSQL refuses the byte): a 400 here, not a 500 there.
      if (t.includes('\u0000')) throw ODataError.at(option, 'a string must not contain the NUL character (U+0000)', token.pos);
      if (LONE_SURROGATE.test(t)) throw ODataError.at(option, 'a string must be valid Unicode (it contains a lone surrogate)', token.pos);
      return { kind: 'literal', type: 'string', value: t };
    case 'int': {
      const n = Number(t);
      if (Number.isSafeInteger(n)) return { kind: 'literal', type: 'int', value: n };
      if (t.replace('-', '').length > 38) throw invalid(option, token, 'number');
      return { kind: 'literal', type: 'decimal', value: t };
    }
    case 'decimal':
      if (t.length > 40 || !Number.isFinite(Number(t))) throw invalid(option, token, 'number');
      return { kind: 'literal', type: 'decimal', value: t };
    case 'date': {
      const [y, m, d] = t.split('-').map(Number) as [number, number, number];
      if (!validDate(y, m, d)) throw invalid(option, token, 'date');
      return { kind: 'literal', type: 'date', value: t };
    }
    case 'datetime': {
      const [y, m, d, h, mi, s] = t.match(/\d+/g)!.map(Number) as number[];
      if (!validDate(y!, m!, d!) || !validTime(h!, mi!, s ?? 0)) throw invalid(option, token, 'date-time');
      const off = /([+-])(\d{2}):(\d{2})$/.exec(t);
      if (off && (Number(off[2]) > 14 || Number(off[3]) > 59)) throw invalid(option, token, 'date-time');
      return { kind: 'literal', type: 'datetime', value: t };
    }
    case 'time': {
      const [h, mi, s] = t.split(/[:.]/).map(Number) as number[];
      if (!validTime(h!, mi!, s ?? 0)) throw invalid(option, token, 'time');
      return { kind: 'literal', type: 'time', value: t };
    }
    case 'guid':
      return { kind: 'literal', type: 'guid', value: t.toLowerCase() };
    case 'ident':
      if (t === 'null') return { kind: 'literal', type: 'null', value: null };
      if (t === 'true') return { kind: 'literal', type: 'boolean', value: true };
      if (t === 'false') return { kind: 'literal', type: 'boolean', value: false };
      return null;
    default:
      return null;
  }
}
