import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from './collect-garbage.js';

/** A WeakRef to an otherwise unreachable 64 MB buffer (made in its own function, so no local keeps it). */
function unreachable(): WeakRef<Uint8Array> {
  return new WeakRef(new Uint8Array(64 * 1024 * 1024).fill(1));
}

describe('collectGarbage', () => {
  it('collects unreachable objects at once and leaves gc unexposed', async () => {
    const ref = unreachable();
    await tick(); // a WeakRef target is kept until the end of the job that created it
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
