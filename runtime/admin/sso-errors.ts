/**
 * Errors of the two single sign-on routes a browser navigates to (/ui/api/auth/oidc/start and
 * /callback): a browser (Accept: text/html) gets a small page with the same status, the reason and
 * a way back to the sign-in page, instead of a JSON body it would print raw; a script still gets
 * the console's JSON body. And which provider failures mean "unreachable" (503, try again) rather
 * than "refused" (401): a connection refused, reset or timed out, or a 5xx from the provider.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../docs-site/escape.js';
import { withErrorStatus } from '../errors/error-handler.js';
import { WharfError } from '../errors/wharf-error.js';
import { answerConsoleError, loggedConsoleError } from './console-errors.js';

const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_)/;

/** True when `error` (or a cause of it) says the provider could not be reached or failed itself. */
export function providerUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && current !== undefined; depth++) {
    if (current instanceof Response) return current.status >= 500;
    if (typeof current !== 'object') return false;
    const e = current as { name?: unknown; message?: unknown; code?: unknown; status?: unknown; cause?: unknown };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (current instanceof TypeError && e.message === 'fetch failed') return true;
    if (typeof e.code === 'string' && NETWORK_CODES.test(e.code)) return true;
    if (typeof e.status === 'number' && e.status >= 500) return true;
    current = e.cause;
  }
  return false;
}

function wantsPage(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/html');
}

function page(status: number, message: string, traceId: string | null): string {
  const trace = traceId ? `<p class="trace">Trace id: <code>${escapeHtml(traceId)}</code></p>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed - Wharf</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2328}h1{font-size:1.4rem}.status{color:#57606a}a{color:#0969da}</style>
</head><body><main>
<h1>Single sign-on did not complete</h1>
<p class="status">${status}</p>
<p id="reason">${escapeHtml(message)}</p>
${trace}<p><a href="/ui/">Back to the sign-in page</a></p>
</main></body></html>
`;
}

/** Route error handler of the browser-facing single sign-on routes. */
export function answerSignInError(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (!wantsPage(request)) return answerConsoleError(error, request, reply);
  const response = loggedConsoleError(error, request);
  const message = error instanceof WharfError && error.status === response.status ? error.message : response.body.error;
  withErrorStatus(reply, response).header('cache-control', 'no-store');
  reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  return reply.type('text/html; charset=utf-8').send(page(response.status, message, response.internal ? String(response.body.traceId ?? '') : null));
}
