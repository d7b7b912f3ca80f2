import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.js';

describe('collectGarbage', () => {
  it('releases unreachable ArrayBuffers at once and leaves gc unexposed', () => {
    let big: Uint8Array | null = new Uint8Array(64 * 1024 * 1024).fill(1);
    const held = process.memoryUsage().arrayBuffers;
    expect(big.length).toBe(64 * 1024 * 1024);
    big = null;
    collectGarbage();
    expect(held - process.memoryUsage().arrayBuffers).toBeGreaterThan(60 * 1024 * 1024);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
