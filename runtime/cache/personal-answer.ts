/**
 * Answers of an endpoint with Authorization rules are made for the caller's claims (a RowFilter,
 * Columns, ForwardClaims headers): never for a shared cache in front of the gateway. Their
 * Cache-Control becomes `private`, keeping the directives that only narrow it (`max-age`,
 * `no-cache`, ...) and dropping those that let shared caches keep it (`public`, `s-maxage`,
 * `proxy-revalidate`); `no-store` (stronger) stays as it is. An upstream does not know that the
 * gateway asked on one caller's behalf, so its `public` is not trusted here.
 */
const SHARED_ONLY = new Set(['public', 'private', 's-maxage', 'proxy-revalidate']);

export function personalCacheControl(value: unknown): string {
  const text = value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value);
  const directives = text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (directives.some((item) => item.toLowerCase() === 'no-store')) return directives.join(', ');
  const kept = directives.filter((item) => !SHARED_ONLY.has(item.split('=')[0]!.trim().toLowerCase()));
  return ['private', ...kept].join(', ');
}
