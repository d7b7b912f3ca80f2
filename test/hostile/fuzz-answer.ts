/**
 * What the generated hostile requests (odata-fuzz, write-fuzz) send and check: one request through
 * the server's inject, and its answer held to the invariants: never a 5xx, JSON, the spec's error
 * body on every 4xx, and no database or runtime internals in the text.
 */
import type { FastifyInstance } from 'fastify';

/** What a leak of database or runtime internals looks like in a response body. */
export const LEAK = /syntax error at or near|relation "|column "[^"]*" does not exist|\bSELECT\b[\s\S]*\bFROM\b|SQLSTATE|\bERROR: |\n\s+at |node_modules|\.ts:\d+/;

export interface GeneratedRequest {
  readonly method: string;
  /** Below `/api/{env}/`. */
  readonly url: string;
  /** JSON text; sent with Content-Type: application/json. */
  readonly body?: string;
}

function parsed(text: string): { success?: unknown; error?: unknown } | null {
  try {
    return JSON.parse(text) as { success?: unknown; error?: unknown };
  } catch {
    return null;
  }
}

/** Sends `r` and adds every broken invariant to `failures`; resolves with the status. */
export async function sendAndCheck(app: FastifyInstance, authorization: string, env: string, r: GeneratedRequest, failures: string[]): Promise<number> {
  const res = await app.inject({
    method: r.method as 'GET',
    url: `/api/${env}/${r.url}`,
    headers: { authorization, ...(r.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(r.body !== undefined ? { payload: r.body } : {}),
  });
  const what = `${r.method} ${r.url} ${r.body ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
  const json = parsed(res.body);
  if (json === null) failures.push(`not JSON: ${what}`);
  if (res.statusCode >= 500) failures.push(what);
  else if (res.statusCode >= 400 && (json?.success !== false || typeof json.error !== 'string')) failures.push(`not the error body: ${what}`);
  if (LEAK.test(res.body)) failures.push(`leak: ${what}`);
  return res.statusCode;
}
