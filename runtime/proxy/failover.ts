/**
 * The spec's retry and failover rules:
 *  1. the primary URL first; a connection failure, a timeout, or a 502/503/504 response triggers
 *     the next attempt; any other response passes through unchanged;
 *  2. each URL gets `attempts` tries, `delayMs` apart;
 *  3. without FallbackUrls and Retry, exactly one attempt.
 * Beyond the spec: a URL the network policy blocks, or whose circuit is open, is skipped at once;
 * a request whose body could not be kept for replay gets one attempt in total.
 * Circuits are per endpoint and origin (`plan.circuit` + origin), and only connection failures and
 * timeouts count: an upstream that answers (even 502/503/504, which a caller can provoke with a
 * query of its choosing) is up. So a caller can never open the circuit of another endpoint, and
 * can open its own endpoint's only by making the upstream stop answering.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { BLOCKED_CODE } from './upstream-agent.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import type { NetworkPolicy } from './network-policy.js';
import { partsOf } from './target-url.js';

export type FailureKind = 'connection' | 'timeout' | 'status' | 'blocked' | 'circuit-open';

export interface AttemptFailure {
  readonly url: string;
  readonly kind: FailureKind;
  readonly detail: string;
  /** Upstream status for kind `status`. */
  readonly status?: number;
}

export interface FailoverPlan {
  /** The circuit breaker's key prefix: the endpoint id (one circuit per endpoint and origin). */
  readonly circuit: string;
  readonly urls: readonly URL[];
  readonly attempts: number;
  readonly delayMs: number;
  /** false: one attempt in total (the body could not be kept for a replay). */
  readonly replayable: boolean;
}

export type FailoverResult =
  | { readonly ok: true; readonly response: Dispatcher.ResponseData; readonly url: URL; readonly failures: readonly AttemptFailure[]; readonly sent: number }
  | { readonly ok: false; readonly failures: readonly AttemptFailure[]; readonly sent: number };

export interface FailoverDeps {
  readonly breaker: CircuitBreaker;
  readonly policy: NetworkPolicy;
  readonly signal?: AbortSignal | undefined;
}

const TRANSIENT_STATUS = new Set([502, 503, 504]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function classifyError(error: unknown): 'connection' | 'timeout' | 'blocked' {
  const codes = codesOf(error);
  if (codes.includes(BLOCKED_CODE)) return 'blocked';
  if (codes.some((code) => TIMEOUT_CODES.has(code))) return 'timeout';
  return 'connection';
}

/**
 * The attempts in order, as plain callbacks (no async frame per request): the usual request, whose
 * first attempt answers, costs the one `.then` on the upstream's answer.
 */
export function withFailover(
  plan: FailoverPlan,
  send: (url: URL) => Promise<Dispatcher.ResponseData>,
  deps: FailoverDeps,
): Promise<FailoverResult> {
  return new Attempts(plan, send, deps).next();
}

/** The key of the last attempt's circuit: almost every request repeats it (no string built and hashed per request). */
let lastCircuit = { prefix: '', origin: '', key: '' };

/** The circuit breaker's key: the endpoint (`plan.circuit`) and the origin. */
function circuitKey(prefix: string, origin: string): string {
  const last = lastCircuit;
  if (last.prefix === prefix && last.origin === origin) return last.key;
  lastCircuit = { prefix, origin, key: `${prefix} ${origin}` };
  return lastCircuit.key;
}

/** `url` as it may be logged: never user:password@. */
function hrefOf(url: URL): string {
  return url.origin + url.pathname + url.search;
}

class Attempts {
  readonly #failures: AttemptFailure[] = [];
  /** Requests that went out (a blocked URL or an open circuit sends none). */
  #sent = 0;
  readonly #urls: readonly URL[];
  readonly #attempts: number;
  /** The URL being tried, and how many attempts it has had. */
  #index = 0;
  #attempt = 0;

  constructor(
    private readonly plan: FailoverPlan,
    private readonly send: (url: URL) => Promise<Dispatcher.ResponseData>,
    private readonly deps: FailoverDeps,
  ) {
    this.#urls = plan.replayable ? plan.urls : plan.urls.slice(0, 1);
    this.#attempts = plan.replayable ? Math.max(1, plan.attempts) : 1;
  }

  /** The next attempt (after the delay between attempts at one URL), or the result when none is left. */
  next(): Promise<FailoverResult> {
    while (this.#index < this.#urls.length) {
      const url = this.#urls[this.#index]!;
      if (this.#attempt === 0 && this.deps.policy.urlBlocked(url)) {
        this.#failures.push({ url: hrefOf(url), kind: 'blocked', detail: 'host or address not allowed by the network access policy' });
        this.#nextUrl();
        continue;
      }
      if (this.#attempt >= this.#attempts) {
        this.#nextUrl();
        continue;
      }
      this.#attempt += 1;
      if (this.#attempt > 1 && this.plan.delayMs > 0) {
        return sleep(this.plan.delayMs, undefined, { signal: this.deps.signal }).then(() => this.#try(url));
      }
      return this.#try(url);
    }
    return Promise.resolve({ ok: false, failures: this.#failures, sent: this.#sent });
  }

  #nextUrl(): void {
    this.#index += 1;
    this.#attempt = 0;
  }

  #try(url: URL): Promise<FailoverResult> {
    const circuit = circuitKey(this.plan.circuit, partsOf(url).origin);
    if (!this.deps.breaker.allow(circuit)) {
      this.#failures.push({ url: hrefOf(url), kind: 'circuit-open', detail: `circuit open for ${url.origin}` });
      this.#nextUrl();
      return this.next();
    }
    this.#sent += 1;
    let answer: Promise<Dispatcher.ResponseData>;
    try {
      answer = this.send(url);
    } catch (error) {
      answer = Promise.reject(error);
    }
    return answer.then(
      (response) => this.#answered(url, circuit, response),
      (error: unknown) => this.#failed(url, circuit, error),
    );
  }

  #answered(url: URL, circuit: string, response: Dispatcher.ResponseData): FailoverResult | Promise<FailoverResult> {
    this.deps.breaker.success(circuit); // it answered: the origin is up, whatever the status
    if (!TRANSIENT_STATUS.has(response.statusCode)) return { ok: true, response, url, failures: this.#failures, sent: this.#sent };
    return response.body.dump().catch(() => undefined).then(() => {
      this.#failures.push({ url: hrefOf(url), kind: 'status', status: response.statusCode, detail: `upstream answered ${response.statusCode}` });
      return this.next();
    });
  }

  #failed(url: URL, circuit: string, error: unknown): Promise<FailoverResult> {
    if (this.deps.signal?.aborted) throw error;
    const kind = classifyError(error);
    this.#failures.push({ url: hrefOf(url), kind, detail: (error as Error).message });
    if (kind === 'blocked') this.#nextUrl();
    else this.deps.breaker.failure(circuit);
    return this.next();
  }
}

/** The status the client gets when every attempt failed: 403 blocked, 504 timeout, else 502. */
export function failureCode(failures: readonly AttemptFailure[]): 'PROXY_TARGET_BLOCKED' | 'PROXY_UPSTREAM_TIMEOUT' | 'PROXY_UPSTREAM_UNAVAILABLE' {
  const last = failures.at(-1);
  if (failures.length > 0 && failures.every((failure) => failure.kind === 'blocked')) return 'PROXY_TARGET_BLOCKED';
  if (last?.kind === 'timeout' || (last?.kind === 'status' && last.status === 504)) return 'PROXY_UPSTREAM_TIMEOUT';
  return 'PROXY_UPSTREAM_UNAVAILABLE';
}
