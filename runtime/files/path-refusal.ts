/**
 * Below `/api/{env}/files/` a request path that cannot even be parsed (`..`, encoded separators,
 * control characters, malformed percent-encoding) names no file: it is answered 404 like any
 * unknown file id, not 400, so that probing for traversal learns nothing (docs/files.md).
 */
import { WharfError } from '../errors/wharf-error.js';

const FILES_PATH = /^\/api\/[^/?#]+\/files\//i;

export function isFilesPath(url: string): boolean {
  return FILES_PATH.test(url);
}

/** The error to answer with: FILES_NOT_FOUND for a files path, else the error itself. */
export function filesPathRefusal(url: string, error: unknown): unknown {
  return isFilesPath(url) ? new WharfError('FILES_NOT_FOUND') : error;
}
