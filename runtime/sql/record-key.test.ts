import { describe, it, expect } from 'vitest';
import { parseRecordKey } from './record-key.js';

describe('parseRecordKey', () => {
  it.each([
    ['7', { type: 'int', value: 7 }],
    ['-3', { type: 'int', value: -3 }],
    ['5000000000', { type: 'bigint', value: 5000000000 }],
    ['1234567890123456', { type: 'string', value: '1234567890123456' }],
    ['0F8FAD5B-D9CB-469F-A165-70867728950E', { type: 'guid', value: '0f8fad5b-d9cb-469f-a165-70867728950e' }],
    ["x' OR 1=1 --", { type: 'string', value: "x' OR 1=1 --" }],
  ] as const)('%s', (text, want) => {
    expect(parseRecordKey(text)).toEqual(want);
  });
  it('rejects an over-long key', () => {
    expect(() => parseRecordKey('x'.repeat(401))).toThrow('Invalid key: length must be 1 to 400 characters');
  });
});
