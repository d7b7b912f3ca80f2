/** Port and host to listen on: CLI options win, then PORT / HOST, then 8080 / 127.0.0.1. */
import { WharfError } from '../errors/wharf-error.js';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

export interface ListenAddress {
  readonly port: number;
  readonly host: string;
}

export interface ListenOptions {
  readonly port?: number | string | undefined;
  readonly host?: string | undefined;
}

function parsePort(value: number | string, source: string): number {
  const text = String(value).trim();
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new WharfError('SETTINGS_LISTEN_ADDRESS', {
      source,
      reason: `must be a port number from 0 to 65535 (got '${text}')`,
    });
  }
  return port;
}

export function resolveListenAddress(
  options: ListenOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): ListenAddress {
  const port =
    options.port !== undefined && options.port !== ''
      ? parsePort(options.port, 'Option --port')
      : env['PORT'] !== undefined && env['PORT'] !== ''
        ? parsePort(env['PORT'], 'Environment variable PORT')
        : DEFAULT_PORT;
  const host = options.host?.trim() || env['HOST']?.trim() || DEFAULT_HOST;
  return { port, host };
}
