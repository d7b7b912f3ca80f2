import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { loggerOptions } from './logger-options.js';

describe('loggerOptions', () => {
  const stream = new PassThrough();
  const cases: Array<[string, { given: Parameters<typeof loggerOptions>[0]; want: Record<string, unknown> | false }]> = [
    ['off', { given: false, want: false }],
    ['a terminal: pino-pretty, one line per entry', { given: { pretty: true }, want: { level: 'info', transport: { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId,method,url,statusCode,responseTime' } } } }],
    ['a pipe or file: JSON lines', { given: { pretty: false, level: 'warn' }, want: { level: 'warn' } }],
    ['a stream (tests) is never pretty', { given: { stream, pretty: true }, want: { level: 'info', stream } }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const got = loggerOptions(given, 'info');
    if (want === false) return expect(got).toBe(false);
    expect(got).toMatchObject(want);
    expect((got as { serializers: { req: (r: object) => object } }).serializers.req({ method: 'GET', url: '/x?token=s', id: 'r1' })).toEqual({
      method: 'GET',
      url: '/x?token=[REDACTED]',
      reqId: 'r1',
    });
    if (!('transport' in want)) expect(got).not.toHaveProperty('transport');
  });

  it('with a log ring, every line (pretty or JSON) is also written to the ring', () => {
    const seen: string[] = [];
    const ring = { tee: (out: NodeJS.WritableStream) => ({ write: (chunk: string) => (seen.push(chunk), out.write(chunk)) }) as unknown as NodeJS.WritableStream };
    const target = new PassThrough();
    const teed = loggerOptions({ stream: target }, 'info', ring) as { stream: NodeJS.WritableStream };
    teed.stream.write('{"msg":"x"}\n');
    expect(seen).toEqual(['{"msg":"x"}\n']);
    const pretty = loggerOptions({ pretty: true }, 'info', ring) as { stream?: unknown; transport?: unknown };
    expect(pretty.transport).toBeUndefined();
    expect(pretty.stream).toBeDefined();
  });
});
