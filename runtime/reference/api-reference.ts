/**
 * The API reference: /openapi.json (generated/openapi.json of the table currently served, swapped
 * on reload) and /docs (Swagger UI from swagger-ui-dist, our own index page, no external URLs,
 * a CSP that allows only this origin).
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createRequire } from 'node:module';
import path from 'node:path';
import { WharfError } from '../errors/wharf-error.js';
import type { RouteTableHolder } from '../routing/route-table-holder.js';
import { requireReferenceToken, type ReferenceTokenCheck } from './reference-access.js';

export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export const DOCS_INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/wharf-reference.js"></script>
</body>
</html>
`;

export const DOCS_INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;

/** Files of swagger-ui-dist we never serve: its demo page and initializer point at an external URL. */
const HIDDEN_ASSETS = new Set(['/index.html', '/swagger-initializer.js', '/oauth2-redirect.html']);

function swaggerUiDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DOCS_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

export async function apiReferenceRoutes(app: FastifyInstance, options: { holder: RouteTableHolder; requireToken?: ReferenceTokenCheck | null }): Promise<void> {
  if (options.requireToken) requireReferenceToken(app, options.requireToken);
  app.get('/openapi.json', async (request, reply) => {
    const table = options.holder.current;
    if (table.openapi === null) throw new WharfError('REFERENCE_OPENAPI_MISSING');
    const body = table.openapi.checked();
    const etag = `"${table.sourceHash}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });

  const sendIndex = async (_request: unknown, reply: FastifyReply) =>
    secure(reply).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_INDEX_HTML);
  app.get('/docs', sendIndex);
  app.get('/docs/', sendIndex);
  app.get('/docs/wharf-reference.js', async (_request, reply) =>
    secure(reply).type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(DOCS_INIT_JS),
  );

  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      secure(reply);
      return payload;
    });
    await scope.register(fastifyStatic, {
      root: swaggerUiDir(),
      prefix: '/docs/',
      index: false,
      decorateReply: false,
      wildcard: true,
      maxAge: '1h',
      allowedPath: (pathName) => !HIDDEN_ASSETS.has(pathName),
    });
  });
}
