/**
 * A query string parameter's name as a reader may take it: percent-decoded, `+` as a space,
 * trimmed, lower case (some servers compare names case-insensitively). Used where two spellings
 * must count as one name: a Proxy's baked parameters win over the client's in any spelling
 * (proxy/target-url.ts), and the cache key keeps such pairs in their order (cache/cache-key.ts).
 */
export function queryPairName(pair: string): string {
  const raw = pair.split('=', 1)[0] ?? '';
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    name = raw;
  }
  return name.trim().toLowerCase();
}
