/**
 * nextLink and Content-Location: relative GET URLs that reproduce a read. Option order is fixed:
 * $apply, $filter, $orderby, $select, $expand, $count, $top, $skip, then other (function) parameters in
 * request order. Values are percent-encoded; `$` and `,` stay readable.
 */
import type { RawOptions } from './odata/options.js';

function enc(value: string): string {
  return encodeURIComponent(value).replace(/%24/g, '$').replace(/%2C/g, ',');
}

/** The encoded options before `$top` (cached with the compiled query): `$filter=...&` or ''. */
export function optionPrefix(raw: RawOptions): string {
  let out = '';
  const add = (key: string, value: string | undefined): void => {
    if (value !== undefined) out += `${key}=${enc(value)}&`;
  };
  add('$apply', raw.apply);
  add('$filter', raw.filter);
  add('$orderby', raw.orderby);
  add('$select', raw.select);
  add('$expand', raw.expand);
  add('$count', raw.count);
  return out;
}

export function readUrl(
  path: string,
  prefix: string,
  top: number,
  skip: number,
  extra: Readonly<Record<string, unknown>>,
): string {
  return pageUrl(path, prefix, `$top=${top}&$skip=${skip}`, extra);
}

/** nextLink of a keyset page: the options, `$top`, then the opaque `$skiptoken` in place of `$skip`. */
export function keysetUrl(path: string, prefix: string, top: number, token: string, extra: Readonly<Record<string, unknown>>): string {
  return pageUrl(path, prefix, `$top=${top}&$skiptoken=${token}`, extra);
}

function pageUrl(path: string, prefix: string, page: string, extra: Readonly<Record<string, unknown>>): string {
  let url = `${path}?${prefix}${page}`;
  for (const key in extra) {
    if (key.startsWith('$')) continue;
    const value = extra[key];
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === 'string') url += `&${enc(key)}=${enc(v)}`;
    }
  }
  return url;
}

