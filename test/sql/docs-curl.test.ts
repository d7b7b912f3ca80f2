/**
 * The curl lines of the docs that say they are run here (a `sh` block after a paragraph naming
 * this file): each is parsed (method, URL, JSON body) and sent to a real server on the embedded
 * demo database (environment `demo`, as `npm start` serves it); it must succeed (2xx,
 * `success: true`). Keeps the documented examples of batch writes, `$apply` and keyset paging true.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSqlTestServer, type SqlTestServer } from './http-server.js';
import { ROOT } from './fixtures.js';

const DOCS = ['docs/sql-writes.md', 'docs/odata.md', 'docs/sql.md'];
const MARK = 'test/sql/docs-curl.test.ts';

/** Shell words of one command: single and double quotes, backslash-newline continuations. */
function words(command: string): string[] {
  const out: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (const ch of command.replace(/\\\n/g, ' ')) {
    if (quote) {
      if (ch === quote) quote = null;
      else word += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) out.push(word);
      word = null;
    } else word = (word ?? '') + ch;
  }
  if (word !== null) out.push(word);
  return out;
}

interface Call { readonly doc: string; readonly method: string; readonly url: string; readonly body: string | undefined; readonly text: string }

function documentedCalls(): Call[] {
  const calls: Call[] = [];
  for (const doc of DOCS) {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    for (let at = text.indexOf(MARK); at >= 0; at = text.indexOf(MARK, at + 1)) {
      const start = text.indexOf('```sh\n', at);
      if (start < 0) break;
      const block = text.slice(start + 6, text.indexOf('```', start + 6));
      const commands = block.replace(/\\\n/g, ' ').split('\n').filter((l) => l.trim().startsWith('curl '));
      for (const command of commands) {
        const w = words(command);
        let method = 'GET';
        let url = '';
        let body: string | undefined;
        const query: string[] = [];
        for (let i = 1; i < w.length; i++) {
          const a = w[i] as string;
          if (a === '-X') method = w[++i] as string;
          else if (a === '-H') i++;
          else if (a === '-d' || a === '--data') body = w[++i];
          else if (a === '--data-urlencode') {
            // curl -G: name=value, the value percent-encoded
            const pair = w[++i] as string;
            const eq = pair.indexOf('=');
            query.push(`${pair.slice(0, eq)}=${encodeURIComponent(pair.slice(eq + 1))}`);
          } else if (a === '-G' || a === '-s') continue;
          else if (!a.startsWith('-')) url = a;
        }
        if (query.length > 0) url += `${url.includes('?') ? '&' : '?'}${query.join('&')}`;
        calls.push({ doc, method, url, body, text: command.trim() });
      }
    }
  }
  return calls;
}

let server: SqlTestServer;
beforeAll(async () => {
  server = await startSqlTestServer('postgres://unused@127.0.0.1:1/x', 1, { logger: false, environments: ['demo'] });
}, 180_000);
afterAll(async () => {
  await server?.close();
});

const CALLS = documentedCalls();

describe(`documented curl lines (${MARK})`, () => {
  it('finds the documented examples', () => {
    expect(CALLS.length).toBeGreaterThanOrEqual(1);
  });

  it.each(CALLS.map((c) => [`${c.doc}: ${c.text.slice(0, 120)}`, c] as const))('%s', async (_name, call) => {
    const u = new URL(call.url);
    expect(u.pathname.startsWith('/api/demo/')).toBe(true);
    const res = await server.app.inject({
      method: call.method as 'GET',
      url: `${u.pathname}${u.search}`,
      headers: { authorization: server.authorization, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(call.body === undefined ? {} : { payload: call.body }),
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((res.json() as { success?: boolean }).success).toBe(true);
  });
});
