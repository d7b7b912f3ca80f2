/**
 * One upstream call of a step, through the same UpstreamClient as Proxy requests (the referenced
 * endpoint's Url, FallbackUrls, Retry, method rules, network policy and circuit breaker; no HTTP
 * loop back into the gateway). The body is read whole (JSON when it parses, else text), within the
 * request's budget: all step answers of one Composite request together at most
 * Proxy:BufferLimitBytes, the limit of a buffered Proxy answer (they are all kept for the final
 * answer); beyond it the upstream body is cut and the step fails (502). A body that breaks off
 * half-way fails the step too (502, 504 when it stalled). JSON is read with a byte order mark too; a
 * body the endpoint's ResponseTransforms cannot hide fields in fails the step (502), as on the Proxy.
 */
import type { ProxyEndpoint } from '../contract/model.js';
import { classifyError, failureCode } from '../proxy/failover.js';
import type { AttemptFailure } from '../proxy/failover.js';
import { headerText } from '../proxy/proxy-response.js';
import { inspectedBody, isJson, mustInspect, parseJsonText, refusesBody } from '../proxy/response-inspection.js';
import type { UpstreamClient, UpstreamRequest } from '../proxy/upstream-client.js';

export type StepCallResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** Status for the client: the upstream's 4xx but 401/407, else 502 (a 3xx or 5xx; 504 timeout, 403 blocked). */
      readonly status: number;
      readonly upstreamStatus: number | null;
      readonly failures: readonly AttemptFailure[];
      readonly upstreamBody?: string;
    };

const FAILURE_STATUS = { PROXY_TARGET_BLOCKED: 403, PROXY_UPSTREAM_TIMEOUT: 504, PROXY_UPSTREAM_UNAVAILABLE: 502 } as const;

export type StepRequestBase = Omit<UpstreamRequest, 'method' | 'body' | 'target' | 'query' | 'clientHeaders'>;

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE']);

/** Bytes the step answers of one Composite request may still take (starts at Proxy:BufferLimitBytes). */
export interface StepBudget {
  remaining: number;
}

/** The body as text, or null once it took more than the budget has left (the rest is never read). */
async function boundedText(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, budget: StepBudget): Promise<string | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    budget.remaining -= chunk.length;
    if (budget.remaining < 0) {
      body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const UNSHAPED = 'the ResponseTransforms of the endpoint cannot hide its fields in this answer';

/**
 * A failed step's answer for the log (every console role reads it): at most 2,000 characters, with
 * the endpoint's ResponseTransforms applied, or not at all when they cannot be.
 */
function loggedBody(text: string, transforms: ProxyEndpoint['responseTransforms'], declaredJson: boolean, encoded: boolean): string {
  if (!mustInspect(transforms, declaredJson)) return text.slice(0, 2000);
  if (encoded) return `(not logged: ${UNSHAPED})`;
  const shaped = inspectedBody(text, transforms, declaredJson);
  return shaped === 'refuse' ? `(not logged: ${UNSHAPED})` : (shaped ?? text).slice(0, 2000);
}

/**
 * What the client is answered for a step upstream's status of 300 or more: a 4xx as it is, except
 * 401 and 407 (the gateway's credentials toward that upstream were refused, not the caller's
 * token: a 401 from Wharf means the caller's token is missing or invalid), else 502.
 */
function clientStatus(upstream: number): number {
  if (upstream === 401 || upstream === 407) return 502;
  return upstream >= 400 && upstream < 500 ? upstream : 502;
}

export async function callStep(
  client: UpstreamClient,
  endpoint: ProxyEndpoint,
  method: string,
  item: unknown,
  base: StepRequestBase,
  budget: StepBudget,
): Promise<StepCallResult> {
  const body = BODYLESS.has(method) || item === undefined ? undefined : JSON.stringify(item);
  const result = await client.exchange(endpoint, {
    ...base,
    method,
    target: { kind: 'collection' },
    query: '',
    clientHeaders: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body,
  });
  if (!result.ok) {
    return { ok: false, status: FAILURE_STATUS[failureCode(result.failures)], upstreamStatus: null, failures: result.failures };
  }
  const status = result.response.statusCode;
  let text: string | null;
  try {
    text = await boundedText(result.response.body, budget);
  } catch (error) {
    // the upstream broke off (or stalled) in the middle of its body: the step failed, like a Proxy call
    const code = classifyError(error) === 'timeout' ? 'PROXY_UPSTREAM_TIMEOUT' : 'PROXY_UPSTREAM_UNAVAILABLE';
    return { ok: false, status: FAILURE_STATUS[code], upstreamStatus: status, failures: result.failures, upstreamBody: `the body broke off: ${String(error)}`.slice(0, 2000) };
  }
  if (text === null) {
    return { ok: false, status: 502, upstreamStatus: status, failures: result.failures, upstreamBody: 'the answers of this request are larger than Proxy:BufferLimitBytes' };
  }
  const headers = result.response.headers;
  const declaredJson = isJson(headerText(headers['content-type']));
  const encoded = (headerText(headers['content-encoding']) ?? 'identity').trim().toLowerCase() !== 'identity';
  const transforms = endpoint.responseTransforms;
  if (status >= 300) {
    // a redirect is never followed (docs/proxy.md), so the step did not run: a failure, not a null result
    const location = status < 400 ? ` (redirect to ${String(headers['location'] ?? 'nowhere')})` : '';
    return { ok: false, status: clientStatus(status), upstreamStatus: status, failures: result.failures, upstreamBody: `${loggedBody(text, transforms, declaredJson, encoded)}${location}` };
  }
  // the endpoint's Remove/Mask apply to the final answer: a body they cannot be applied to (not
  // JSON but naming a hidden field, declared JSON that does not parse, compressed) fails closed
  // here, as a Proxy call of the endpoint does; the body is not logged (it may hold what is hidden)
  if ((encoded && mustInspect(transforms, declaredJson)) || refusesBody(text, transforms, declaredJson)) {
    return { ok: false, status: 502, upstreamStatus: status, failures: result.failures, upstreamBody: `(not logged: ${UNSHAPED})` };
  }
  if (text === '') return { ok: true, value: null };
  const json = parseJsonText(text);
  return { ok: true, value: json.ok ? json.value : text };
}
