/**
 * startServer(): buildServer + listen. Prints nothing itself (the CLI prints the banner); returns
 * the app, the URL it listens on, and close().
 */
import type { FastifyInstance } from 'fastify';
import { buildServer } from './server.js';
import type { BuildServerOptions } from './server.js';
import { resolveListenAddress } from './settings/listen-address.js';
import type { ListenOptions } from './settings/listen-address.js';

export interface StartServerOptions extends BuildServerOptions, ListenOptions {}

export interface StartedServer {
  readonly app: FastifyInstance;
  /** e.g. `http://127.0.0.1:8080` (the real port when 0 was asked for). */
  readonly url: string;
  close(): Promise<void>;
}

export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const { port, host } = resolveListenAddress(options);
  const app = await buildServer(options);
  try {
    await app.listen({ port, host });
    await app.metricsListener?.open();
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { app, url: `http://${shownHost}:${actualPort}`, close: () => app.close() };
}
