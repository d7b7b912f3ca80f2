import { describe, expect, it } from 'vitest';
import { ServerTiming } from './server-timing.js';

type Step = readonly ['start' | 'end', string];

/** Entry names of the header, in order (durations are checked for their shape only). */
function names(header: string): string[] {
  if (header === '') return [];
  return header.split(', ').map((entry) => {
    expect(entry).toMatch(/^[a-z]+;dur=\d+\.\d{3}$/);
    return entry.split(';')[0] as string;
  });
}

describe('ServerTiming', () => {
  const cases: readonly [string, { given: readonly Step[]; want: string[] }][] = [
    ['nothing measured', { given: [], want: [] }],
    ['in the order measurements ended', { given: [['start', 'handler'], ['start', 'sql'], ['end', 'sql'], ['end', 'handler']], want: ['sql', 'handler'] }],
    ['open ones are ended by header(), in start order', { given: [['start', 'cache'], ['start', 'db']], want: ['cache', 'db'] }],
    ['an end without a start is ignored', { given: [['end', 'parse']], want: [] }],
    ['a second end is ignored', { given: [['start', 'parse'], ['end', 'parse'], ['end', 'parse']], want: ['parse'] }],
    ['a restart moves the entry behind the others', { given: [['start', 'a'], ['start', 'b'], ['start', 'a']], want: ['b', 'a'] }],
    ['the same name may be measured twice', { given: [['start', 'a'], ['end', 'a'], ['start', 'a'], ['end', 'a']], want: ['a', 'a'] }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    const timing = new ServerTiming();
    for (const [step, name] of given) timing[step](name);
    expect(names(timing.header())).toEqual(want);
  });

  it('measure() records a failing run too', async () => {
    const timing = new ServerTiming();
    await expect(timing.measure('handler', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(names(timing.header())).toEqual(['handler']);
  });
});
