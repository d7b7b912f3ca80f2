/**
 * Recursive-descent parser for `$filter`:
 *   or    := and ('or' and)*
 *   and   := unary ('and' unary)*
 *   unary := 'not' unary | '(' or ')' | match [('eq'|'ne') bool] | value (cmp value | 'in' list)?
 *   value := literal | member | fn '(' value (',' value)* ')'
 * Every member is resolved against the allow-list while parsing, so errors carry positions.
 */
import {
  COMPARE_OPS, VALUE_FUNCTIONS,
  type BoolExpr, type CompareOp, type FilterExpr, type Literal, type Member, type ValueExpr, type ValueFunction,
} from './ast.js';
import { ODataError, describeText } from './errors.js';
import { ODATA_LIMITS } from './limits.js';
import { assertVisible, NO_HIDDEN, type HiddenColumns } from './hidden-columns.js';
import { literalFromToken } from './literals.js';
import { placed } from './positions.js';
import { tokenize, type Token } from './tokenizer.js';

/** exposed name -> db column. Looked up with own-property checks only. */
export type ColumnMap = Readonly<Record<string, string>>;

const OPTION = '$filter';
const MATCH_FNS = new Set(['contains', 'startswith', 'endswith']);
const ARITY: Readonly<Record<ValueFunction, number>> = {
  tolower: 1, toupper: 1, trim: 1, length: 1, indexof: 2,
  year: 1, month: 1, day: 1, hour: 1, minute: 1, second: 1, date: 1, time: 1,
};
const STRING_ARGS = new Set<ValueFunction>(['tolower', 'toupper', 'trim', 'length', 'indexof']);
const TEMPORAL_ARGS = new Set<ValueFunction>(['year', 'month', 'day', 'hour', 'minute', 'second', 'date', 'time']);
const RESERVED = new Set(['and', 'or', 'not', 'in', ...COMPARE_OPS]);

export function resolveMember(columns: ColumnMap, name: string): string | undefined {
  return Object.hasOwn(columns, name) ? columns[name] : undefined;
}

/**
 * `offset`: characters before `text` in the option value it came from (`$apply`'s filter(...)), so
 * the positions kept for later messages (positions.ts) count in that value.
 */
export function parseFilter(text: string, columns: ColumnMap, hidden: HiddenColumns = NO_HIDDEN, offset = 0): FilterExpr {
  return new FilterParser(tokenize(OPTION, text), columns, hidden, offset).parseAll();
}

class FilterParser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Token[],
    private readonly columns: ColumnMap,
    private readonly hidden: HiddenColumns,
    private readonly offset: number,
  ) {}

  parseAll(): FilterExpr {
    if (this.peek().type === 'eof') throw new ODataError(`${OPTION}: empty expression`);
    const expr = this.parseOr();
    const t = this.peek();
    if (t.type !== 'eof') throw this.unexpected(t);
    return expr;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.i + offset, this.tokens.length - 1)] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.type !== 'eof') this.i++;
    return t;
  }

  private isWord(t: Token, word: string): boolean {
    return t.type === 'ident' && t.text === word;
  }

  private unexpected(t: Token): ODataError {
    if (t.type === 'eof') return ODataError.at(OPTION, 'unexpected end of expression', t.pos);
    const shown = t.type === 'string' ? `string ${describeText(t.text)}` : describeText(t.text);
    return ODataError.at(OPTION, `unexpected ${shown}`, t.pos);
  }

  private expect(type: Token['type'], what: string): Token {
    const t = this.peek();
    if (t.type !== type) {
      if (t.type === 'eof') throw ODataError.at(OPTION, `expected ${what}, found end of expression`, t.pos);
      throw ODataError.at(OPTION, `expected ${what}, found ${describeText(t.text)}`, t.pos);
    }
    return this.next();
  }

  private enter(t: Token): void {
    if (++this.depth > ODATA_LIMITS.maxDepth) {
      throw ODataError.at(OPTION, `nesting deeper than ${ODATA_LIMITS.maxDepth}`, t.pos);
    }
  }

  private parseOr(): BoolExpr {
    let left = this.parseAnd();
    while (this.isWord(this.peek(), 'or')) {
      this.next();
      left = { kind: 'logical', op: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): BoolExpr {
    let left = this.parseUnary();
    while (this.isWord(this.peek(), 'and')) {
      this.next();
      left = { kind: 'logical', op: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): BoolExpr {
    const t = this.peek();
    if (this.isWord(t, 'not')) {
      this.next();
      this.enter(t);
      const operand = this.parseUnary();
      this.depth--;
      return { kind: 'not', operand };
    }
    if (t.type === 'lparen') {
      this.next();
      this.enter(t);
      const inner = this.parseOr();
      this.expect('rparen', "')'");
      this.depth--;
      return inner;
    }
    if (t.type === 'ident' && MATCH_FNS.has(t.text) && this.peek(1).type === 'lparen') return this.parseMatch();
    return this.parseComparison();
  }

  private parseMatch(): BoolExpr {
    const fnTok = this.next();
    this.enter(fnTok);
    this.next(); // (
    const operand = this.parseValue();
    this.expect('comma', `',' (${fnTok.text} takes 2 arguments)`);
    const pat = this.peek();
    if (pat.type !== 'string') {
      throw ODataError.at(OPTION, `${fnTok.text}: second argument must be a string literal`, pat.pos);
    }
    literalFromToken(OPTION, pat); // the same checks as any string literal (no NUL)
    this.next();
    this.expect('rparen', `')' (${fnTok.text} takes 2 arguments)`);
    this.depth--;
    const match: BoolExpr = {
      kind: 'match', fn: fnTok.text as 'contains' | 'startswith' | 'endswith', operand, pattern: pat.text,
    };
    const op = this.peek();
    if (this.isWord(op, 'eq') || this.isWord(op, 'ne')) {
      this.next();
      const b = this.next();
      const lit = literalFromToken(OPTION, b);
      if (!lit || lit.type !== 'boolean') throw ODataError.at(OPTION, `${fnTok.text}(...) can only be compared with true or false`, b.pos);
      return lit.value === (op.text === 'eq') ? match : { kind: 'not', operand: match };
    }
    return match;
  }

  private parseComparison(): BoolExpr {
    const start = this.peek();
    const left = this.parseValue();
    const opTok = this.peek();
    if (opTok.type === 'ident' && (COMPARE_OPS as readonly string[]).includes(opTok.text)) {
      this.next();
      const rightTok = this.peek();
      const right = this.parseValue();
      return this.compare(opTok.text as CompareOp, left, right, start, rightTok);
    }
    if (this.isWord(opTok, 'in')) {
      this.next();
      return { kind: 'in', operand: left, items: this.parseInList() };
    }
    if (left.kind === 'member') {
      // A bare (boolean) column: `$filter=Discontinued` means `Discontinued eq true`.
      if (opTok.type === 'eof' || opTok.type === 'rparen' || this.isWord(opTok, 'and') || this.isWord(opTok, 'or')) {
        return { kind: 'compare', op: 'eq', left, right: { kind: 'literal', type: 'boolean', value: true } };
      }
    }
    if (opTok.type === 'eof') throw ODataError.at(OPTION, 'expected a comparison operator, found end of expression', opTok.pos);
    throw ODataError.at(OPTION, `expected a comparison operator, found ${describeText(opTok.text)}`, opTok.pos);
  }

  private compare(op: CompareOp, left: ValueExpr, right: ValueExpr, start: Token, rightTok: Token): BoolExpr {
    if (left.kind === 'literal' && right.kind === 'literal') {
      throw ODataError.at(OPTION, 'a comparison needs a column or function on one side', start.pos);
    }
    const nullSide = left.kind === 'literal' && left.type === 'null' ? start : right.kind === 'literal' && right.type === 'null' ? rightTok : null;
    if (nullSide && op !== 'eq' && op !== 'ne') {
      throw ODataError.at(OPTION, `null can only be compared with eq or ne`, nullSide.pos);
    }
    return { kind: 'compare', op, left, right };
  }

  private parseInList(): Literal[] {
    const open = this.expect('lparen', "'(' after in");
    const items: Literal[] = [];
    for (;;) {
      const t = this.next();
      const lit = literalFromToken(OPTION, t);
      if (!lit || lit.type === 'null') {
        throw ODataError.at(OPTION, lit ? 'null is not allowed in an in list' : `expected a literal in the in list, found ${t.type === 'eof' ? 'end of expression' : describeText(t.text)}`, t.pos);
      }
      items.push(lit);
      if (items.length > ODATA_LIMITS.maxInItems) {
        throw ODataError.at(OPTION, `in list longer than ${ODATA_LIMITS.maxInItems} items`, open.pos);
      }
      const sep = this.next();
      if (sep.type === 'rparen') return items;
      if (sep.type !== 'comma') throw sep.type === 'eof' ? ODataError.at(OPTION, "expected ')', found end of expression", sep.pos) : ODataError.at(OPTION, `expected ',' or ')', found ${describeText(sep.text)}`, sep.pos);
    }
  }

  private parseValue(): ValueExpr {
    const t = this.peek();
    if (t.type === 'ident' && t.text === 'guid' && this.peek(1).type === 'string') {
      this.next();
      const s = this.next();
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s.text)) {
        throw ODataError.at(OPTION, `invalid guid ${describeText(s.text)}`, s.pos);
      }
      return placed({ kind: 'literal', type: 'guid', value: s.text.toLowerCase() }, t.pos + this.offset);
    }
    const lit = literalFromToken(OPTION, t);
    if (lit) {
      this.next();
      return placed(lit, t.pos + this.offset);
    }
    if (t.type !== 'ident' || RESERVED.has(t.text)) throw this.unexpected(t);
    if (this.peek(1).type === 'lparen') return this.parseCall();
    this.next();
    return this.member(t);
  }

  private member(t: Token): Member {
    const column = resolveMember(this.columns, t.text);
    if (column === undefined) throw ODataError.unknownColumn(OPTION, describeText(t.text), t.pos);
    assertVisible(this.hidden, t.text, OPTION, 'filtered on', t.pos);
    return placed({ kind: 'member', name: t.text, column }, t.pos + this.offset);
  }

  private parseCall(): ValueExpr {
    const fnTok = this.next();
    const fn = fnTok.text;
    if (MATCH_FNS.has(fn)) throw ODataError.at(OPTION, `${fn}(...) returns a boolean and cannot be used as a value`, fnTok.pos);
    if (!(VALUE_FUNCTIONS as readonly string[]).includes(fn)) {
      throw ODataError.at(OPTION, `unknown function ${describeText(fn)}`, fnTok.pos);
    }
    const name = fn as ValueFunction;
    this.enter(fnTok);
    this.next(); // (
    const args: ValueExpr[] = [];
    if (this.peek().type !== 'rparen') {
      for (;;) {
        const argTok = this.peek();
        const arg = this.parseValue();
        this.checkArg(name, arg, argTok);
        args.push(arg);
        if (this.peek().type !== 'comma') break;
        this.next();
      }
    }
    const close = this.expect('rparen', "')'");
    this.depth--;
    if (args.length !== ARITY[name]) {
      throw ODataError.at(OPTION, `${name} takes ${ARITY[name]} argument${ARITY[name] === 1 ? '' : 's'}, got ${args.length}`, close.pos);
    }
    return placed({ kind: 'call', fn: name, args }, fnTok.pos + this.offset);
  }

  private checkArg(fn: ValueFunction, arg: ValueExpr, t: Token): void {
    if (arg.kind !== 'literal') return;
    const ok = STRING_ARGS.has(fn)
      ? arg.type === 'string'
      : TEMPORAL_ARGS.has(fn) && ['date', 'datetime', 'time'].includes(arg.type);
    if (!ok) throw ODataError.at(OPTION, `${fn}: argument of the wrong type`, t.pos);
  }
}
