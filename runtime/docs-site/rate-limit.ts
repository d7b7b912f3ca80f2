/**
 * Fixed-window limiter: at most `limit` requests per IP per window (default 30 per minute),
 * shared by the routes that use it (raw, search, feed, pages). In memory, per process.
 */
export interface RateLimiter {
  /** null when allowed, else the seconds until the window resets (for Retry-After). */
  take(key: string): number | null;
}

export function createRateLimiter(limit = 30, windowMs = 60_000, now: () => number = Date.now): RateLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  return {
    take(key) {
      const t = now();
      const start = t - (t % windowMs);
      if (start !== windowStart) {
        windowStart = start;
        counts = new Map();
      }
      const used = (counts.get(key) ?? 0) + 1;
      counts.set(key, used);
      if (used <= limit) return null;
      return Math.max(1, Math.ceil((start + windowMs - t) / 1000));
    },
  };
}
