/**
 * Parser of OData `$apply` (the aggregation subset):
 *   apply      := transform ('/' transform)*
 *   transform  := 'filter' '(' <$filter expression> ')'
 *               | 'groupby' '(' '(' member (',' member)* ')' [',' 'aggregate' '(' aggs ')'] ')'
 *               | 'aggregate' '(' aggs ')'
 *   aggs       := agg (',' agg)* ;  agg := member 'with' method 'as' alias | '$count' 'as' alias
 * filter() transformations come first, one groupby/aggregate last. Members are checked against the
 * allow-list; masked or removed columns are refused (they must not be an oracle); aliases are
 * identifiers (not `__proto__`), unique, and no grouping column's name. Errors are 400s `$apply: <what> at position <n>`.
 */
import type { Member } from './ast.js';
import { AGGREGATE_METHODS, type Aggregate, type AggregateMethod, type ApplyQuery } from './apply-ast.js';
import { ODataError, describeText } from './errors.js';
import { parseFilter, resolveMember, type ColumnMap } from './filter-parser.js';
import { assertVisible, NO_HIDDEN, type HiddenColumns } from './hidden-columns.js';
import { placed } from './positions.js';
import { tokenize, type Token } from './tokenizer.js';

const OPTION = '$apply';
/** Grouping members and aggregates one `$apply` may name. */
export const APPLY_LIMITS = { maxGroupBy: 10, maxAggregates: 20 } as const;
const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function parseApply(text: string, columns: ColumnMap, hidden: HiddenColumns = NO_HIDDEN): ApplyQuery {
  return new ApplyParser(text, tokenize(OPTION, text), columns, hidden).parse();
}

class ApplyParser {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly columns: ColumnMap,
    private readonly hidden: HiddenColumns,
  ) {}

  parse(): ApplyQuery {
    if (this.peek().type === 'eof') throw new ODataError(`${OPTION}: empty`);
    let filter: ApplyQuery['filter'] = null;
    for (;;) {
      const t = this.expect('ident', 'a transformation (filter, groupby or aggregate)');
      if (t.text === 'filter') {
        const expr = this.filterArgument();
        filter = filter === null ? expr : { kind: 'logical', op: 'and', left: filter, right: expr };
      } else if (t.text === 'groupby' || t.text === 'aggregate') {
        const result = t.text === 'groupby' ? this.groupby() : { filter, groupBy: [], aggregates: this.aggregateList() };
        const end = this.peek();
        if (end.type === 'slash') throw ODataError.at(OPTION, `nothing may follow ${t.text}(...)`, end.pos);
        if (end.type !== 'eof') throw this.unexpected(end);
        return { ...result, filter };
      } else {
        throw ODataError.at(OPTION, `unknown transformation ${describeText(t.text)}; use filter, groupby or aggregate`, t.pos);
      }
      const sep = this.peek();
      if (sep.type === 'eof') throw new ODataError(`${OPTION}: must end with groupby(...) or aggregate(...)`);
      if (sep.type !== 'slash') throw this.unexpected(sep);
      this.next();
    }
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.i++;
    return t;
  }

  private unexpected(t: Token): ODataError {
    if (t.type === 'eof') return ODataError.at(OPTION, 'unexpected end', t.pos);
    return ODataError.at(OPTION, `unexpected ${describeText(t.text)}`, t.pos);
  }

  private expect(type: Token['type'], what: string): Token {
    const t = this.peek();
    if (t.type !== type) {
      if (t.type === 'eof') throw ODataError.at(OPTION, `expected ${what}, found the end`, t.pos);
      throw ODataError.at(OPTION, `expected ${what}, found ${describeText(t.text)}`, t.pos);
    }
    return this.next();
  }

  /** `( <expression> )`: the text between the balanced parentheses, parsed by the $filter parser. */
  private filterArgument() {
    const open = this.expect('lparen', "'('");
    let depth = 1;
    while (depth > 0) {
      const t = this.next();
      if (t.type === 'eof') throw ODataError.at(OPTION, "expected ')'", t.pos);
      if (t.type === 'lparen') depth++;
      if (t.type === 'rparen') depth--;
    }
    const close = this.tokens[this.i - 1] as Token;
    const inner = this.text.slice(open.pos, close.pos - 1);
    try {
      return parseFilter(inner, this.columns, this.hidden, open.pos);
    } catch (error) {
      if (!(error instanceof ODataError)) throw error;
      // positions of the inner expression, counted in the whole $apply value
      throw new ODataError(error.message
        .replace(/^\$filter: /, `${OPTION}: filter: `)
        .replace(/ at position (\d+)$/, (_m, n: string) => ` at position ${Number(n) + open.pos}`));
    }
  }

  private member(verb: string): Member {
    const t = this.expect('ident', 'a column name');
    const column = resolveMember(this.columns, t.text);
    if (column === undefined) throw ODataError.unknownColumn(OPTION, describeText(t.text), t.pos);
    assertVisible(this.hidden, t.text, OPTION, verb, t.pos);
    return placed({ kind: 'member', name: t.text, column }, t.pos);
  }

  private groupby(): Omit<ApplyQuery, 'filter'> {
    this.expect('lparen', "'('");
    this.expect('lparen', "'(' (groupby takes a parenthesised list of columns)");
    const groupBy: Member[] = [];
    for (;;) {
      const at = this.peek();
      const m = this.member('grouped by');
      if (groupBy.some((g) => g.name === m.name)) throw ODataError.at(OPTION, `column '${m.name}' grouped twice`, at.pos);
      groupBy.push(m);
      if (groupBy.length > APPLY_LIMITS.maxGroupBy) throw ODataError.at(OPTION, `more than ${APPLY_LIMITS.maxGroupBy} grouping columns`, at.pos);
      const sep = this.next();
      if (sep.type === 'rparen') break;
      if (sep.type !== 'comma') throw this.unexpected(sep);
    }
    let aggregates: Aggregate[] = [];
    if (this.peek().type === 'comma') {
      this.next();
      const agg = this.expect('ident', 'aggregate(...)');
      if (agg.text !== 'aggregate') throw ODataError.at(OPTION, `expected aggregate(...), found ${describeText(agg.text)}`, agg.pos);
      aggregates = this.aggregateList();
    }
    this.expect('rparen', "')'");
    for (const a of aggregates) {
      // names compared ignoring case: SQL Server's are case-insensitive (ORDER BY [City] over City and city is ambiguous)
      if (groupBy.some((g) => g.name.toLowerCase() === a.alias.toLowerCase())) throw new ODataError(`${OPTION}: alias '${a.alias}' is the name of a grouping column`);
    }
    return { groupBy, aggregates };
  }

  private aggregateList(): Aggregate[] {
    this.expect('lparen', "'('");
    const out: Aggregate[] = [];
    for (;;) {
      const first = this.peek();
      let item: Aggregate;
      if (first.type === 'ident' && first.text === '$count') {
        this.next();
        item = { kind: 'count', alias: this.alias() };
      } else {
        const member = this.member('aggregated');
        const w = this.expect('ident', "'with'");
        if (w.text !== 'with') throw ODataError.at(OPTION, `expected 'with', found ${describeText(w.text)}`, w.pos);
        const m = this.expect('ident', 'an aggregation method');
        if (!(AGGREGATE_METHODS as readonly string[]).includes(m.text)) {
          throw ODataError.at(OPTION, `unknown aggregation method ${describeText(m.text)}; use ${AGGREGATE_METHODS.join(', ')}`, m.pos);
        }
        item = { kind: 'method', method: m.text as AggregateMethod, member, alias: this.alias() };
      }
      if (out.some((a) => a.alias.toLowerCase() === item.alias.toLowerCase())) throw ODataError.at(OPTION, `alias '${item.alias}' given twice`, first.pos);
      out.push(item);
      if (out.length > APPLY_LIMITS.maxAggregates) throw ODataError.at(OPTION, `more than ${APPLY_LIMITS.maxAggregates} aggregates`, first.pos);
      const sep = this.next();
      if (sep.type === 'rparen') return out;
      if (sep.type !== 'comma') throw this.unexpected(sep);
    }
  }

  private alias(): string {
    const as = this.expect('ident', "'as'");
    if (as.text !== 'as') throw ODataError.at(OPTION, `expected 'as', found ${describeText(as.text)}`, as.pos);
    const name = this.expect('ident', 'an alias');
    if (!ALIAS.test(name.text)) throw ODataError.at(OPTION, `alias ${describeText(name.text)} must be a name of letters, digits and _`, name.pos);
    // a row's `__proto__` is its prototype: the value would vanish from the answer
    if (name.text === '__proto__') throw ODataError.at(OPTION, "alias '__proto__' is not allowed", name.pos);
    return name.text;
  }
}
