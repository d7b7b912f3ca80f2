/**
 * What a RowFilter value means against a column of known type (row-filter.ts typedRowFilter): the
 * value as the column would hold it, or null when no value of the column can equal it.
 */
import type { Literal } from '../../sql/odata/ast.js';
import type { ValueKind } from '../../sql/odata/type-check.js';
import type { ColumnBound } from '../../sql/column-bounds.js';
import { typedValue } from '../../sql/function-args.js';

/**
 * A number's own text: `-` as the only sign, no leading zero, no trailing zero after the point, no
 * exponent, no blanks (`7`, `-0.5`; not `07`, `7.0`, `+7`, ` 7`, `7e0`). Each number has exactly
 * one, so a text claim never names more numbers than one.
 */
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;
/** 2^64: the digits of a number (point removed) SQL Server's driver can send as a decimal (mssql-types.ts). */
const DIGITS_LIMIT = 2n ** 64n;
const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * Whether a number (its decimal text) can be a value of a number column of this bound: whole for an
 * integer type and inside its range, inside a numeric(p,s)'s digits, and at most 2^64 in digits.
 */
function numberFits(text: string, bound: ColumnBound | undefined): boolean {
  const m = /^-?(\d+)(?:\.(\d+))?$/.exec(text);
  // a literal of the filter's own text written with an exponent: left to the database
  if (m === null) return true;
  const whole = (m[1] as string).replace(/^0+(?=\d)/, '');
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (BigInt(whole + fraction) >= DIGITS_LIMIT) return false;
  if (bound?.kind === 'integer') {
    if (fraction !== '') return false;
    const n = BigInt(text.startsWith('-') ? `-${whole}` : whole);
    const max = BigInt(bound.max) > BIGINT_MAX ? BIGINT_MAX : BigInt(bound.max);
    return n >= BigInt(bound.min) && n <= max;
  }
  if (bound?.kind === 'digits') return whole === '0' || whole.length <= bound.digits;
  return true;
}

function numberLiteral(text: string): Literal {
  const n = Number(text);
  return !text.includes('.') && Number.isSafeInteger(n) ? { kind: 'literal', type: 'int', value: n } : { kind: 'literal', type: 'decimal', value: text };
}

/** A date that exists (`2024-02-30` does not; Date.parse takes it as March 1). */
function realDate(text: string): boolean {
  const day = text.slice(0, 10);
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}

/** A time of day inside 00:00 to 23:59:59.9999999. */
function realTime(text: string): boolean {
  const m = /(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text);
  return m === null || (Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3] ?? 0) < 60);
}

/** Text a date, date-time, time or GUID column can hold (parsed alike by every database), or not. */
function textFits(text: string, kind: Exclude<ValueKind, 'string' | 'number' | 'boolean'>): boolean {
  const sqlType = kind === 'date' ? 'datetime' : kind === 'guid' ? 'uuid' : kind;
  if (typedValue(text, sqlType) === null || text !== text.trim()) return false;
  if (kind === 'guid') return true;
  return (kind === 'time' || realDate(text)) && realTime(kind === 'time' ? text : text.slice(10));
}

/**
 * The literal as a value of the column's kind, or null when no value of the column can equal it:
 * a boolean meets only a boolean column; a number a number column it fits (whole for an integer
 * type, inside its range or digits), or a text column as its own text; text a text column, a number
 * column when it is a number's own text (then that number), a date, date-time, time or GUID column
 * when it is one.
 */
export function asColumnValue(literal: Literal, kind: ValueKind, bound: ColumnBound | undefined): Literal | null {
  switch (literal.type) {
    case 'null':
      return literal;
    case 'boolean':
      return kind === 'boolean' ? literal : null;
    case 'int':
    case 'decimal': {
      const text = String(literal.value);
      if (kind === 'string') return { kind: 'literal', type: 'string', value: text };
      return kind === 'number' && numberFits(text, bound) ? literal : null;
    }
    case 'string':
      if (kind === 'string') return literal;
      if (kind === 'number') return NUMBER_TEXT.test(literal.value) && literal.value !== '-0' && numberFits(literal.value, bound) ? numberLiteral(literal.value) : null;
      if (kind === 'boolean') return null;
      return textFits(literal.value, kind) ? literal : null;
    default:
      // date, date-time, time and GUID literals of the filter's own text: the build checked them
      return literal;
  }
}
