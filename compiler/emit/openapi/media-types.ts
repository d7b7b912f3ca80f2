/** Media types for documentation: file extension -> type, and what schema a content type gets. */
import type { SchemaObject } from 'openapi3-ts/oas32';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.bmp': 'image/bmp',
  '.csv': 'text/csv',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.gif': 'image/gif',
  '.htm': 'text/html',
  '.html': 'text/html',
  '.jpeg': 'image/jpeg',
  '.jpg': 'image/jpeg',
  '.json': 'application/json',
  '.md': 'text/markdown',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.txt': 'text/plain',
  '.webp': 'image/webp',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xml': 'application/xml',
  '.zip': 'application/zip',
};

export const OCTET_STREAM = 'application/octet-stream';

/** Media type of an extension (`.pdf`); unknown extensions are `application/octet-stream`. */
export function mediaTypeOf(extension: string): string {
  return BY_EXTENSION[extension.toLowerCase()] ?? OCTET_STREAM;
}

/** Distinct media types of the allowed extensions, sorted; empty list = any type. */
export function mediaTypesOf(extensions: readonly string[]): string[] {
  return [...new Set(extensions.map(mediaTypeOf))].sort();
}

/**
 * Schema for a response body of this media type: any JSON value for JSON, a string for text
 * and XML, none for binary content (OpenAPI 3.1+ describes raw bytes by the media type alone).
 */
export function bodySchemaFor(mediaType: string): SchemaObject | undefined {
  const type = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json' || type.endsWith('+json')) return {};
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml')) return { type: 'string' };
  return undefined;
}
