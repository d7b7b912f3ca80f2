/**
 * A loopback upstream (node:http, no mocks) whose answers a test writes itself: `respond` gets each
 * request and answers it. For the hostile or odd upstreams of the Proxy security tests (cookies,
 * content negotiation, large bodies); the general-purpose upstream is upstream-server.ts.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedUpstream {
  readonly origin: string;
  /** Requests per path (without query). */
  readonly hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startScriptedUpstream(
  respond: (req: IncomingMessage, res: ServerResponse, url: URL) => unknown,
): Promise<ScriptedUpstream> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    req.resume();
    req.once('end', () => void respond(req, res, url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
