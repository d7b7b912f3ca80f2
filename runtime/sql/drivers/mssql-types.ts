/**
 * Explicit SQL Server parameter types: from the declared SqlType (TVF parameters) when present,
 * else from the literal's type. mssql would otherwise guess from the JS value (Date -> DateTime,
 * number -> Int/Float), which loses offsets and precision.
 */
import sql from 'mssql';
import type { TypedValue } from '../plan.js';

export type MssqlType = sql.ISqlType | (() => sql.ISqlType);

interface Declared {
  readonly base: string;
  readonly args: readonly number[];
}

/** `decimal(10, 2)` -> {base:'decimal', args:[10,2]}; `nvarchar(max)` -> args [] */
export function parseSqlType(text: string): Declared {
  const m = /^\s*([a-zA-Z0-9_]+)\s*(?:\(([^)]*)\))?\s*$/.exec(text);
  if (!m) return { base: text.trim().toLowerCase(), args: [] };
  const args = (m[2] ?? '').split(',').map((a) => Number(a.trim())).filter((n) => Number.isInteger(n));
  return { base: (m[1] as string).toLowerCase(), args };
}

function fromDeclared(d: Declared): sql.ISqlType | null {
  const [a, b] = d.args;
  switch (d.base) {
    case 'int': return sql.Int();
    case 'bigint': return sql.BigInt();
    case 'smallint': return sql.SmallInt();
    case 'tinyint': return sql.TinyInt();
    case 'bit': return sql.Bit();
    case 'decimal': case 'numeric': return sql.Decimal(a ?? 18, b ?? 0);
    case 'money': return sql.Money();
    case 'float': return sql.Float();
    case 'real': return sql.Real();
    case 'nvarchar': return sql.NVarChar(a ?? sql.MAX);
    case 'varchar': return sql.VarChar(a ?? sql.MAX);
    case 'nchar': return sql.NChar(a ?? 1);
    case 'char': return sql.Char(a ?? 1);
    case 'date': return sql.Date();
    case 'time': return sql.Time(a ?? 7);
    case 'datetime': return sql.DateTime();
    case 'datetime2': return sql.DateTime2(a ?? 7);
    case 'datetimeoffset': return sql.DateTimeOffset(a ?? 7);
    case 'uniqueidentifier': return sql.UniqueIdentifier();
    default: return null;
  }
}

function decimalScale(value: string): number {
  const m = /\.(\d+)/.exec(value);
  return Math.min(m ? (m[1] as string).length : 0, 38);
}

export function mssqlTypeOf(p: TypedValue): sql.ISqlType {
  const declared = p.sqlType ? fromDeclared(parseSqlType(p.sqlType)) : null;
  if (declared) return declared;
  switch (p.type) {
    case 'string': return sql.NVarChar(typeof p.value === 'string' && p.value.length > 4000 ? sql.MAX : 4000);
    case 'int': return sql.Int();
    case 'bigint': return sql.BigInt();
    case 'decimal': return sql.Decimal(38, decimalScale(String(p.value)));
    case 'float': return sql.Float();
    case 'boolean': return sql.Bit();
    case 'date': return sql.Date();
    case 'datetime': return sql.DateTimeOffset(7);
    case 'time': return sql.Time(7);
    case 'guid': return sql.UniqueIdentifier();
  }
}

/** JS value as tedious expects it for the type. */
export function mssqlValueOf(p: TypedValue): unknown {
  if (p.value === null) return null;
  switch (p.type) {
    case 'date': return new Date(`${String(p.value)}T00:00:00Z`);
    case 'datetime': return new Date(String(p.value));
    case 'time': return new Date(`1970-01-01T${String(p.value)}Z`);
    case 'decimal': return Number(p.value);
    default: return p.value;
  }
}

/** 2^64: tedious writes a decimal parameter's scaled value in 64 bits and throws past them. */
const DECIMAL_WIRE_LIMIT = 2 ** 64;

/**
 * Whether tedious can send the parameter as its type. A `decimal` whose value times 10^scale
 * reaches 2^64 (1e20 as `decimal(38,0)`, 1e300 from a JWT claim or an OData literal) makes tedious
 * throw while it writes the request, which drops the connection (`socket hang up`): such a value is
 * refused before it is sent, as one the column cannot hold.
 */
export function mssqlSendable(p: TypedValue, type: sql.ISqlType): boolean {
  if (p.value === null || (type as { type?: unknown }).type !== sql.Decimal) return true;
  const value = Math.abs(Number(p.value));
  const scale = (type as { scale?: number }).scale ?? 0;
  return Number.isFinite(value) && value * 10 ** scale < DECIMAL_WIRE_LIMIT;
}
