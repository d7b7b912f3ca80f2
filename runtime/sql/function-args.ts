/**
 * Table-valued function arguments: from the path (by Position, 1-based) or the query string,
 * Required, DefaultValue (`DEFAULT` = the function's own default), ValidationPattern, and a
 * value typed by SqlType. Errors are 400s naming the parameter.
 */
import type { FunctionParameter } from '../contract/model.js';
import { WharfError } from '../errors/wharf-error.js';
import type { FunctionArg, ParamType, TypedValue } from './plan.js';

const patternCache = new Map<string, RegExp>();

function pattern(source: string): RegExp {
  let re = patternCache.get(source);
  if (!re) {
    re = new RegExp(source, 'u');
    patternCache.set(source, re);
  }
  return re;
}

function rawValue(p: FunctionParameter, segments: readonly string[], query: Readonly<Record<string, unknown>>): string | undefined {
  if (p.source === 'Path') return p.position === null ? undefined : segments[p.position - 1];
  const key = Object.hasOwn(query, p.name) ? p.name : Object.keys(query).find((k) => k.toLowerCase() === p.name.toLowerCase());
  if (key === undefined) return undefined;
  const v = query[key];
  if (Array.isArray(v)) throw new WharfError('SQL_BAD_REQUEST', { reason: `Parameter '${p.name}' given more than once` });
  return typeof v === 'string' ? v : undefined;
}

const INT_TYPES = new Set(['int', 'smallint', 'tinyint', 'integer']);
const DECIMAL_TYPES = new Set(['decimal', 'numeric', 'money', 'smallmoney']);

function typeFamily(sqlType: string): ParamType {
  const base = sqlType.trim().toLowerCase().replace(/\s*\(.*$/, '');
  if (INT_TYPES.has(base)) return 'int';
  if (base === 'bigint') return 'bigint';
  if (DECIMAL_TYPES.has(base)) return 'decimal';
  if (base === 'float' || base === 'real' || base === 'double precision') return 'float';
  if (base === 'bit' || base === 'boolean') return 'boolean';
  if (base === 'date') return 'date';
  if (base === 'time') return 'time';
  if (base.startsWith('datetime') || base.startsWith('timestamp') || base === 'smalldatetime') return 'datetime';
  if (base === 'uniqueidentifier' || base === 'uuid') return 'guid';
  return 'string';
}

/** Convert the text to the parameter's type, or null when it does not fit. */
export function typedValue(text: string, sqlType: string): TypedValue | null {
  const type = typeFamily(sqlType);
  const t = text.trim();
  const ok = (value: string | number | boolean): TypedValue => ({ type, value, sqlType });
  switch (type) {
    case 'int': {
      const n = Number(t);
      return /^-?\d{1,10}$/.test(t) && Math.abs(n) <= 2_147_483_647 ? ok(n) : null;
    }
    case 'bigint':
      return /^-?\d{1,19}$/.test(t) ? ok(Number.isSafeInteger(Number(t)) ? Number(t) : t) : null;
    case 'decimal':
      return /^-?\d{1,38}(\.\d{1,38})?$/.test(t) ? ok(t) : null;
    case 'float':
      return t !== '' && Number.isFinite(Number(t)) ? ok(Number(t)) : null;
    case 'boolean':
      return /^(true|1)$/i.test(t) ? ok(true) : /^(false|0)$/i.test(t) ? ok(false) : null;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(t) && !Number.isNaN(Date.parse(t)) ? ok(t) : null;
    case 'time':
      return /^\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?$/.test(t) ? ok(t) : null;
    case 'datetime':
      return /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(t) && !Number.isNaN(Date.parse(t)) ? ok(t) : null;
    case 'guid':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t) ? ok(t.toLowerCase()) : null;
    case 'string':
      return ok(text);
  }
}

export function functionArgs(
  parameters: readonly FunctionParameter[],
  segments: readonly string[],
  query: Readonly<Record<string, unknown>>,
): FunctionArg[] {
  const pathCount = parameters.filter((p) => p.source === 'Path').length;
  if (segments.length > pathCount) throw new WharfError('SQL_NOT_FOUND', { reason: 'Not found: too many path segments for this function' });
  return parameters.map((p): FunctionArg => {
    let raw = rawValue(p, segments, query);
    if (raw === undefined || raw === '') {
      if (p.required) throw new WharfError('SQL_PARAMETER_MISSING', { name: p.name });
      if (p.defaultValue === 'DEFAULT') return { name: p.name, kind: 'default' };
      if (p.defaultValue === null) return { name: p.name, kind: 'value', value: { type: typeFamily(p.sqlType), value: null, sqlType: p.sqlType } };
      raw = p.defaultValue;
    } else if (p.validationPattern !== null && !pattern(p.validationPattern).test(raw)) {
      throw new WharfError('SQL_PARAMETER_INVALID', { name: p.name });
    }
    if (raw.length > 4000 || raw.includes('\u0000')) throw new WharfError('SQL_PARAMETER_INVALID', { name: p.name });
    const value = typedValue(raw, p.sqlType);
    if (!value) throw new WharfError('SQL_PARAMETER_TYPE_INVALID', { name: p.name, sqlType: p.sqlType });
    return { name: p.name, kind: 'value', value };
  });
}
