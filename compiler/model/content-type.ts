/** Static content type detection from the content file's extension. */
import { staticFormatOf } from '../../runtime/contract/static-content.js';
import { DEFAULTS } from './defaults.js';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
};

export function detectContentType(fileName: string): string | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  return BY_EXTENSION[fileName.slice(dot).toLowerCase()] ?? null;
}

export function staticContentType(contentFile: string, configured: string | undefined): string {
  return configured ?? detectContentType(contentFile) ?? DEFAULTS.static.ContentType;
}

/** Content that the OData filter of Static endpoints understands (JSON, XML and CSV). */
export function isFilterable(contentType: string): boolean {
  return staticFormatOf(contentType) !== null;
}
