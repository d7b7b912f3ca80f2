import { describe, it, expect } from 'vitest';
import { parseInt8, parseNumeric, parseTimestamp, parseTimestamptz } from './type-parsers.js';

describe('PostgreSQL text values -> JSON values', () => {
  it.each([
    ['int8 safe', parseInt8('10000'), 10000],
    ['int8 unsafe stays text', parseInt8('9223372036854775807'), '9223372036854775807'],
    ['numeric', parseNumeric('55.32'), 55.32],
    ['numeric with many digits stays text', parseNumeric('1234567890.123456789'), '1234567890.123456789'],
    ['numeric trailing zeros', parseNumeric('10.50'), 10.5],
    ['timestamp', parseTimestamp('2024-01-01 04:19:00'), '2024-01-01T04:19:00'],
    ['timestamptz +00', parseTimestamptz('2024-01-01 04:19:00+00'), '2024-01-01T04:19:00.000Z'],
    ['timestamptz +05:30 with fraction', parseTimestamptz('2024-01-01 04:19:00.123+05:30'), '2023-12-31T22:49:00.123Z'],
  ] as const)('%s', (_n, got, want) => {
    expect(got).toEqual(want);
  });
});

/** What parseTimestamptz answered before its UTC fast path: every text must render the same. */
function throughDate(text: string): string {
  let iso = text.replace(' ', 'T');
  iso = iso.replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2}:\d{2}):\d{2}$/, '$1');
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? text : d.toISOString();
}

describe('timestamptz in UTC without a Date', () => {
  it.each([
    '2024-01-01 04:19:00+00',
    '2024-01-01 04:19:00.1+00',
    '2024-01-01 04:19:00.12+00',
    '2024-01-01 04:19:00.123+00',
    '2024-01-01 04:19:00.123456+00',
    '2024-12-31 23:59:59.999999+00',
    '0050-06-15 12:00:00+00',
    '2024-01-01 04:19:00.5+05:30',
    '2024-01-01 04:19:00+05:30:15',
    '2024-01-01 04:19:00-08',
    'infinity',
    '-infinity',
    '2024-01-01 04:19:00+00 BC',
    '2024-01-01 04:19:00.+00',
  ])('%s', (text) => {
    expect(parseTimestamptz(text)).toBe(throughDate(text));
  });
});

