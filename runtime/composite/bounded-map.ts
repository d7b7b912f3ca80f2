/**
 * Maps items through an async function with at most `limit` in flight; results keep input order.
 * Once `stop()` answers true no further item is started (their results stay undefined); the calls
 * already in flight are awaited.
 */
export async function boundedMap<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  stop: () => boolean = () => false,
): Promise<(R | undefined)[]> {
  const results = new Array<R | undefined>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length && !stop()) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
