/**
 * The gateway's pino options: JSON lines (one object a line) when stdout is a file or a pipe,
 * pino-pretty one line per entry when it is a terminal; URLs in `req` redacted either way.
 */
import type { FastifyServerOptions } from 'fastify';
import { serializeRequest } from './request-log.js';

export interface LoggerOptions {
  readonly level?: string;
  /** Where JSON log lines go (default stdout); tests pass a capturing stream. */
  readonly stream?: NodeJS.WritableStream;
  /** Human-readable lines (pino-pretty). Default: when no stream is given and stdout is a terminal. */
  readonly pretty?: boolean;
}

/** Fields the pretty line leaves out: the request line's message already says them. */
const PRETTY_IGNORE = 'pid,hostname,reqId,method,url,statusCode,responseTime';

export function loggerOptions(option: boolean | LoggerOptions, defaultLevel: string): FastifyServerOptions['logger'] {
  if (option === false) return false;
  const given = typeof option === 'object' ? option : {};
  const level = given.level || defaultLevel;
  const serializers = { req: serializeRequest };
  if (given.stream) return { level, stream: given.stream, serializers };
  if (given.pretty ?? process.stdout.isTTY === true) {
    return {
      level,
      serializers,
      transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: PRETTY_IGNORE } },
    };
  }
  return { level, serializers };
}
