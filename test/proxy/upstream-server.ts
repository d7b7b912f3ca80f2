/**
 * A real loopback upstream for the Proxy and Composite tests (node:http, no mocks). Paths:
 *   /echo/**            200 JSON {method, path, query, headers, body} of what arrived
 *   /flaky/<key>?fail=N&status=503   answers `status` N times per key, then 200 echo
 *   /status/<code>      answers that status with a JSON body
 *   /short              announces 100 bytes, sends 11, closes the connection
 *   /hang               never answers
 *   /slow?ms=N          echo after N ms
 *   /reset              destroys the connection
 *   /stream?chunks=N&delay=ms   N chunks of 64 KiB, `delay` ms apart (text/plain)
 *   /links              JSON with absolute links back to this upstream (nextLink, @odata.id)
 *   /secret             JSON rows with fields to remove/mask/rename
 *   /redirect           302 to /echo/target on this upstream
 *   /nostore            JSON with Cache-Control: no-store (count per call in `n`)
 * `hits` counts requests per path (without query).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  readonly server: Server;
  readonly origin: string;
  readonly hits: Map<string, number>;
  /** /stream responses finished vs cut short by the other side. */
  readonly streams: { ended: number; aborted: number };
  /** /hang requests whose connection the other side closed (it never answers them). */
  readonly hung: { closed: number };
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startUpstream(): Promise<Upstream> {
  const hits = new Map<string, number>();
  const flaky = new Map<string, number>();
  const streams = { ended: 0, aborted: 0 };
  const hung = { closed: 0 };
  let origin = '';
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    const path = url.pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = await readBody(req);
    const echo = () => json(res, 200, { method: req.method, path, query: url.search, headers: req.headers, body });
    if (path.startsWith('/echo')) return echo();
    if (path.startsWith('/flaky/')) {
      const key = path.slice('/flaky/'.length);
      const seen = flaky.get(key) ?? 0;
      flaky.set(key, seen + 1);
      if (seen < Number(url.searchParams.get('fail') ?? '1')) {
        return json(res, Number(url.searchParams.get('status') ?? '503'), { failed: seen + 1 });
      }
      return echo();
    }
    if (path.startsWith('/status/')) {
      const status = Number(path.slice('/status/'.length));
      if (status === 204 || status === 304) return res.writeHead(status).end();
      return json(res, status, { upstream: 'status' });
    }
    if (path === '/short') {
      // announces more than it sends, then closes: a broken upstream body
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      return setTimeout(() => res.destroy(), 10);
    }
    if (path === '/hang') {
      req.socket.once('close', () => (hung.closed += 1));
      return; // never answers
    }
    if (path === '/slow') {
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get('ms') ?? '500')));
      return echo();
    }
    if (path === '/reset') return req.socket.destroy();
    if (path === '/stream') {
      const chunks = Number(url.searchParams.get('chunks') ?? '4');
      const delay = Number(url.searchParams.get('delay') ?? '20');
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < chunks; i++) {
        if (res.destroyed) {
          streams.aborted += 1;
          return;
        }
        if (!res.write(Buffer.alloc(64 * 1024, 97 + (i % 26)))) {
          await new Promise<void>((r) => {
            const done = () => {
              res.off('drain', done);
              res.off('close', done);
              r();
            };
            res.on('drain', done);
            res.on('close', done);
          });
        }
        await new Promise((r) => setTimeout(r, delay));
      }
      streams.ended += 1;
      return res.end();
    }
    if (path === '/links') {
      return json(res, 200, {
        '@odata.nextLink': `${origin}/links?$skip=2`,
        value: [{ '@odata.id': `${origin}/links(1)`, id: 1 }],
        other: 'http://elsewhere.example/links',
      });
    }
    if (path === '/secret') {
      return json(res, 200, { value: [{ id: 1, password: 'p', card: '4111', cost: 3 }, { id: 2, password: 'q', card: '5500', cost: 4 }] });
    }
    if (path === '/redirect') {
      res.writeHead(302, { location: `${origin}/echo/target` });
      return res.end();
    }
    if (path === '/nostore') return json(res, 200, { n: hits.get(path) }, { 'cache-control': 'no-store' });
    json(res, 404, { upstream: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    hits,
    streams,
    hung,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
