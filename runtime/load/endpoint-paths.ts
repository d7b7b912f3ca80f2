/**
 * generated/ is read as data, not trusted: a manifest edited by hand, or left from an older build,
 * may name paths the build refuses (compiler rules static-content, files-base-directory). The paths
 * of every endpoint are checked again when generated/ is loaded, before anything is served:
 *   Static: ContentFile lies inside its endpoint folder, which lies inside endpoints/: as text, and,
 *   when the file exists, with every symbolic link followed; and it is a file, not a folder. A file
 *   that cannot be read stays the per-request STATIC_CONTENT_UNAVAILABLE it was (nothing to serve,
 *   nothing to leak).
 *   Files: BaseDirectory and StorageDirectory hold no NUL (every request of the endpoint was a 500),
 *   BaseDirectory stays inside the storage root.
 * A refused endpoint fails the load (LOAD_ENDPOINT_REFUSED): at start the gateway does not start, on
 * a reload the last good table keeps serving. A few realpath calls per Static endpoint, once per load.
 */
import { statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { containedPath, resolvesInside } from '../contract/contained-path.js';
import type { EndpointModel, FilesEndpoint, StaticEndpoint } from '../contract/model.js';
import { escapeUnprintable } from '../contract/unprintable.js';
import { WharfError } from '../errors/wharf-error.js';

const ENDPOINTS = 'endpoints';
const quoted = (value: string): string => `'${escapeUnprintable(value)}'`;
/** The normalized relative form of `p`, or null when it is absolute, leaves its folder or holds a NUL. */
const contained = (p: string): string | null => (p.includes('\0') ? null : containedPath(p));

function contentFileProblem(model: StaticEndpoint, projectRoot: string): string | null {
  const folder = contained(path.posix.dirname(model.sourceFile));
  if (folder === null || !folder.startsWith(`${ENDPOINTS}/`)) return `its entity.json ${quoted(model.sourceFile)} is not inside ${ENDPOINTS}/`;
  const file = contained(model.contentFile);
  if (file === null || !file.startsWith(`${folder}/`)) return `ContentFile ${quoted(model.contentFile)} is not inside its endpoint folder ${quoted(`${folder}/`)}`;
  let stats: Stats;
  try {
    stats = statSync(path.join(projectRoot, file));
  } catch {
    return null;
  }
  const inFolder = resolvesInside(path.join(projectRoot, folder), file.slice(folder.length + 1));
  if (!inFolder || !resolvesInside(path.join(projectRoot, ENDPOINTS), folder.slice(ENDPOINTS.length + 1))) {
    return `ContentFile ${quoted(model.contentFile)} leads outside its endpoint folder ${quoted(`${folder}/`)} (a symbolic link)`;
  }
  return stats.isFile() ? null : `ContentFile ${quoted(model.contentFile)} is not a file`;
}

function filesDirectoryProblem(model: FilesEndpoint): string | null {
  if (model.baseDirectory.includes('\0')) return 'BaseDirectory contains a NUL character';
  if (model.storageDirectory?.includes('\0')) return 'StorageDirectory contains a NUL character';
  const base = containedPath(model.baseDirectory.replaceAll('{env}', 'env'));
  if (base === null) return `BaseDirectory ${quoted(model.baseDirectory)} leaves the storage root`;
  return null;
}

/** Why the paths of `model` are refused, or null. */
export function endpointPathProblem(model: EndpointModel, projectRoot: string): string | null {
  if (model.kind === 'static') return contentFileProblem(model, projectRoot);
  if (model.kind === 'files') return filesDirectoryProblem(model);
  return null;
}

/** Throws LOAD_ENDPOINT_REFUSED for the first endpoint whose paths are refused. */
export function checkEndpointPaths(models: readonly EndpointModel[], projectRoot: string): void {
  for (const model of models) {
    const reason = endpointPathProblem(model, projectRoot);
    if (reason !== null) throw new WharfError('LOAD_ENDPOINT_REFUSED', { id: escapeUnprintable(model.id), reason });
  }
}
