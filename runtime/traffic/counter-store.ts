/**
 * Fixed-window counters: the first hit on a key opens a window of `windowMs`; every hit in it
 * increments; the window closes `windowMs` after its first hit. Increment-and-read is one atomic
 * step (one JS turn in memory, one Lua script in Redis), so N concurrent hits always see the
 * counts 1..N: at a limit L exactly L requests pass, however they interleave.
 */

export interface CounterHit {
  /** Count including this hit. */
  readonly count: number;
  /** Epoch ms at which the window closes and the count starts over. */
  readonly resetAt: number;
}

export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  hit(key: string, windowMs: number): Promise<CounterHit>;
  /** The same step without waiting, when the store needs no I/O (memory); absent otherwise. */
  hitSync?(key: string, windowMs: number): CounterHit;
  close(): Promise<void>;
}

interface Window {
  count: number;
  resetAt: number;
}

export class MemoryCounterStore implements CounterStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async hit(key: string, windowMs: number): Promise<CounterHit> {
    return this.hitSync(key, windowMs);
  }

  hitSync(key: string, windowMs: number): CounterHit {
    const now = this.now();
    if (now >= this.nextSweep || this.windows.size >= this.maxKeys) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetAt: window.resetAt };
  }

  /** Drops closed windows (at most once a second, or when the key bound is reached). */
  private sweep(now: number): void {
    this.nextSweep = now + 1000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    // Still full (a flood of distinct keys): forget the oldest windows rather than grow without bound.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
