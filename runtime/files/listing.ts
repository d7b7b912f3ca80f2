/**
 * `GET …/{name}/list?prefix=&$top=&$skip=`: the files of the directory, sorted by name, in the
 * paging envelope, with X-Total-Count. $top defaults to 100 and may be at most 1000; an option
 * given twice is a 400.
 */
import { WharfError } from '../errors/wharf-error.js';
import type { StoredFile } from './file-store.js';

export const DEFAULT_LIST_TOP = 100;
export const MAX_LIST_TOP = 1000;

export interface ListQuery {
  readonly prefix: string;
  readonly top: number;
  readonly skip: number;
}

function integer(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^-?\d+$/.test(value.trim())) {
    throw new WharfError('FILES_BAD_PAGING', { reason: `Invalid ${option} value: ${String(value)}` });
  }
  return Number(value.trim());
}

export function parseListQuery(query: Readonly<Record<string, unknown>>): ListQuery {
  // a repeated option arrives as an array: `prefix=a&prefix=b` would be read as the text `a,b`
  for (const option of ['prefix', '$top', '$skip']) {
    if (Array.isArray(query[option])) throw new WharfError('FILES_BAD_PAGING', { reason: `${option} given more than once` });
  }
  const prefix = query.prefix === undefined ? '' : String(query.prefix);
  const top = integer(query.$top, '$top', DEFAULT_LIST_TOP);
  const skip = integer(query.$skip, '$skip', 0);
  if (skip < 0) throw new WharfError('FILES_BAD_PAGING', { reason: '$skip cannot be negative' });
  if (top < 0) throw new WharfError('FILES_BAD_PAGING', { reason: '$top cannot be negative' });
  if (top > MAX_LIST_TOP) throw new WharfError('FILES_BAD_PAGING', { reason: `$top cannot exceed ${MAX_LIST_TOP}` });
  return { prefix, top, skip };
}

export interface ListItem {
  readonly fileId: string;
  readonly fileName: string;
  readonly contentType: string;
  readonly size: number;
  readonly lastModified: string;
  readonly url: string;
}

export interface ListPage {
  readonly total: number;
  readonly body: { success: true; count: number; value: ListItem[]; nextLink: string | null };
}

export function listPage(
  files: readonly StoredFile[],
  query: ListQuery,
  listPath: string,
  toItem: (file: StoredFile) => ListItem,
): ListPage {
  const matching = query.prefix === '' ? files : files.filter((file) => file.name.startsWith(query.prefix));
  const page = matching.slice(query.skip, query.skip + query.top);
  const more = query.top > 0 && query.skip + query.top < matching.length;
  const params = new URLSearchParams();
  if (query.prefix !== '') params.set('prefix', query.prefix);
  params.set('$top', String(query.top));
  params.set('$skip', String(query.skip + query.top));
  return {
    total: matching.length,
    body: {
      success: true,
      count: page.length,
      value: page.map(toItem),
      nextLink: more ? `${listPath}?${params.toString().replaceAll('%24', '$')}` : null,
    },
  };
}
