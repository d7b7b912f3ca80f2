/**
 * The spec makes data-API URLs case-insensitive; the route table already matches namespaces,
 * endpoints and environments in any case. This makes the `/api` prefix itself match in any case
 * too (`/API/...`, `/Api?...`), before fastify routes the request. Other paths (`/health/*`,
 * `/docs`, `/openapi.json`, `/ui`) stay case-sensitive (docs/runtime.md).
 */
export function canonicalApiPrefix(url: string): string {
  if (url.length < 4 || url.startsWith('/api')) return url;
  const head = url.slice(0, 4);
  if (head.toLowerCase() !== '/api') return url;
  const next = url.charAt(4);
  return next === '' || next === '/' || next === '?' ? `/api${url.slice(4)}` : url;
}
