/** Which lines of a docs page examples.test.ts runs, what output it expects, and the opt-out markers. */
import { describe, expect, it } from 'vitest';
import { extractExamples, parseOutput, shapeDifferences, splitComment } from './doc-examples.js';

const fence = '```';

describe('extractExamples', () => {
  it('runs sh, bash and console blocks; joins continued lines; drops comments, placeholders and the demo start', () => {
    const page = [
      `${fence}sh`,
      'npm install && npm start   # the demo',
      'TOKEN=...                  # printed by npm start',
      'curl -H "Authorization: Bearer $TOKEN" \\',
      '  http://127.0.0.1:8080/api/demo/Weather   # the weather',
      "curl -d '{",
      '  "a": 1',
      "}' http://127.0.0.1:8080/x",
      fence,
      '',
      fence,
      'wharf build        # an untagged block is not run',
      fence,
      `${fence}text`,
      'curl http://127.0.0.1:8080/not-run',
      fence,
      `${fence}console`,
      '$ npx wharf token list',
      '1 demo',
      fence,
      `${fence}json`,
      '{"curl": 1}',
      fence,
    ].join('\n');
    const { examples, problems } = extractExamples('docs/x.md', page);
    expect(problems).toEqual([]);
    expect(examples.map((e) => [e.line, e.kind, e.command, e.block])).toEqual([
      [4, 'curl', 'curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/api/demo/Weather', 0],
      [6, 'curl', "curl -d '{\n  \"a\": 1\n}' http://127.0.0.1:8080/x", 0],
      [18, 'cli', 'npx wharf token list', 1],
    ]);
  });

  it('ends a block only at a fence without an info string (CommonMark), as in a Markdown sample', () => {
    const page = [
      `${fence}markdown`,
      `${fence}sh`,
      'curl http://127.0.0.1:8080/inside-a-sample',
      fence,
      'curl http://127.0.0.1:8080/prose',
      `${fence}sh`,
      'npx wharf docs build',
      fence,
    ].join('\n');
    expect(extractExamples('docs/x.md', page).examples.map((e) => [e.line, e.command])).toEqual([[7, 'npx wharf docs build']]);
  });

  it('reads the output shown below or beside a command, with a status and continued lines; several are alternatives', () => {
    const page = [
      `${fence}sh`,
      'curl http://127.0.0.1:8080/ui/api/auth',
      '# {"ok":true}     (signed in)',
      '# {"ok":false,"must_change_password":true}',
      'curl -X POST http://127.0.0.1:8080/ui/api/tokens',
      '# 201 {"ok":true,"token":{"token":"whf_...",',
      '#  "username":"bi"}}',
      'curl http://127.0.0.1:8080/ui/api/tokens/2/audit',
      '# [{"operation":"Revoked"}, ...]',
      'curl -X DELETE http://127.0.0.1:8080/ui/api/tokens/2   # {"ok":true}',
      '# 2. then sign out',
      'curl http://127.0.0.1:8080/ui/api/overview',
      fence,
    ].join('\n');
    const { examples, problems } = extractExamples('docs/x.md', page);
    expect(problems).toEqual([]);
    expect(examples.map((e) => e.expected.map((x) => [x.status, x.json]))).toEqual([
      [[undefined, { ok: true }], [undefined, { ok: false, must_change_password: true }]],
      [[201, { ok: true, token: { token: 'whf_...', username: 'bi' } }]],
      [[undefined, [{ operation: 'Revoked' }]]],
      [[undefined, { ok: true }]],
      [],
    ]);
  });

  it('reports shown output that is not JSON instead of ignoring it', () => {
    const page = [`${fence}sh`, 'curl http://127.0.0.1:8080/a', '# {"ok": tru', fence].join('\n');
    expect(extractExamples('docs/x.md', page).problems).toEqual([{ file: 'docs/x.md', line: 2, message: 'the output shown below the command is not JSON: {"ok": tru' }]);
  });

  it('skips a block or the lines a marker in the info string names, each with its reason', () => {
    const page = [
      `${fence}sh example: skip "npm test" (runs the whole suite); skip "docker" (no container engine; none here)`,
      'npm test',
      'docker build -t wharf .',
      'npx wharf docs build',
      fence,
      `${fence}bash example: skip (installs packages)`,
      'npm install left-pad',
      fence,
    ].join('\n');
    const { examples, skipped, problems } = extractExamples('docs/x.md', page);
    expect(problems).toEqual([]);
    expect(examples.map((e) => e.command)).toEqual(['npx wharf docs build']);
    expect(skipped).toEqual([
      { file: 'docs/x.md', line: 2, command: 'npm test', reason: 'runs the whole suite' },
      { file: 'docs/x.md', line: 3, command: 'docker build -t wharf .', reason: 'no container engine; none here' },
      { file: 'docs/x.md', line: 7, command: 'npm install left-pad', reason: 'installs packages' },
    ]);
  });

  it('reports a marker without a reason, an unknown one, and one that skips nothing', () => {
    const page = [
      `${fence}sh example: skip`,
      'npm test',
      fence,
      `${fence}sh example: run twice`,
      'npm test',
      fence,
      `${fence}sh example: skip "docker" (no container engine)`,
      'npm test',
      fence,
      `${fence}text example: skip (not run anyway)`,
      'x',
      fence,
    ].join('\n');
    expect(extractExamples('docs/x.md', page).problems.map((p) => [p.line, p.message])).toEqual([
      [1, 'an example opt-out must name its reason: example: skip (reason)'],
      [4, "unknown example marker 'run twice' (expected: skip [\"prefix\"] (reason))"],
      [7, 'example opt-out skips nothing (no line starts with "docker")'],
      [10, 'example opt-out skips nothing (not an sh, bash or console block)'],
    ]);
  });
});

describe('splitComment', () => {
  const cases: Array<[string, { given: string; want: ReturnType<typeof splitComment> }]> = [
    ['a trailing comment', { given: 'npm test   # all', want: { code: 'npm test', comment: 'all', open: false } }],
    ['# inside quotes is not one', { given: `curl -d '{"a":"#1"}' x`, want: { code: `curl -d '{"a":"#1"}' x`, open: false } }],
    ['# inside a word is not one', { given: 'curl http://h/#frag', want: { code: 'curl http://h/#frag', open: false } }],
    ['an open quote', { given: "curl -d '{", want: { code: "curl -d '{", open: true } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => expect(splitComment(given)).toEqual(want));
});

describe('parseOutput', () => {
  it('reads a status and JSON, drops a parenthesised note, and is undefined for prose', () => {
    expect(parseOutput('404 {"error":"Not found"}  (no such token)')).toEqual({ status: 404, json: { error: 'Not found' }, text: '404 {"error":"Not found"}  (no such token)' });
    expect(parseOutput('the primary answers 503: retried')).toBeUndefined();
    expect(parseOutput('retry: 3000')).toBeUndefined();
  });
});

describe('shapeDifferences', () => {
  const cases: Array<[string, { shown: unknown; actual: unknown; want: string[] }]> = [
    ['illustrative values pass', { shown: { version: '0.1.0+abc', n: 9 }, actual: { version: '0.2.0', n: 1, more: true }, want: [] }],
    ['a missing key', { shown: { ok: true, token: { id: 3 } }, actual: { ok: true, token: {} }, want: ['$.token.id: missing'] }],
    ['another boolean', { shown: { ok: true }, actual: { ok: false }, want: ['$.ok: expected true, got false'] }],
    ['arrays: the first element', { shown: [{ operation: 'x' }], actual: [{ op: 'y' }], want: ['$[0].operation: missing'] }],
    ['not an object', { shown: { ok: true }, actual: [], want: ['$: expected an object'] }],
  ];
  it.each(cases)('%s', (_name, { shown, actual, want }) => expect(shapeDifferences(shown, actual)).toEqual(want));
});
