/**
 * The spec makes data-API URLs case-insensitive; the route table already matches namespaces,
 * endpoints and environments in any case. This makes the `/api` prefix itself match in any case
 * too (`/API/...`, `/Api?...`), and the `files` segment of `/api/{env}/files/...`, before fastify
 * routes the request. Other paths (`/health/*`,
 * `/docs`, `/openapi.json`, `/ui`) stay case-sensitive (docs/runtime.md).
 */
export function canonicalApiPrefix(url: string): string {
  if (url.length < 4) return url;
  let out = url;
  if (!url.startsWith('/api')) {
    if (url.slice(0, 4).toLowerCase() !== '/api') return url;
    const next = url.charAt(4);
    if (!(next === '' || next === '/' || next === '?')) return url;
    out = `/api${url.slice(4)}`;
  }
  // the `files` segment of /api/{env}/files/... too: Files routes have a fastify route of their own
  const files = FILES_SEGMENT.exec(out);
  return files && files[2] !== 'files' ? `${files[1]}files${out.slice(files[0].length)}` : out;
}

const FILES_SEGMENT = /^(\/api\/[^/?]+\/)(files)(?=\/|\?|$)/i;
