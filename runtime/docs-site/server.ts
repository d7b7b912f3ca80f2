/**
 * The documentation-site server (spec 3A): serves a precompiled site from memory.
 * Routes (all under BasePath, all answer HEAD too):
 *   GET /{path}              page HTML, ETag = SHA-256 of the HTML, 304 on If-None-Match, 404 page;
 *                            images/PDFs of the docs folder at their own path
 *   GET /raw/{path}          Markdown as attachment, or inline text/plain with ?view=true; 404
 *   GET /api/search?q=&limit= weighted search, [] under 2 characters; X-Total-Count
 *   GET /api/build-version   {version}, rises only when the content hash changes
 *   GET /api/pages           [{path,title,description,lastModified}]
 *   GET /feed.xml /sitemap.xml /robots.txt /llms.txt
 *   GET /_wharf/{docs.css,client.js,theme.css,search.js,search-index.json}, /theme/custom.{css,js}
 * raw, search, pages and feed share a limit of 30 requests per minute per IP (then 429).
 * Never listens and never imports the compiler: hot reload calls the injected `rebuild()`.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { resolve } from 'node:path';
import type { LoadedDocsSite } from './site.js';
import { docsPathKey, type DocsPageMeta } from '../contract/docs-site.js';
import type { DocsSettings } from './settings.js';
import { resolveTheme } from './theme.js';
import { builtInCsp, hasInlineScript, metaPolicyTag, newNonce, NONCE_PLACEHOLDER, nonceAttribute, SVG_ASSET_CSP } from './csp.js';
import { brandOf, type LayoutContext } from './layout.js';
import { etagMatches, findPage, pagePathOfRequest, renderSite, type RenderedSite } from './rendered-site.js';
import { parseLimit, searchSite, SEARCH_TOTAL_HEADER } from './search.js';
import { createRateLimiter } from './rate-limit.js';
import { renderFeed, renderLlms, renderRobots, renderSitemap, type PublicSite } from './crawler-files.js';
import { builtInAsset } from './assets.js';
import { watchDocs, type DocsWatcher } from './watch.js';
import { installListenerBasics, listenerOptions } from '../serve/listener-basics.js';
import { contentDisposition } from '../files/content-disposition.js';
import { pageUrlPath } from '../contract/docs-search.js';

export { loadDocsSite, type LoadedDocsSite } from './site.js';
export { readDocsSettings, defaultDocsSettings, type DocsSettings } from './settings.js';

export interface DocsServerOptions {
  readonly site: LoadedDocsSite;
  readonly settings: DocsSettings;
  /** Builds the site again from the Markdown folder (injected by the CLI); enables hot reload. */
  readonly rebuild?: () => Promise<LoadedDocsSite>;
  /** `static` renders pages whose search runs in the browser over the prebuilt index (export). */
  readonly mode?: 'server' | 'static';
  /** Requests per minute per IP on raw/search/pages/feed; null turns the limit off (export). */
  readonly rateLimitPerMinute?: number | null;
  readonly now?: () => number;
  readonly logger?: boolean;
  /**
   * The address the server listens on (the CLI's `--host`; default 127.0.0.1, as the CLI's): on a
   * loopback address, with `Docs:AllowedHosts` empty, only loopback names, IP literals and the
   * host of the public origin (`baseUrl`, else the site file's) are answered (DNS rebinding;
   * serve/allowed-hosts.ts).
   */
  readonly listenHost?: string;
}

export interface DocsControl {
  version(): number;
  /** Rebuild now; resolves true when the content changed and the new site was swapped in. */
  reload(): Promise<boolean>;
  current(): RenderedSite;
}

const controls = new WeakMap<FastifyInstance, DocsControl>();
/** The first tag of every page's head (layout.ts); a static page's policy goes right after it. */
const CHARSET_TAG = '<meta charset="utf-8">';

export function docsControl(app: FastifyInstance): DocsControl {
  const control = controls.get(app);
  if (!control) throw new Error('not a docs server');
  return control;
}

export async function buildDocsServer(options: DocsServerOptions): Promise<FastifyInstance> {
  const { settings } = options;
  const base = settings.basePath;
  const theme = resolveTheme(settings);
  const hotReload = settings.enableHotReload && options.rebuild !== undefined && options.mode !== 'static';
  const layoutOf = (site: LoadedDocsSite, buildVersion: number): LayoutContext => ({
    config: site.data.config,
    theme,
    basePath: base,
    mode: options.mode ?? 'server',
    hotReload,
    buildVersion,
  });
  let version = 1;
  let current = renderSite(options.site, layoutOf(options.site, version), settings.defaultPage);
  let queue: Promise<boolean> = Promise.resolve(false);
  const app: FastifyInstance = Fastify({ logger: options.logger ?? false, routerOptions: { ignoreTrailingSlash: true }, ...listenerOptions(() => app.log) });
  installListenerBasics(app, {
    allowedHosts: settings.allowedHosts,
    listenHost: options.listenHost ?? '127.0.0.1',
    // the public origin as the crawler files use it (the site file's `baseUrl` as it was at start)
    publicUrl: settings.baseUrl ?? options.site.data.baseUrl,
    setting: 'Docs:AllowedHosts',
  });

  const reload = (): Promise<boolean> => {
    queue = queue.then(async () => {
      if (!options.rebuild) return false;
      try {
        const next = await options.rebuild();
        if (next.data.contentHash === current.source.data.contentHash) return false;
        current = renderSite(next, layoutOf(next, version + 1), settings.defaultPage);
        version += 1;
        return true;
      } catch (error) {
        app.log.error({ err: error }, 'docs rebuild failed; keeping the previous build');
        return false;
      }
    });
    return queue;
  };
  controls.set(app, { version: () => version, reload, current: () => current });

  const placeholder = nonceAttribute(NONCE_PLACEHOLDER);
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const head = current.source.data.config.head;
    const nonce = hasInlineScript(head) ? newNonce() : null;
    const policy = settings.contentSecurityPolicy ?? builtInCsp(head, theme.customCssUrl, nonce);
    reply.header('Content-Security-Policy', policy);
    const html = nonce !== null && typeof payload === 'string' ? payload.replaceAll(placeholder, nonceAttribute(nonce)) : payload;
    // the static export's files are served without this header: the page carries the policy itself
    return options.mode === 'static' && typeof html === 'string' ? html.replace(CHARSET_TAG, () => `${CHARSET_TAG}\n${metaPolicyTag(policy)}`) : html;
  });

  const limiter = options.rateLimitPerMinute === null ? null : createRateLimiter(options.rateLimitPerMinute ?? 30, 60_000, options.now);
  const limited = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const wait = limiter?.take(request.ip) ?? null;
    if (wait !== null) await reply.code(429).header('Retry-After', String(wait)).header('Cache-Control', 'no-store').send();
  };

  const publicSite = (request: FastifyRequest): PublicSite => {
    const data = current.source.data;
    const origin = (settings.baseUrl ?? data.baseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
    return { config: data.config, pages: listedPages(), brand: brandOf(data.config, theme), root: origin + base, defaultPage: settings.defaultPage };
  };

  /** Pages that are not redirects: the sitemap, feed, llms.txt and /api/pages list these. */
  const listedPages = (): DocsPageMeta[] => current.source.data.pages.filter((p) => p.redirect === null);

  const notFound = (reply: FastifyReply): FastifyReply =>
    reply.code(404).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(current.notFoundHtml);

  app.setNotFoundHandler((_request, reply) => notFound(reply));

  await app.register(
    async (scope) => {
      scope.get<{ Params: { '*': string } }>('/_wharf/*', async (request, reply) => {
        const name = request.params['*'];
        if (name === 'theme.css') return reply.type('text/css; charset=utf-8').send(theme.css);
        if (name === 'search-index.json') return reply.type('application/json; charset=utf-8').send(current.source.searchIndexJson);
        const asset = builtInAsset(name);
        if (!asset) return notFound(reply);
        return reply.type(asset.contentType).header('Cache-Control', 'public, max-age=300').send(asset.body);
      });
      scope.get<{ Params: { name: string } }>('/theme/:name', async (request, reply) => {
        if (request.params.name === 'custom.css' && theme.customCss !== null) return reply.type('text/css; charset=utf-8').send(theme.customCss);
        if (request.params.name === 'custom.js' && theme.customJs !== null) return reply.type('text/javascript; charset=utf-8').send(theme.customJs);
        return notFound(reply);
      });

      scope.get('/api/build-version', async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ version }));

      scope.get<{ Querystring: { q?: string; limit?: string } }>('/api/search', { onRequest: limited }, async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        const limit = parseLimit(request.query.limit);
        if (limit === null) return reply.code(400).send({ success: false, error: 'limit must be a whole number from 1 to 100' });
        const answer = searchSite(current.source, request.query.q, limit);
        return reply.header(SEARCH_TOTAL_HEADER, String(answer.total)).send(answer.results);
      });

      scope.get('/api/pages', { onRequest: limited }, async (_request, reply) =>
        reply.send(listedPages().map((p) => ({ path: `/${pageUrlPath(p.path)}`, title: p.title, description: p.description, lastModified: p.lastModified }))),
      );

      scope.get<{ Params: { '*': string }; Querystring: { view?: string } }>('/raw/*', { onRequest: limited }, async (request, reply) => {
        const page = findPage(current, pagePathOfRequest(request.params['*'], settings.defaultPage));
        if (!page) return reply.code(404).send();
        const view = String(request.query.view ?? '').toLowerCase() === 'true';
        const filename = `${page.path.split('/').pop() ?? 'page'}.md`;
        reply.header('ETag', page.rawEtag).header('Cache-Control', 'no-cache');
        if (etagMatches(request.headers['if-none-match'], page.rawEtag)) return reply.code(304).send();
        return reply
          .type(view ? 'text/plain; charset=utf-8' : 'text/markdown; charset=utf-8')
          .header('Content-Disposition', contentDisposition(view ? 'inline' : 'attachment', filename))
          .send(page.raw);
      });

      scope.get('/feed.xml', { onRequest: limited }, async (request, reply) =>
        reply.type('application/rss+xml; charset=utf-8').send(renderFeed(publicSite(request))),
      );
      scope.get('/sitemap.xml', async (request, reply) => reply.type('application/xml; charset=utf-8').send(renderSitemap(publicSite(request))));
      scope.get('/robots.txt', async (request, reply) => reply.type('text/plain; charset=utf-8').send(renderRobots(publicSite(request))));
      scope.get('/llms.txt', async (request, reply) => reply.type('text/plain; charset=utf-8').send(renderLlms(publicSite(request))));

      const page = async (request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply): Promise<FastifyReply> => {
        const asset = current.assets.get(docsPathKey((request.params['*'] ?? '').replace(/^\/+/, '')));
        if (asset) {
          reply.header('ETag', asset.etag).header('Cache-Control', 'no-cache');
          if (etagMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
          if (asset.contentType === 'image/svg+xml') reply.header('Content-Security-Policy', SVG_ASSET_CSP);
          return reply.type(asset.contentType).send(asset.body);
        }
        const found = findPage(current, pagePathOfRequest(request.params['*'] ?? '', settings.defaultPage));
        if (!found) return notFound(reply);
        if (found.redirect !== null) return reply.code(307).header('Location', found.redirect).header('Cache-Control', 'no-cache').send();
        reply.header('ETag', found.etag).header('Cache-Control', 'no-cache');
        if (etagMatches(request.headers['if-none-match'], found.etag)) return reply.code(304).send();
        return reply.type('text/html; charset=utf-8').send(found.html);
      };
      scope.get('/', page);
      scope.get('/*', page);
    },
    { prefix: base },
  );

  let watcher: DocsWatcher | null = null;
  if (hotReload) {
    app.addHook('onReady', async () => {
      watcher = await watchDocs(resolve(process.cwd(), settings.rootPath), () => void reload());
    });
    app.addHook('onClose', async () => {
      await watcher?.close();
    });
  }
  return app;
}
