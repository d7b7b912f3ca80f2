/**
 * Compares two OpenAPI documents (3.1 or 3.2 JSON, as compiler/emit/openapi writes them) and lists
 * each change as breaking or compatible for an existing client. Pure: no I/O. Breaking are a
 * removed operation, parameter, field, response or enum value, a narrowed type (inputs) or a widened
 * one (outputs), a new required input and a stricter limit on an input. Other changes to
 * operations, parameters and schemas are compatible; descriptions and examples are ignored.
 */

export type Severity = 'breaking' | 'compatible';

export interface ApiChange {
  readonly severity: Severity;
  /** Where: `GET /api/{env}/Orders`, plus the part (`response 200 application/json`, `parameter query $top`). */
  readonly where: string;
  readonly message: string;
}

type Json = Record<string, unknown>;
type Direction = 'request' | 'response';

/** Operation keys of a Path Item: the fixed methods (QUERY is 3.2) and 3.2's additionalOperations. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local `$ref`s (`#/components/...`) of a document; undefined when it does not resolve. */
function resolver(doc: Json): (node: unknown) => Json | undefined {
  return (node) => {
    let current: unknown = node;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#/')) return undefined;
      current = ref
        .slice(2)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), doc);
    }
    return isObject(current) ? current : undefined;
  };
}

function operationsOf(doc: Json): Map<string, { path: string; method: string; op: Json; pathItem: Json }> {
  const out = new Map<string, { path: string; method: string; op: Json; pathItem: Json }>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [p, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const m of METHODS) if (isObject(item[m])) out.set(`${m.toUpperCase()} ${p}`, { path: p, method: m, op: item[m] as Json, pathItem: item });
    // 3.1 documents written by wharf (openapi-3.1.json) hold them in x-additional-operations and x-query.
    for (const key of ['additionalOperations', 'x-additional-operations']) {
      const extra = isObject(item[key]) ? (item[key] as Json) : {};
      for (const [m, op] of Object.entries(extra)) if (isObject(op)) out.set(`${m.toUpperCase()} ${p}`, { path: p, method: m, op, pathItem: item });
    }
    if (isObject(item['x-query'])) out.set(`QUERY ${p}`, { path: p, method: 'query', op: item['x-query'] as Json, pathItem: item });
  }
  return out;
}

/** Types a schema admits, `integer` folded into `number` where the other side says number. */
function typesOf(schema: Json): Set<string> | null {
  const t = schema.type;
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : null;
  if (list === null) return null;
  const set = new Set(list);
  if (schema.nullable === true) set.add('null');
  return set;
}

const admits = (types: Set<string>, t: string) => types.has(t) || (t === 'integer' && types.has('number'));

/** Lower bounds: a larger value is stricter. Upper bounds: a smaller value is stricter. */
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;

class Differ {
  readonly changes: ApiChange[] = [];
  private readonly active = new Set<string>();
  constructor(
    private readonly baseRef: (n: unknown) => Json | undefined,
    private readonly headRef: (n: unknown) => Json | undefined,
  ) {}

  add(severity: Severity, where: string, message: string): void {
    this.changes.push({ severity, where, message });
  }

  schema(baseNode: unknown, headNode: unknown, dir: Direction, where: string, label: string): void {
    const base = this.baseRef(baseNode);
    const head = this.headRef(headNode);
    if (!base || !head) return;
    // A $ref pair already being compared further up (a recursive schema) is not walked again.
    const refKey = isObject(baseNode) && isObject(headNode) && (baseNode.$ref || headNode.$ref) ? `${dir} ${String(baseNode.$ref)} ${String(headNode.$ref)}` : null;
    if (refKey !== null) {
      if (this.active.has(refKey)) return;
      this.active.add(refKey);
    }
    try {
      this.compare(base, head, dir, where, label);
    } finally {
      if (refKey !== null) this.active.delete(refKey);
    }
  }

  private compare(base: Json, head: Json, dir: Direction, where: string, label: string): void {
    const at = label === '' ? '' : `${label}: `;

    const bt = typesOf(base);
    const ht = typesOf(head);
    if (bt && ht) {
      const lost = [...bt].filter((t) => !admits(ht, t));
      const gained = [...ht].filter((t) => !admits(bt, t));
      if (dir === 'request' && lost.length) this.add('breaking', where, `${at}type narrowed from ${[...bt].join('|')} to ${[...ht].join('|')}`);
      else if (dir === 'response' && gained.length) this.add('breaking', where, `${at}type widened from ${[...bt].join('|')} to ${[...ht].join('|')}`);
      else if (lost.length || gained.length) this.add('compatible', where, `${at}type changed from ${[...bt].join('|')} to ${[...ht].join('|')}`);
    }

    if (Array.isArray(base.enum) && Array.isArray(head.enum)) {
      const hv = new Set(head.enum.map((v) => JSON.stringify(v)));
      const bv = new Set(base.enum.map((v) => JSON.stringify(v)));
      for (const v of bv) if (!hv.has(v)) this.add('breaking', where, `${at}enum value ${v} removed`);
      for (const v of hv) if (!bv.has(v)) this.add('compatible', where, `${at}enum value ${v} added`);
    } else if (!Array.isArray(base.enum) && Array.isArray(head.enum)) {
      this.add(dir === 'request' ? 'breaking' : 'compatible', where, `${at}now restricted to the values ${head.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    }

    if (dir === 'request') {
      for (const k of LOWER) this.limit(base[k], head[k], (b, h) => h > b, where, `${at}${k}`);
      for (const k of UPPER) this.limit(base[k], head[k], (b, h) => h < b, where, `${at}${k}`);
      if (typeof head.pattern === 'string' && head.pattern !== base.pattern) this.add('breaking', where, `${at}pattern is now ${head.pattern}`);
      if (typeof head.format === 'string' && head.format !== base.format) this.add('breaking', where, `${at}format is now ${head.format}`);
    }

    const bp = isObject(base.properties) ? base.properties : {};
    const hp = isObject(head.properties) ? head.properties : {};
    const breq = new Set(Array.isArray(base.required) ? (base.required as string[]) : []);
    const hreq = new Set(Array.isArray(head.required) ? (head.required as string[]) : []);
    for (const name of Object.keys(bp)) {
      const field = `${label === '' ? '' : `${label}.`}${name}`;
      if (!(name in hp)) {
        this.add('breaking', where, `field ${field} removed`);
        continue;
      }
      if (dir === 'request' && hreq.has(name) && !breq.has(name)) this.add('breaking', where, `field ${field} is now required`);
      if (dir === 'response' && breq.has(name) && !hreq.has(name)) this.add('breaking', where, `field ${field} is no longer always present`);
      this.schema(bp[name], hp[name], dir, where, field);
    }
    for (const name of Object.keys(hp)) {
      if (name in bp) continue;
      const field = `${label === '' ? '' : `${label}.`}${name}`;
      if (dir === 'request' && hreq.has(name)) this.add('breaking', where, `new required field ${field}`);
      else this.add('compatible', where, `field ${field} added`);
    }
    if (dir === 'request' && base.additionalProperties !== false && head.additionalProperties === false && Object.keys(bp).length === 0) {
      this.add('breaking', where, `${at}no longer accepts extra fields`);
    }
    if (base.items !== undefined && head.items !== undefined) this.schema(base.items, head.items, dir, where, `${label}[]`);
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
      const b = base[k];
      const h = head[k];
      if (Array.isArray(b) && Array.isArray(h) && b.length === h.length) b.forEach((s, i) => this.schema(s, h[i], dir, where, label));
    }
  }

  private limit(b: unknown, h: unknown, stricter: (b: number, h: number) => boolean, where: string, what: string): void {
    if (typeof h !== 'number') return;
    if (typeof b !== 'number') this.add('breaking', where, `${what} ${h} added`);
    else if (stricter(b, h)) this.add('breaking', where, `${what} changed from ${b} to ${h}`);
    else if (b !== h) this.add('compatible', where, `${what} changed from ${b} to ${h}`);
  }
}

function parameters(resolve: (n: unknown) => Json | undefined, pathItem: Json, op: Json): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const list of [pathItem.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = resolve(raw);
      if (p && typeof p.name === 'string' && typeof p.in === 'string') out.set(`${p.in} ${p.name}`, p);
    }
  }
  return out;
}

function contentOf(resolve: (n: unknown) => Json | undefined, node: unknown): Record<string, Json> {
  const body = resolve(node);
  const content = body && isObject(body.content) ? body.content : {};
  return Object.fromEntries(Object.entries(content).filter((e): e is [string, Json] => isObject(e[1])));
}

/** Every change from `base` to `head`, sorted: breaking first, then by place. */
export function diffOpenApi(base: unknown, head: unknown): ApiChange[] {
  if (!isObject(base) || !isObject(head)) throw new Error('an OpenAPI document must be a JSON object');
  const br = resolver(base);
  const hr = resolver(head);
  const d = new Differ(br, hr);
  const bops = operationsOf(base);
  const hops = operationsOf(head);
  for (const [id, b] of bops) {
    const h = hops.get(id);
    if (!h) {
      d.add('breaking', id, 'operation removed');
      continue;
    }
    // parameters
    const bp = parameters(br, b.pathItem, b.op);
    const hp = parameters(hr, h.pathItem, h.op);
    for (const [key, p] of bp) {
      const q = hp.get(key);
      const where = `${id} parameter ${key}`;
      if (!q) {
        d.add('breaking', where, 'parameter removed');
        continue;
      }
      if (q.required === true && p.required !== true) d.add('breaking', where, 'parameter is now required');
      d.schema(p.schema, q.schema, 'request', where, '');
    }
    for (const [key, q] of hp) {
      if (bp.has(key)) continue;
      d.add(q.required === true ? 'breaking' : 'compatible', `${id} parameter ${key}`, q.required === true ? 'new required parameter' : 'optional parameter added');
    }
    // request body
    const bBody = br(b.op.requestBody);
    const hBody = hr(h.op.requestBody);
    if (hBody && !bBody) d.add(hBody.required === true ? 'breaking' : 'compatible', `${id} request body`, hBody.required === true ? 'new required request body' : 'optional request body added');
    if (bBody && hBody) {
      if (hBody.required === true && bBody.required !== true) d.add('breaking', `${id} request body`, 'request body is now required');
      const bc = contentOf(br, bBody);
      const hc = contentOf(hr, hBody);
      for (const type of Object.keys(bc)) {
        if (!hc[type]) d.add('breaking', `${id} request body`, `media type ${type} no longer accepted`);
        else d.schema(bc[type]!.schema, hc[type]!.schema, 'request', `${id} request body ${type}`, '');
      }
      for (const type of Object.keys(hc)) if (!bc[type]) d.add('compatible', `${id} request body`, `media type ${type} accepted`);
    }
    // responses
    const bres = isObject(b.op.responses) ? b.op.responses : {};
    const hres = isObject(h.op.responses) ? h.op.responses : {};
    for (const status of Object.keys(bres)) {
      const where = `${id} response ${status}`;
      if (!(status in hres)) {
        d.add(/^[23]/.test(status) ? 'breaking' : 'compatible', where, 'response removed');
        continue;
      }
      const bc = contentOf(br, bres[status]);
      const hc = contentOf(hr, hres[status]);
      for (const type of Object.keys(bc)) {
        if (!hc[type]) d.add('breaking', where, `media type ${type} no longer returned`);
        else d.schema(bc[type]!.schema, hc[type]!.schema, 'response', `${where} ${type}`, '');
      }
      for (const type of Object.keys(hc)) if (!bc[type]) d.add('compatible', where, `media type ${type} added`);
    }
    for (const status of Object.keys(hres)) if (!(status in bres)) d.add('compatible', `${id} response ${status}`, 'response added');
  }
  for (const id of hops.keys()) if (!bops.has(id)) d.add('compatible', id, 'operation added');
  const rank = (s: Severity) => (s === 'breaking' ? 0 : 1);
  return d.changes.sort((a, b) => rank(a.severity) - rank(b.severity) || a.where.localeCompare(b.where) || a.message.localeCompare(b.message));
}

export function hasBreaking(changes: readonly ApiChange[]): boolean {
  return changes.some((c) => c.severity === 'breaking');
}

/** One line per change: `breaking    GET /api/{env}/Orders response 200 application/json: field Total removed`. */
export function formatChange(change: ApiChange): string {
  return `${change.severity.padEnd(10)}  ${change.where}: ${change.message}`;
}
