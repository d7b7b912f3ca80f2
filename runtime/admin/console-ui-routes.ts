/**
 * Serves the precompiled web console (generated/ui, built by compiler/console-ui/build.ts):
 *   GET /ui            -> 301 /ui/
 *   GET /ui/           -> index.html, Cache-Control: no-cache
 *   GET /ui/assets/*   -> content-hashed files, Cache-Control: public, max-age=31536000, immutable
 * Every response carries a strict Content-Security-Policy: scripts, styles and connections only
 * from the gateway itself, no inline script, no framing. Files are read from disk per request
 * (they are small) so a rebuild is served without a restart; names are checked against the
 * hashed-asset pattern, so no path can leave the folder. The sync service's dashboard
 * (runtime/sync/web/) serves its own bundle (generated/sync-ui) through the same routes.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { securePage } from '../serve/page-headers.js';

export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const ASSET = /^app\.[0-9a-f]{12}\.(js|css)$/;
const TYPES: Readonly<Record<string, string>> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

const secure = (reply: FastifyReply): FastifyReply => securePage(reply, CONSOLE_CSP);

export interface UiRoutesOptions {
  readonly generatedDir: string;
  /** Folder below generatedDir (default `ui`, the console). */
  readonly folder?: string;
  /** What the bundle is, for the not-built message (default `console`). */
  readonly label?: string;
}

export async function consoleUiRoutes(app: FastifyInstance, options: UiRoutesOptions): Promise<void> {
  const folder = options.folder ?? 'ui';
  const dir = path.join(options.generatedDir, folder);
  const notBuilt = (reply: FastifyReply) =>
    secure(reply).code(404).type('application/json; charset=utf-8')
      .send({ success: false, error: `The ${options.label ?? 'console'} is not built: run npm run build (it writes generated/${folder}/).` });
  app.get('/ui', async (_request, reply) => reply.redirect('/ui/', 301));
  app.get('/ui/', async (_request, reply) => {
    const html = await readFile(path.join(dir, 'index.html')).catch(() => null);
    if (!html) return notBuilt(reply);
    return secure(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  });
  app.get<{ Params: { file: string } }>('/ui/assets/:file', async (request, reply) => {
    const match = ASSET.exec(request.params.file);
    const content = match ? await readFile(path.join(dir, 'assets', request.params.file)).catch(() => null) : null;
    if (!match || !content) {
      return secure(reply).code(404).type('application/json; charset=utf-8').send({ success: false, error: `No ${options.label ?? 'console'} asset ${request.params.file.slice(0, 100)}` });
    }
    return secure(reply).header('cache-control', 'public, max-age=31536000, immutable').type(TYPES[match[1] as string] as string).send(content);
  });
}
