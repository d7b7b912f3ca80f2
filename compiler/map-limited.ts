/** `Promise.all(items.map(fn))` with at most `limit` calls in flight (thousands of small files, no EMFILE). */
export const FILE_PARALLELISM = 64;

export async function mapLimited<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = FILE_PARALLELISM): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
