import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger, lazyChildLoggerFactory } from './lazy-child-logger.js';

function capture(level: string): { logger: FastifyBaseLogger; lines: () => Record<string, unknown>[] } {
  const written: string[] = [];
  const logger = pino({ level }, { write: (line: string) => written.push(line) }) as unknown as FastifyBaseLogger;
  return { logger, lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const withoutTime = (line: Record<string, unknown>): Record<string, unknown> => ({ ...line, time: 0 });

describe('LazyChildLogger (request.log without a pino child per request)', () => {
  it('writes the same line a pino child bound to the request writes, fields in the same order', () => {
    const { logger, lines } = capture('info');
    const lazy = lazyChildLoggerFactory.call(null as never, logger, { reqId: 'r-1' }, {}, {} as never);
    lazy.info({ event: 'x', n: 1 }, 'hello');
    lazy.error(new Error('boom'));
    logger.child({ reqId: 'r-1' }).info({ event: 'x', n: 1 }, 'hello');
    const [fromLazy, error, fromChild] = lines();
    expect(Object.keys(fromLazy!)).toEqual(Object.keys(fromChild!));
    expect(withoutTime(fromLazy!)).toEqual(withoutTime(fromChild!));
    expect(error).toMatchObject({ level: 50, reqId: 'r-1', err: { message: 'boom' } });
  });

  it('the request line (request-log.ts: the server logger, reqId as the first field) is the line the child wrote', () => {
    const { logger, lines } = capture('info');
    const fields = { method: 'GET', url: '/api/x?$top=1', statusCode: 200, responseTime: 1.2 };
    logger.info({ reqId: 'r-5', ...fields }, 'GET /api/x?$top=1 200 1.2 ms');
    logger.child({ reqId: 'r-5' }).info(fields, 'GET /api/x?$top=1 200 1.2 ms');
    const [root, child] = lines();
    expect(JSON.stringify(withoutTime(root!))).toBe(JSON.stringify(withoutTime(child!)));
  });

  it('makes no child while nothing at an enabled level is logged through it', () => {
    const { logger, lines } = capture('warn');
    const lazy = new LazyChildLogger(logger, { reqId: 'r-2' });
    lazy.info('not written');
    lazy.debug({ a: 1 }, 'not written');
    expect(lazy.materialized).toBe(false);
    expect(lazy.level).toBe('warn');
    expect(lines()).toEqual([]);
    lazy.warn('written');
    expect(lazy.materialized).toBe(true);
    expect(lines()).toMatchObject([{ level: 40, reqId: 'r-2', msg: 'written' }]);
  });

  it('a level or serializers of its own (a route option) get a real child at once', () => {
    const { logger, lines } = capture('warn');
    const child = lazyChildLoggerFactory.call(null as never, logger, { reqId: 'r-3' }, { level: 'debug' }, {} as never);
    expect(child).not.toBeInstanceOf(LazyChildLogger);
    child.debug('route-level debug');
    expect(lines()).toMatchObject([{ level: 20, reqId: 'r-3' }]);
  });

  it('passes the checks fastify makes of a child logger and keeps the request bindings', () => {
    const { logger } = capture('info');
    const lazy = lazyChildLoggerFactory.call(null as never, logger, { reqId: 'r-4' }, {}, {} as never) as unknown as LazyChildLogger;
    for (const method of ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child'] as const) expect(typeof lazy[method]).toBe('function');
    expect(lazy.bindings()).toEqual({ reqId: 'r-4' });
    expect(lazy.materialized).toBe(false);
  });
});
