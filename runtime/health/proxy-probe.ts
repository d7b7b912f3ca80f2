/**
 * Reachability of one upstream URL: GET with a timeout, the body discarded. Kept as one small
 * function so the proxy module's own reachability check can replace it later.
 */

export interface ProbeResult {
  readonly ok: boolean;
  /** Set when the upstream answered. */
  readonly statusCode?: number;
  readonly reasonPhrase?: string;
  /** Set when it did not (connection refused, timeout). */
  readonly error?: string;
}

export type ProxyProbe = (url: string, timeoutMs: number) => Promise<ProbeResult>;

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

/** 2xx, 3xx and 401 (reachable, it only wants credentials) count as reachable. */
export const probeUrl: ProxyProbe = async (url, timeoutMs) => {
  try {
    // imported here, not at start: a gateway without Proxy endpoints never loads undici
    const { request } = await import('undici');
    const response = await request(url, { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    await response.body.dump();
    const statusCode = response.statusCode;
    const reasonPhrase = REASONS[statusCode] ?? '';
    const ok = (statusCode >= 200 && statusCode < 400) || statusCode === 401;
    return { ok, statusCode, reasonPhrase };
  } catch (error) {
    const e = error as Error & { code?: string };
    const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT';
    return { ok: false, error: timedOut ? `No answer within ${timeoutMs} ms` : (e.code ?? e.message) };
  }
};
