/** Load results helpers for the benchmarks (the load itself: autocannon.ts). */
import type { LoadResult } from './autocannon.js';

export { load, type LoadResult } from './autocannon.js';

/** The round with the median req/s (its p99 with it). */
export function median(results: readonly LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)] as LoadResult;
}
