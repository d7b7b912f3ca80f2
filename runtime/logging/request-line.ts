/**
 * The request line (request-log.ts) written without pino's generic serializer: the same bytes pino
 * writes for `log.info({ reqId, method, url, statusCode, responseTime[, code] }, msg)`, built from
 * a template and handed to the logger's own destination. Under load the line cost about
 * 7 µs per small proxied request through pino's loop over the fields (a serializer lookup, a type
 * switch and an escape per field) and about 1 µs from the template (docs/performance.md, ninth round).
 *
 * What pino would add is taken from the logger itself, through the symbols pino exports for
 * plugins (`pino.symbols`): the level prefix, its time function and the bindings (`pid`,
 * `hostname`, and a child's), and the stream it writes to. A logger this cannot read exactly
 * (another pino copy, `formatters`, `mixin`, hooks, a message prefix, a transport writing
 * through a multistream) gets null here, and the caller logs through pino as before.
 */
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';

type PinoSymbols = Record<string, symbol>;

/** The facts of one request line; `code` only for a refused request. */
export interface RequestLineFacts {
  readonly reqId: string;
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly responseTime: number;
  readonly code?: string | undefined;
  readonly msg: string;
}

export type RequestLineWriter = (level: 30 | 50, facts: RequestLineFacts) => void;

/** pino as fastify loads it (the copy whose symbols its loggers carry), or null. */
function pinoSymbols(): PinoSymbols | null {
  try {
    const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
    return (fromFastify('pino') as { symbols: PinoSymbols }).symbols;
  } catch {
    return null;
  }
}

const SYMBOLS = pinoSymbols();

function hasOwnEntries(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}

/** A template writer for `logger`, or null when its lines could differ from pino's own. */
export function requestLineWriter(logger: FastifyBaseLogger): RequestLineWriter | null {
  if (SYMBOLS === null) return null;
  const held = logger as unknown as Record<symbol, unknown>;
  const s = SYMBOLS;
  const levels = held[s['lsCacheSym']!] as Record<number, string> | undefined;
  const time = held[s['timeSym']!] as (() => string) | undefined;
  const chindings = held[s['chindingsSym']!];
  const stream = held[s['streamSym']!] as { write(line: string): unknown; [key: symbol]: unknown } | undefined;
  const formatters = held[s['formattersSym']!] as { log?: unknown; bindings?: unknown; level?: unknown } | undefined;
  const hooks = held[s['hooksSym']!] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  if (levels === undefined || typeof time !== 'function' || typeof chindings !== 'string' || typeof stream?.write !== 'function') return null;
  // anything that changes the line: a log formatter, a mixin, hooks, a message prefix or key, a multistream
  if (formatters?.log !== undefined || held[s['mixinSym']!] !== undefined || hooks?.logMethod !== undefined || hooks?.streamWrite !== undefined) return null;
  if (held[s['msgPrefixSym']!] !== undefined || held[s['messageKeySym']!] !== 'msg' || stream[s['needsMetadataGsym']!] === true) return null;
  if (hasOwnEntries(held[s['stringifiersSym']!])) return null;
  const info = levels[30];
  const error = levels[50];
  if (info !== '{"level":30' || error !== '{"level":50') return null;
  return (level, facts) => {
    const code = facts.code === undefined ? '' : `,"code":${JSON.stringify(facts.code)}`;
    stream.write(
      `${level === 30 ? info : error}${time()}${chindings},"reqId":${JSON.stringify(facts.reqId)},"method":${JSON.stringify(facts.method)},"url":${JSON.stringify(facts.url)},"statusCode":${facts.statusCode},"responseTime":${facts.responseTime}${code},"msg":${JSON.stringify(facts.msg)}}\n`,
    );
  };
}
