import { describe, expect, it } from 'vitest';
import { isoUtc, normalizeExpandedTimestamps } from './expanded-timestamps.js';

describe('isoUtc', () => {
  const cases: Array<[string, { given: string; want: string }]> = [
    ['PostgreSQL json timestamptz', { given: '2024-01-01T04:19:00+00:00', want: '2024-01-01T04:19:00.000Z' }],
    ['another offset', { given: '2024-01-01T06:19:00.5+02:00', want: '2024-01-01T04:19:00.500Z' }],
    ['SQL Server FOR JSON, 7 fraction digits', { given: '2024-01-01T04:19:00.1234567Z', want: '2024-01-01T04:19:00.123Z' }],
    ['already the top-level format', { given: '2024-01-01T04:19:00.000Z', want: '2024-01-01T04:19:00.000Z' }],
    ['a timestamp without zone stays', { given: '2024-01-01T04:19:00', want: '2024-01-01T04:19:00' }],
    ['a date stays', { given: '2024-01-02', want: '2024-01-02' }],
    ['text stays', { given: 'Paid', want: 'Paid' }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => expect(isoUtc(given)).toBe(want));

  it('changes expanded objects and arrays, never the top level', () => {
    const rows = [{ At: '2024-01-01T04:19:00+00:00', One: { At: '2024-01-01T04:19:00+00:00' }, Many: [{ At: '2024-01-01T04:19:00+00:00' }] }];
    normalizeExpandedTimestamps(rows, ['One', 'Many']);
    expect(rows).toEqual([{ At: '2024-01-01T04:19:00+00:00', One: { At: '2024-01-01T04:19:00.000Z' }, Many: [{ At: '2024-01-01T04:19:00.000Z' }] }]);
  });
});
