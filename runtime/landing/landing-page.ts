/**
 * GET / : the URL `npm start` prints. `Features:LandingPage` (default true; spec 2's
 * `features.landing_page`) serves a small page linking the API reference, the console, the
 * OpenAPI document and the liveness probe; false redirects to /docs instead. No data; no token unless
 * Auth:ReferenceRequiresToken is on.
 */
import type { FastifyInstance } from 'fastify';
import { securePage } from '../serve/page-headers.js';
import type { ConfigSource } from '../settings/config-source.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import { requireReferenceToken, type ReferenceTokenCheck } from '../reference/reference-access.js';

export const LANDING_PAGE_KEY = 'Features:LandingPage';

/** Inline styles only; no script, no base, no form, no framing (with X-Frame-Options, serve/page-headers.ts). */
export const LANDING_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function readLandingPage(source: ConfigSource): boolean {
  return source.bool(LANDING_PAGE_KEY);
}

const LINKS: ReadonlyArray<readonly [string, string, string]> = [
  ['/docs', 'API reference', 'every endpoint, try requests with your token'],
  ['/ui', 'Console', 'tokens, environments, settings'],
  ['/openapi.json', 'OpenAPI', 'the OpenAPI{version} document, for clients and generators'],
  ['/health/live', 'Liveness', 'the probe an orchestrator polls'],
  ['/health/ready', 'Readiness', 'the probe a load balancer polls (503 while the instance stops)'],
];

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const versions = new WeakMap<Buffer, string | null>();

/** The `openapi` field of the document served (parsed once per loaded document), or null. */
export function openapiVersion(bytes: Buffer | undefined): string | null {
  if (bytes === undefined) return null;
  let version = versions.get(bytes);
  if (version === undefined) {
    try {
      const field = (JSON.parse(bytes.toString('utf8')) as { openapi?: unknown }).openapi;
      version = typeof field === 'string' && /^\d+(\.\d+){0,2}$/.test(field) ? field : null;
    } catch {
      version = null;
    }
    versions.set(bytes, version);
  }
  return version;
}

export function landingHtml(serverName: string, endpoints: number, version: string | null = null): string {
  const items = LINKS.map(([href, title, what]) => `<li><a href="${href}">${title}</a> <span>${what.replace('{version}', version ? ` ${escapeHtml(version)}` : '')}</span></li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(serverName)} · Wharf</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.6rem;margin-bottom:.2rem}p{color:#57606a;margin-top:0}ul{list-style:none;padding:0}
li{margin:.6rem 0}a{font-weight:600;color:#0969da}span{color:#57606a}
code{background:#f6f8fa;padding:.1rem .3rem;border-radius:4px}
@media (prefers-color-scheme:dark){body{background:#0d1117;color:#e6edf3}a{color:#4493f8}p,span{color:#9198a1}code{background:#161b22}}
</style>
</head>
<body>
<h1>⚓ ${escapeHtml(serverName)}</h1>
<p>Wharf gateway serving ${endpoints} endpoint${endpoints === 1 ? '' : 's'} under <code>/api/{env}/…</code></p>
<ul>
${items}
</ul>
<p>Every <code>/api</code> call needs a token: <code>npx wharf token create --username you</code></p>
</body>
</html>
`;
}

export interface LandingOptions {
  readonly enabled: boolean;
  readonly serverName: string;
  readonly holder: RouteTableHolder;
  /** Auth:ReferenceRequiresToken (runtime/reference/reference-access.ts): the token check, null when off. */
  readonly requireToken?: ReferenceTokenCheck | null;
}

export async function landingRoute(app: FastifyInstance, options: LandingOptions): Promise<void> {
  if (options.requireToken) requireReferenceToken(app, options.requireToken);
  app.get('/', async (_request, reply) => {
    if (!options.enabled) return reply.redirect('/docs', 302);
    return securePage(reply, LANDING_CSP)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(landingHtml(options.serverName, options.holder.current.size, openapiVersion(options.holder.current.openapi?.bytes)));
  });
}
