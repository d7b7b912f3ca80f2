/**
 * The gateway's pino options: JSON lines (one object a line) when stdout is a file or a pipe,
 * pino-pretty one line per entry when it is a terminal; URLs in `req` redacted either way.
 */
import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';
import { batchedStdout } from './batched-output.js';
import { serializeRequest } from './request-log.js';

/** Where every log line is also copied (the console's in-memory log, runtime/admin/log-ring.ts). */
export interface LogTee {
  tee(out: NodeJS.WritableStream): NodeJS.WritableStream;
}

const require = createRequire(import.meta.url);

export interface LoggerOptions {
  readonly level?: string;
  /** Where JSON log lines go (default stdout); tests pass a capturing stream. */
  readonly stream?: NodeJS.WritableStream;
  /** Human-readable lines (pino-pretty). Default: when no stream is given and stdout is a terminal. */
  readonly pretty?: boolean;
}

/** Fields the pretty line leaves out: the request line's message already says them. */
const PRETTY_IGNORE = 'pid,hostname,reqId,method,url,statusCode,responseTime';

export function loggerOptions(option: boolean | LoggerOptions, defaultLevel: string, ring?: LogTee): FastifyServerOptions['logger'] {
  if (option === false) return false;
  const given = typeof option === 'object' ? option : {};
  const level = given.level || defaultLevel;
  const serializers = { req: serializeRequest };
  const teed = (out: NodeJS.WritableStream): NodeJS.WritableStream => (ring ? ring.tee(out) : out);
  if (given.stream) return { level, stream: teed(given.stream), serializers };
  if (given.pretty ?? process.stdout.isTTY === true) {
    const options = { singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: PRETTY_IGNORE };
    if (!ring) return { level, serializers, transport: { target: 'pino-pretty', options } };
    // with a ring: pino-pretty in-process (loaded only for a terminal), so the ring still gets the JSON line
    const pretty = require('pino-pretty') as (options: Record<string, unknown>) => NodeJS.WritableStream;
    return { level, serializers, stream: teed(pretty({ ...options, sync: true })) };
  }
  // JSON lines to stdout, batched per event-loop turn (batched-output.ts)
  return { level, serializers, stream: teed(batchedStdout() as unknown as NodeJS.WritableStream) };
}
