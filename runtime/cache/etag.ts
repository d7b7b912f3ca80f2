/** Strong ETags (SHA-256 of the body) and If-None-Match matching (RFC 9110 §13.1.2, weak comparison). */
import { hash } from 'node:crypto';

export function etagOf(body: Buffer | string): string {
  return `"${hash('sha256', body, 'hex')}"`;
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}

/** True when the If-None-Match header names this ETag (or is `*`): answer 304. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined || header.trim() === '') return false;
  if (header.trim() === '*') return true;
  const wanted = opaque(etag);
  return header.split(',').some((candidate) => opaque(candidate) === wanted);
}
