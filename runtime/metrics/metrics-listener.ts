/**
 * `Metrics:ListenAddress` (e.g. `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464` in a container): a
 * second, plain HTTP listener that answers GET /metrics with no token, the usual way a Prometheus
 * exporter is scraped. Access is controlled by where it listens (an internal interface, a port the
 * network policy keeps private); everything else on it is 404. The main port's /metrics keeps
 * asking for a token with scope `*`. startServer opens it right after the main port (a port in use
 * fails the start); it closes with the server.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { INTERNAL_ERROR_MESSAGE } from '../errors/registry.js';
import { WharfError } from '../errors/wharf-error.js';
import type { WharfMetrics } from './metrics.js';
import { METRICS_PATH } from './metrics-route.js';

export interface MetricsAddress {
  readonly host: string;
  readonly port: number;
}

const SOURCE = 'Setting Metrics:ListenAddress';
const JSON_TYPE = 'application/json; charset=utf-8';

/** `host:port` or `[v6]:port`; '' = no listener. */
export function parseMetricsAddress(text: string): MetricsAddress | null {
  const value = text.trim();
  if (value === '') return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[3]) : Number.NaN;
  if (!match || port < 1 || port > 65_535) {
    throw new WharfError('SETTINGS_LISTEN_ADDRESS', { source: SOURCE, reason: `must be host:port such as 127.0.0.1:9464 (got '${value}')` });
  }
  return { host: match[1] ?? match[2]!, port };
}

function send(res: ServerResponse, status: number, type: string, body: string, head = false): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(head ? undefined : body);
}

export class MetricsListener {
  readonly #server: Server;

  constructor(
    app: FastifyInstance,
    metrics: WharfMetrics,
    readonly address: MetricsAddress,
  ) {
    this.#server = createServer((req, res) => {
      const head = req.method === 'HEAD';
      if ((req.url ?? '/').split('?')[0] !== METRICS_PATH || (req.method !== 'GET' && !head)) {
        send(res, 404, JSON_TYPE, JSON.stringify({ success: false, error: `Only GET ${METRICS_PATH} is served on this address.` }), head);
        return;
      }
      metrics.registry.metrics().then(
        (text) => send(res, 200, metrics.registry.contentType, text, head),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics scrape failed');
          send(res, 500, JSON_TYPE, JSON.stringify({ success: false, error: INTERNAL_ERROR_MESSAGE }), head);
        },
      );
    });
    app.addHook('onClose', () => this.close());
  }

  /** Called by startServer once the main port listens; rejects (e.g. EADDRINUSE) so the start fails. */
  open(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.address.port, this.address.host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
  }

  /** The port it listens on (the real one when 0 was asked for), null when not open. */
  get port(): number | null {
    const bound = this.#server.address();
    return typeof bound === 'object' && bound !== null ? bound.port : null;
  }

  async close(): Promise<void> {
    if (!this.#server.listening) return;
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when Metrics:ListenAddress is configured. */
    metricsListener: MetricsListener | null;
  }
}
