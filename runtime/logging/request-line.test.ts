import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLineWriter, type RequestLineFacts } from './request-line.js';

// pino as fastify loads it: the copy whose loggers the gateway has
const pino = createRequire(createRequire(import.meta.url).resolve('fastify'))('pino') as (options: object, stream?: object) => FastifyBaseLogger;

function capture(): { stream: Writable & { write(line: string): boolean }; lines: string[] } {
  const lines: string[] = [];
  const stream = { write: (line: string) => lines.push(line) > 0 } as unknown as Writable & { write(line: string): boolean };
  return { stream, lines };
}

const FACTS: RequestLineFacts[] = [
  { reqId: '022a23f9-40ae-483e-9109-2344689baa4c', method: 'GET', url: '/api/demo/Small', statusCode: 200, responseTime: 1.2, msg: 'GET /api/demo/Small 200 1.2 ms' },
  { reqId: 'b', method: 'DELETE', url: '/api/demo/Products(7)?$filter=Name eq \'a"b\\c\'', statusCode: 404, responseTime: 0, code: 'SQL_NOT_FOUND', msg: 'x' },
  { reqId: 'c', method: 'GET', url: '/api/demo/\u00e9t\u00e9/\u0001\u001f\u2028?q=%22', statusCode: 503, responseTime: 12345.6, msg: 'GET /api/demo/\u00e9t\u00e9 503 12345.6 ms' },
  { reqId: 'd', method: 'GET', url: '/' + 'x'.repeat(200), statusCode: 200, responseTime: 0.1, msg: 'long' },
];

function pinoLine(logger: FastifyBaseLogger, level: 30 | 50, facts: RequestLineFacts): void {
  const fields: Record<string, unknown> = { reqId: facts.reqId, method: facts.method, url: facts.url, statusCode: facts.statusCode, responseTime: facts.responseTime };
  if (facts.code !== undefined) fields['code'] = facts.code;
  if (level === 50) logger.error(fields, facts.msg);
  else logger.info(fields, facts.msg);
}

describe('requestLineWriter', () => {
  it('writes the bytes pino writes for the same request line, both levels', () => {
    for (const level of [30, 50] as const) {
      for (const facts of FACTS) {
        const ours = capture();
        const theirs = capture();
        const options = { timestamp: () => ',"time":1795752473123', serializers: { req: (r: unknown) => r } };
        const writer = requestLineWriter(pino(options, ours.stream));
        expect(writer).not.toBeNull();
        writer!(level, facts);
        pinoLine(pino(options, theirs.stream), level, facts);
        expect(ours.lines).toEqual(theirs.lines);
      }
    }
  });

  it('keeps a child logger bindings and pino default pid and hostname', () => {
    const ours = capture();
    const theirs = capture();
    const writer = requestLineWriter(pino({}, ours.stream).child({ area: 'api' }));
    writer!(30, FACTS[0]!);
    pinoLine(pino({}, theirs.stream).child({ area: 'api' }), 30, FACTS[0]!);
    const strip = (line: string): string => line.replace(/"time":\d+/, '"time":0');
    expect(ours.lines.map(strip)).toEqual(theirs.lines.map(strip));
    expect(ours.lines[0]).toContain(`"pid":${process.pid}`);
  });

  it('declines a logger whose lines it cannot reproduce (pino is used then)', () => {
    const { stream } = capture();
    expect(requestLineWriter(pino({ formatters: { log: (o: object) => o } }, stream))).toBeNull();
    expect(requestLineWriter(pino({ mixin: () => ({ a: 1 }) }, stream))).toBeNull();
    expect(requestLineWriter(pino({ msgPrefix: '[gw] ' }, stream))).toBeNull();
    expect(requestLineWriter(pino({ messageKey: 'message' }, stream))).toBeNull();
    expect(requestLineWriter(pino({ hooks: { logMethod(args: unknown[], method: (...a: unknown[]) => void) { method.apply(this, args); } } }, stream))).toBeNull();
    expect(requestLineWriter(pino({ formatters: { level: (label: string) => ({ level: label }) } }, stream))).toBeNull();
    expect(requestLineWriter({ info() {} } as unknown as FastifyBaseLogger)).toBeNull();
  });
});
