/**
 * The seams between compiler/ and runtime/, as a test (issue 24 item 4):
 * - runtime/ never imports compiler/ (nor generated/, scripts/): it reads generated/ as data.
 *   Runtime tests may also use the shared test support under test/.
 * - compiler/ imports only runtime/contract/ from the runtime, except the CLI composition roots
 *   named in COMPOSITION_ROOTS, each with its reason: they wire runtime parts into a command and
 *   are never reached by the build itself; and the edges named in SHARED_CHECKS (build checks that
 *   must refuse exactly what the runtime refuses), each with its reason.
 * - runtime/ imports nothing outside runtime/ but the settings schemas (RUNTIME_OUTSIDE).
 * - compiler/ reads nothing of generated/ but the entity.json types (one type for entity.json:
 *   compiler/model/config.ts is generated/types/config.ts, read-only).
 * - runtime/health/ publishes status changes (HealthMonitor.onChange) and the console subscribes:
 *   health neither imports runtime/admin/ nor names the console.
 * - runtime/admin/ (the console) is handed its view of the gateway (runtime/admin/console-gateway.ts)
 *   and imports neither runtime/wharf-runtime.ts, server.ts nor gateway-handle.ts.
 * - no service locator (issue 24 item 2): areas are handed their dependencies by runtime/server.ts;
 *   runtime/gateway-handle.ts (gatewayOf(app)) is imported only by tests and the composition roots
 *   in GATEWAY_HANDLE_USERS, and no module decorates the fastify instance with a `wharf*` field.
 * - no import cycles (type-only ones included) among the non-test modules of either tree, except
 *   the ones named in KNOWN_CYCLES, each with its reason (a fixed one must leave the list).
 * Imports are read with a regex (static `import`/`export ... from`, `import type`, and `import('...')`
 * with a literal), which is all the two trees use; the parser has its own table below so it cannot
 * silently match nothing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** compiler/ files allowed to import runtime/ beyond runtime/contract/, and why. */
const COMPOSITION_ROOTS: Readonly<Record<string, string>> = {
  'compiler/cli/commands.ts': 'the command table: `wharf token`, `wharf account`, `wharf sync` run the runtime\'s own CLIs against its stores and settings',
  'compiler/cli/serve-command.ts': '`wharf start`/`wharf dev` serve generated/ through the runtime\'s entry point (runtime/main.ts, start.ts, the banner)',
  'compiler/cli/db-command.ts': '`wharf db pull` connects with the runtime\'s SQL drivers and reads the catalogue with its reader, so the snapshot is what the runtime sees',
  'compiler/docs-site/cli.ts': '`wharf docs serve|export` runs the runtime\'s docs-site server and exporter on the docs folder',
};

/**
 * compiler/ modules of the build itself (not CLI roots) allowed to import these runtime modules
 * beyond runtime/contract/, edge by edge, and why. Each is a check that must refuse exactly what the
 * runtime refuses, so it calls the runtime's own parser rather than a copy; moving those parsers
 * under runtime/contract/ is the way to retire an entry (not a small change: see each reason).
 */
const SHARED_CHECKS: Readonly<Record<string, { readonly imports: readonly string[]; readonly reason: string }>> = {
  'compiler/model/normalize-authorization.ts': {
    imports: ['runtime/auth/rules/row-filter.js'],
    reason: 'an Authorization rule\'s RowFilter is parsed at build time by the runtime\'s own $filter parser (row-filter.ts over runtime/sql/odata/: tokenizer, literals, limits, hidden columns, ast; ~700 lines with tests beside, throwing the registry\'s ODataError that the request pipeline answers with), so the build accepts exactly the filters the runtime evaluates; row-filter.ts is the one module the build reaches',
  },
  'compiler/validate/rules/authorization-rules.ts': {
    imports: ['runtime/auth/rules/row-filter.js'],
    reason: 'the same RowFilter parse as a diagnostic (rowFilterProblem): the runtime\'s own message',
  },
};

/** runtime/ modules allowed to import outside runtime/, edge by edge, and why (never compiler/ or generated/). */
const RUNTIME_OUTSIDE: Readonly<Record<string, { readonly imports: readonly string[]; readonly reason: string }>> = {
  'runtime/contract/settings-registry.ts': {
    imports: ['schemas/settings.schema.json', 'schemas/sync/service.schema.json'],
    reason: 'the settings registry is the settings schemas: defaults, ranges and flags are written once, in schemas/ (data shipped with the package, which the runtime already reads for sync.json), not in the compiler',
  },
};

/** Non-test modules allowed to import runtime/gateway-handle.ts, and why. */
const GATEWAY_HANDLE_USERS: Readonly<Record<string, string>> = {
  'runtime/server.ts': 'builds the gateway and attaches it',
  'runtime/index.ts': 'the runtime\'s entry points: embedders reach the gateway they built',
  'runtime/main.ts': 'reads the shutdown timings of the server it started',
  'runtime/serve/banner.ts': 'prints what the started server serves and creates the demo token',
  'runtime/testing/test-server.ts': 'the test server creates its token',
  'compiler/cli/serve-command.ts': '`wharf dev` reloads generated/ after a rebuild',
};

/** Import cycles not broken yet (modules sorted, joined by ' <-> '), and why. None left. */
const KNOWN_CYCLES: Readonly<Record<string, string>> = {};

const IMPORT = /(?:^|[\s;{}(])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?['"]([^'"\n]+)['"]|\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g;

/** Module specifiers imported by a source text (comments are not stripped: the trees do not quote imports in comments). */
export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => (m[1] ?? m[2])!);
}

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** Every relative import of every .ts file under `top`, resolved to a path from the repository root. */
function edges(top: string): Edge[] {
  const out: Edge[] = [];
  for (const entry of readdirSync(path.join(ROOT, top), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(m?ts|tsx)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
    const abs = path.join(entry.parentPath, entry.name);
    const from = path.relative(ROOT, abs).split(path.sep).join('/');
    for (const spec of importsOf(readFileSync(abs, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      out.push({ from, to: path.relative(ROOT, path.resolve(path.dirname(abs), spec)).split(path.sep).join('/') });
    }
  }
  return out;
}

/** The module a resolved import names (`x.js` is the source `x.ts`), or null when none exists. */
function moduleFile(to: string): string | null {
  return [to.replace(/\.js$/, '.ts'), to.replace(/\.js$/, '.tsx'), to].find((f) => existsSync(path.join(ROOT, f))) ?? null;
}

/** Strongly connected components of more than one module (Tarjan), each sorted. */
function cycles(list: readonly Edge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const e of list) {
    const to = moduleFile(e.to);
    if (to !== null) graph.set(e.from, [...(graph.get(e.from) ?? []), to]);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

const isTest = (file: string): boolean => /\.test\.tsx?$/.test(file);
const format = (list: readonly Edge[]): string => list.map((e) => `  ${e.from} -> ${e.to}`).join('\n');

describe('import graph', () => {
  it.each([
    ["import { a } from './a.js';", ['./a.js']],
    ["import type { B } from '../b.js';", ['../b.js']],
    ["export * from './c.js';", ['./c.js']],
    ["export { d, type E } from './d.js';", ['./d.js']],
    ["import './side-effect.js';", ['./side-effect.js']],
    ["const { f } = await import('../../runtime/f.js');", ['../../runtime/f.js']],
    ["import {\n  g,\n  h,\n} from './gh.js';", ['./gh.js']],
    ["import x, { y } from 'pkg';", ['pkg']],
    ["const s = 'import nothing';", []],
  ])('reads the imports of %j', (source, want) => {
    expect(importsOf(source)).toEqual(want);
  });

  it('sees the edges it checks (runtime -> runtime/contract, compiler -> runtime/contract)', () => {
    expect(edges('runtime').some((e) => e.to.startsWith('runtime/contract/'))).toBe(true);
    expect(edges('compiler').some((e) => e.to.startsWith('runtime/contract/'))).toBe(true);
  });

  it('every relative import names a file that exists (a moved module leaves no dangling import)', () => {
    const exists = (to: string): boolean =>
      [to, to.replace(/\.js$/, '.ts'), to.replace(/\.js$/, '.tsx'), to.replace(/\.mjs$/, '.mts')].some((f) => existsSync(path.join(ROOT, f)));
    const dangling = [...edges('runtime'), ...edges('compiler')].filter((e) => !exists(e.to));
    expect(dangling, `imports of files that do not exist:\n${format(dangling)}`).toEqual([]);
  });

  it('finds a cycle when there is one (the check can fail)', () => {
    expect(cycles([{ from: 'runtime/contract/index.ts', to: 'runtime/contract/manifest.js' }, { from: 'runtime/contract/manifest.ts', to: 'runtime/contract/index.js' }])).toEqual([
      ['runtime/contract/index.ts', 'runtime/contract/manifest.ts'],
    ]);
  });

  it('has no import cycles but the named ones', () => {
    const found = cycles([...edges('runtime'), ...edges('compiler')].filter((e) => !isTest(e.from))).map((c) => c.join(' <-> '));
    const unknown = found.filter((c) => KNOWN_CYCLES[c] === undefined);
    expect(unknown, `import cycles (break them, e.g. move the shared type into its own module):\n${unknown.join('\n')}`).toEqual([]);
    const gone = Object.keys(KNOWN_CYCLES).filter((c) => !found.includes(c));
    expect(gone, 'cycles that are broken now: remove them from KNOWN_CYCLES').toEqual([]);
  });

  it('compiler/ reads of generated/ only the entity.json types (compiler/model/config.ts), nothing else of a build', () => {
    const reads = edges('compiler').filter((e) => e.to.startsWith('generated/') && !isTest(e.from));
    expect(reads.filter((e) => !(e.from === 'compiler/model/config.ts' && e.to === 'generated/types/config.js')).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    expect(reads.length).toBe(1);
  });

  it('health publishes and knows no reader: runtime/health/ neither imports the console nor names it', () => {
    const health = edges('runtime').filter((e) => e.from.startsWith('runtime/health/') && !isTest(e.from));
    expect(health.filter((e) => e.to.startsWith('runtime/admin/')).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    const naming = [...new Set(health.map((e) => e.from))].filter((file) => readFileSync(path.join(ROOT, file), 'utf8').includes('wharfConsole'));
    expect(naming, 'runtime/health/ files that reach into the console (publish through HealthMonitor.onChange instead)').toEqual([]);
  });

  it('the console is handed its slice: runtime/admin/ imports neither the gateway object (wharf-runtime.ts) nor server.ts', () => {
    const whole = ['runtime/wharf-runtime.js', 'runtime/server.js', 'runtime/gateway-handle.js'];
    const admin = edges('runtime').filter((e) => e.from.startsWith('runtime/admin/') && !isTest(e.from));
    expect(admin.some((e) => e.to === 'runtime/admin/console-gateway.js'), 'the console states what it uses of the gateway in console-gateway.ts').toBe(true);
    expect(admin.filter((e) => whole.includes(e.to)).map((e) => `${e.from} -> ${e.to}`), 'hand the console what it uses through ConsoleGateway (runtime/admin/console-gateway.ts)').toEqual([]);
  });

  it('no service locator: gatewayOf(app) only in tests and the named composition roots, no `wharf*` instance decoration', () => {
    const users = [...edges('runtime'), ...edges('compiler')]
      .filter((e) => e.to === 'runtime/gateway-handle.js' && !isTest(e.from) && !e.from.startsWith('test/'))
      .map((e) => e.from);
    expect(users.filter((file) => GATEWAY_HANDLE_USERS[file] === undefined), 'modules reaching the gateway through gatewayOf (hand them their dependencies instead)').toEqual([]);
    expect(Object.keys(GATEWAY_HANDLE_USERS).filter((file) => !users.includes(file)), 'GATEWAY_HANDLE_USERS entries no longer used: remove them').toEqual([]);
    const decorating = [...new Set(edges('runtime').map((e) => e.from))]
      .filter((file) => !isTest(file) && /\bdecorate\(\s*'wharf/.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(decorating, 'modules decorating fastify with a wharf* field (pass the value to the areas that need it)').toEqual([]);
  });

  it('runtime/ imports nothing outside runtime/ (its tests may also use test/)', () => {
    const outside = edges('runtime').filter((e) => !e.to.startsWith('runtime/') && !(isTest(e.from) && e.to.startsWith('test/')));
    const violations = outside.filter((e) => !RUNTIME_OUTSIDE[e.from]?.imports.includes(e.to));
    expect(violations, `runtime/ must not import these (the runtime never imports the compiler):\n${format(violations)}`).toEqual([]);
    const unused = Object.entries(RUNTIME_OUTSIDE).flatMap(([from, a]) => a.imports.filter((to) => !outside.some((e) => e.from === from && e.to === to)).map((to) => `${from} -> ${to}`));
    expect(unused, 'allowances in RUNTIME_OUTSIDE no longer used: remove them').toEqual([]);
    expect(Object.values(RUNTIME_OUTSIDE).flatMap((a) => a.imports).filter((to) => /^(compiler|generated)\//.test(to))).toEqual([]);
  });

  it('compiler/ imports only runtime/contract/ from the runtime, except the named composition roots', () => {
    const all = edges('compiler').filter((e) => e.to.startsWith('runtime/') && !e.to.startsWith('runtime/contract/'));
    const violations = all.filter((e) => COMPOSITION_ROOTS[e.from] === undefined && !SHARED_CHECKS[e.from]?.imports.includes(e.to));
    expect(violations, `compiler/ may import only runtime/contract/ (or be named in COMPOSITION_ROOTS or SHARED_CHECKS with a reason):\n${format(violations)}`).toEqual([]);
    const unused = Object.keys(COMPOSITION_ROOTS).filter((file) => !all.some((e) => e.from === file));
    expect(unused, 'composition roots that no longer import the runtime: remove them from COMPOSITION_ROOTS').toEqual([]);
    const unusedChecks = Object.entries(SHARED_CHECKS).flatMap(([from, a]) => a.imports.filter((to) => !all.some((e) => e.from === from && e.to === to)).map((to) => `${from} -> ${to}`));
    expect(unusedChecks, 'allowances in SHARED_CHECKS no longer used: remove them').toEqual([]);
  });
});
