import { describe, expect, it } from 'vitest';
import { SlotList } from './slot-list.js';

describe('SlotList', () => {
  it('reuses freed slots, removes an item only from its own slot, and iterates the rest', () => {
    const list = new SlotList<{ n: number }>();
    const [a, b, c] = [{ n: 1 }, { n: 2 }, { n: 3 }];
    expect([list.add(a), list.add(b)]).toEqual([0, 1]);
    expect(list.remove(0, b)).toBe(false); // slot 0 holds a
    expect(list.remove(0, a)).toBe(true);
    expect(list.remove(0, a)).toBe(false); // already removed
    expect(list.add(c)).toBe(0);
    expect(list.at(0)).toBe(c);
    expect(list.size).toBe(2);
    expect([...list.values()]).toEqual([c, b]);
  });
});
