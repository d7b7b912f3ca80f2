import { describe, expect, it } from 'vitest';
import { REQUEST_ID_BLOCK, requestId, requestIdCounts } from './request-id.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestId', () => {
  it('makes random version-4 UUIDs, unique across blocks', () => {
    const ids = Array.from({ length: 3 * REQUEST_ID_BLOCK + 7 }, () => requestId());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
    // every hex digit turns up in every fully random position (a digit stuck by the table would not);
    // position 14 is the version, 19 the variant (8, 9, a or b), 8/13/18/23 the dashes
    for (let at = 0; at < 36; at += 1) {
      if ([8, 13, 18, 23, 14].includes(at)) continue;
      expect(new Set(ids.map((id) => id[at])).size, `position ${at}`).toBe(at === 19 ? 4 : 16);
    }
  });

  it('draws the random bytes once per block, not once per id', () => {
    const before = requestIdCounts();
    for (let i = 0; i < 4 * REQUEST_ID_BLOCK; i += 1) requestId();
    const after = requestIdCounts();
    expect(after.ids - before.ids).toBe(4 * REQUEST_ID_BLOCK);
    expect(after.blocks - before.blocks).toBe(4);
  });
});
