/**
 * Parse all system query options of a read request into one ODataQuery, resolving every
 * column against the allow-list. Exact spec texts for $orderby/$top/$skip errors.
 */
import type { ExpandItem, Member, ODataQuery, OrderItem } from './ast.js';
import { ODataError, describeText } from './errors.js';
import { parseFilter, resolveMember, type ColumnMap } from './filter-parser.js';
import { assertVisible, NO_HIDDEN, type HiddenColumns } from './hidden-columns.js';
import { ODATA_LIMITS } from './limits.js';
import { tokenize, type Token } from './tokenizer.js';

/** Raw option values (already URL-decoded), keyed without the `$`. */
export interface RawOptions {
  readonly select?: string | undefined;
  readonly filter?: string | undefined;
  readonly orderby?: string | undefined;
  readonly top?: string | undefined;
  readonly skip?: string | undefined;
  readonly count?: string | undefined;
  readonly expand?: string | undefined;
  /** `$apply` (aggregation): parsed by apply-parser.ts, not by parseQueryOptions. */
  readonly apply?: string | undefined;
  /** `$skiptoken` (keyset paging): read by keyset-token.ts, not by parseQueryOptions. */
  readonly skiptoken?: string | undefined;
}

export interface ParseContext {
  readonly columns: ColumnMap;
  /** relationship name -> the target's allow-list; null when `$expand` is not supported. */
  readonly relationships: ReadonlyMap<string, ColumnMap> | null;
  /** Columns a response transform masks or removes: refused in $filter and $orderby. */
  readonly hidden?: HiddenColumns;
}

const KNOWN = ['select', 'filter', 'orderby', 'top', 'skip', 'count', 'expand', 'apply', 'skiptoken'] as const;

/** Pick the `$` options out of a parsed query string; unknown `$` options and repeats are 400. */
export function readRawOptions(query: Readonly<Record<string, unknown>>): RawOptions {
  const out: Record<string, string> = {};
  for (const key of Object.keys(query)) {
    if (!key.startsWith('$')) continue;
    const name = key.slice(1);
    if (!(KNOWN as readonly string[]).includes(name)) {
      throw new ODataError(`Unsupported query option ${describeText(key)}`);
    }
    const v = query[key];
    if (Array.isArray(v)) throw new ODataError(`${key} given more than once`);
    out[name] = typeof v === 'string' ? v : String(v ?? '');
  }
  return out;
}

export function parseQueryOptions(raw: RawOptions, ctx: ParseContext): ODataQuery {
  return {
    select: raw.select === undefined ? null : parseSelect('$select', raw.select, ctx.columns),
    filter: raw.filter === undefined ? null : parseFilter(raw.filter, ctx.columns, ctx.hidden ?? NO_HIDDEN),
    orderby: raw.orderby === undefined ? [] : parseOrderby(raw.orderby, ctx.columns, ctx.hidden ?? NO_HIDDEN),
    top: raw.top === undefined ? null : parseTop(raw.top),
    skip: raw.skip === undefined ? 0 : parseSkip(raw.skip),
    count: raw.count === undefined ? false : parseCount(raw.count),
    expand: raw.expand === undefined ? [] : parseExpand(raw.expand, ctx.relationships),
  };
}

/** Split a token list on commas into groups (for $select/$orderby). */
function groups(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.type === 'eof') break;
    if (t.type === 'comma') out.push([]);
    else (out[out.length - 1] as Token[]).push(t);
  }
  return out;
}

export function parseSelect(option: string, text: string, columns: ColumnMap): Member[] {
  const tokens = tokenize(option, text);
  if (tokens.length === 1) throw new ODataError(`${option}: empty column list`);
  const commas = tokens.filter((t) => t.type === 'comma');
  const out: Member[] = [];
  for (const [idx, g] of groups(tokens).entries()) {
    const first = g[0];
    if (!first) throw ODataError.at(option, 'empty column name', idx === 0 ? 1 : (commas[idx - 1] as Token).pos + 1);
    const extra = g[1];
    if (extra) throw ODataError.at(option, `unexpected ${describeText(extra.text)}`, extra.pos);
    if (first.type === 'star') {
      for (const [name, column] of Object.entries(columns)) out.push({ kind: 'member', name, column });
      continue;
    }
    const column = first.type === 'ident' ? resolveMember(columns, first.text) : undefined;
    if (column === undefined) throw ODataError.unknownColumn(option, describeText(first.text), first.pos);
    out.push({ kind: 'member', name: first.text, column });
  }
  const seen = new Set<string>();
  return out.filter((m) => (seen.has(m.name) ? false : (seen.add(m.name), true)));
}

/**
 * The spec's two texts stay exact (`Invalid orderby field: X`, `Empty orderby clause`: the spec's
 * body carries `error` only, no position); every other $orderby error names its position, like
 * $filter and $select.
 */
export function parseOrderby(text: string, columns: ColumnMap, hidden: HiddenColumns = NO_HIDDEN): OrderItem[] {
  if (text.trim() === '') throw new ODataError('Empty orderby clause');
  const option = '$orderby';
  const tokens = tokenize(option, text);
  const items: OrderItem[] = [];
  for (const g of groups(tokens)) {
    const field = g[0];
    if (!field) throw new ODataError('Empty orderby clause');
    const column = field.type === 'ident' ? resolveMember(columns, field.text) : undefined;
    if (column === undefined) throw new ODataError(`Invalid orderby field: ${describeText(field.text).slice(1, -1)}`);
    assertVisible(hidden, field.text, option, 'used for ordering', field.pos);
    const dir = g[1];
    if (dir && !(dir.type === 'ident' && (dir.text === 'asc' || dir.text === 'desc'))) {
      throw ODataError.at(option, `expected 'asc' or 'desc', found ${describeText(dir.text)}`, dir.pos);
    }
    const extra = g[2];
    if (extra) throw ODataError.at(option, `unexpected ${describeText(extra.text)}`, extra.pos);
    items.push({ member: { kind: 'member', name: field.text, column }, direction: dir?.text === 'desc' ? 'desc' : 'asc' });
    if (items.length > ODATA_LIMITS.maxOrderbyItems) {
      throw ODataError.at(option, `more than ${ODATA_LIMITS.maxOrderbyItems} fields`, field.pos);
    }
  }
  return items;
}

function parseInteger(option: string, text: string): number {
  const t = text.trim();
  if (!/^[+-]?\d{1,15}$/.test(t)) {
    if (/^[+-]?\d+$/.test(t) && !t.startsWith('-')) return Number.MAX_SAFE_INTEGER;
    if (/^-\d+$/.test(t)) return -1;
    throw new ODataError(`${option} must be an integer, found ${describeText(text)}`);
  }
  return Number(t);
}

export function parseTop(text: string): number {
  const n = parseInteger('$top', text);
  if (n < 0) throw new ODataError('$top cannot be negative');
  if (n > ODATA_LIMITS.maxTop) throw new ODataError(`$top cannot exceed ${ODATA_LIMITS.maxTop}`);
  return n;
}

export function parseSkip(text: string): number {
  const n = parseInteger('$skip', text);
  if (n < 0) throw new ODataError('$skip cannot be negative');
  if (n > ODATA_LIMITS.maxSkip) throw new ODataError(`$skip cannot exceed ${ODATA_LIMITS.maxSkip}`);
  return n;
}

export function parseCount(text: string): boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ODataError(`$count must be true or false, found ${describeText(text)}`);
}

export function parseExpand(text: string, relationships: ReadonlyMap<string, ColumnMap> | null): ExpandItem[] {
  const option = '$expand';
  if (relationships === null) throw new ODataError('$expand is not supported on this endpoint');
  const tokens = tokenize(option, text);
  const items: ExpandItem[] = [];
  let i = 0;
  const at = (k: number): Token => tokens[Math.min(k, tokens.length - 1)] as Token;
  if (at(0).type === 'eof') throw new ODataError(`${option}: empty`);
  for (;;) {
    const name = at(i);
    if (name.type !== 'ident') throw ODataError.at(option, `expected a relationship name, found ${name.type === 'eof' ? 'the end' : describeText(name.text)}`, name.pos);
    const target = relationships.get(name.text);
    if (!target) throw ODataError.at(option, `unknown relationship ${describeText(name.text)}`, name.pos);
    if (items.some((x) => x.name === name.text)) throw ODataError.at(option, `relationship '${name.text}' given twice`, name.pos);
    i++;
    let select: string[] | null = null;
    if (at(i).type === 'lparen') {
      const opt = at(i + 1);
      if (!(opt.type === 'ident' && opt.text === '$select') || at(i + 2).type !== 'equals') {
        throw ODataError.at(option, `only $select is supported inside parentheses, found ${opt.type === 'eof' ? 'the end' : describeText(opt.text)}`, opt.pos);
      }
      let j = i + 3;
      const start = j;
      while (at(j).type !== 'rparen' && at(j).type !== 'eof') j++;
      if (at(j).type === 'eof') throw ODataError.at(option, "expected ')'", at(j).pos);
      const inner = tokens.slice(start, j).concat([{ type: 'eof', text: '', pos: at(j).pos }]);
      select = selectFromTokens(option, inner, target);
      i = j + 1;
    }
    items.push({ name: name.text, select });
    if (items.length > ODATA_LIMITS.maxExpandItems) throw new ODataError(`${option}: more than ${ODATA_LIMITS.maxExpandItems} relationships`);
    const sep = at(i);
    if (sep.type === 'eof') return items;
    if (sep.type !== 'comma') throw ODataError.at(option, `unexpected ${describeText(sep.text)}`, sep.pos);
    i++;
  }
}

function selectFromTokens(option: string, tokens: Token[], columns: ColumnMap): string[] {
  const out: string[] = [];
  for (const g of groups(tokens)) {
    const f = g[0];
    if (!f) throw ODataError.at(option, 'empty column name in $select', (tokens[0] as Token).pos);
    if (g.length > 1) throw ODataError.at(option, `unexpected ${describeText((g[1] as Token).text)}`, (g[1] as Token).pos);
    if (f.type !== 'ident' || resolveMember(columns, f.text) === undefined) {
      throw ODataError.unknownColumn(option, describeText(f.text), f.pos);
    }
    if (!out.includes(f.text)) out.push(f.text);
  }
  return out;
}
