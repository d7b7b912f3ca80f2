import { describe, expect, it } from 'vitest';
import { queryPairName } from './query-pair-name.js';

describe('queryPairName', () => {
  it.each([
    ['$top=1', '$top'],
    ['%24TOP=1', '$top'],
    ['a+b=1', 'a b'],
    [' x =1', 'x'],
    ['%zz=1', '%zz'],
    ['flag', 'flag'],
    ['=1', ''],
  ])('%s -> %s', (pair, want) => {
    expect(queryPairName(pair)).toBe(want);
  });
});
