/**
 * The disk side of Files endpoints. Every endpoint and environment owns one flat directory:
 *   <StorageDirectory>/<env>/<BaseDirectory with {env} replaced>
 * created on first use. A stored file is reached only through a name that isStoredName accepts,
 * joined onto that directory, and only when it is a regular file (not a symlink) whose real path
 * lies inside the directory's real path. Uploads land in `.wharf-upload-*` temp files first.
 *
 * Several instances may share the storage directory (docs/files.md): there is no index, a file is
 * only ever published whole (a complete, fsynced temp file renamed or hard-linked into place), and
 * the startup sweep removes a temp file only when its writer is gone: a process of this host that
 * no longer runs (temp names carry `<host>.<pid>`), or any writer when the file has not been
 * written to for STALE_TEMP_MS. Never another instance's upload in progress.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { hostname } from 'node:os';
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FilesEndpoint } from '../contract/model.js';
import { TEMP_PREFIX, isStoredName } from './file-name.js';

/**
 * A temp file not written to for this long is a crash's leftover. An upload in progress writes to
 * its temp file all the time; an upload stalled this long has long since been cut off by the
 * server's request timeout.
 */
export const STALE_TEMP_MS = 60 * 60 * 1000;

/** Who writes a temp file: `<host>.<pid>` (host name limited to letters, digits, `.` and `-`). */
const OWNER = `${hostname().replace(/[^A-Za-z0-9.-]/g, '_')}.${process.pid}`;
const UUID_LENGTH = 36;

/** Whether the temp file's writer is a process of this host that has ended (false when unknown). */
function writerEnded(name: string): boolean {
  const owner = name.slice(TEMP_PREFIX.length, -(UUID_LENGTH + 1));
  const dot = owner.lastIndexOf('.');
  if (dot < 0 || owner.slice(0, dot) !== OWNER.slice(0, OWNER.lastIndexOf('.'))) return false;
  const pid = Number(owner.slice(dot + 1));
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export interface StoredFile {
  readonly name: string;
  readonly size: number;
  readonly mtimeMs: number;
}

function isInside(root: string, candidate: string): boolean {
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export class FileStore {
  readonly #root: string;
  readonly #ready = new Map<string, Promise<string>>();

  constructor(root: string) {
    this.#root = path.resolve(root);
  }

  get root(): string {
    return this.#root;
  }

  /** Absolute directory of an endpoint in an environment (not created). */
  directoryOf(endpoint: FilesEndpoint, environment: string): string {
    const env = environment.toLowerCase();
    const base = endpoint.storageDirectory ? path.resolve(endpoint.storageDirectory) : this.#root;
    const relative = endpoint.baseDirectory.replaceAll('{env}', env);
    const envRoot = path.join(base, env);
    const dir = path.resolve(envRoot, relative);
    if (dir !== envRoot && !isInside(envRoot, dir)) throw new Error(`BaseDirectory of ${endpoint.id} leaves the storage root`);
    return dir;
  }

  /** The directory, created on first use; its real path (symlinked roots resolved once). */
  async ensureDirectory(endpoint: FilesEndpoint, environment: string): Promise<string> {
    const dir = this.directoryOf(endpoint, environment);
    let ready = this.#ready.get(dir);
    if (!ready) {
      ready = fs.mkdir(dir, { recursive: true }).then(() => fs.realpath(dir));
      ready.catch(() => this.#ready.delete(dir));
      this.#ready.set(dir, ready);
    }
    return ready;
  }

  /** Opens a stored file for reading; null when it does not exist or is not a plain file inside dir. */
  async open(dir: string, name: string): Promise<{ handle: FileHandle; stats: Stats } | null> {
    if (!isStoredName(name) || name.startsWith(TEMP_PREFIX)) return null;
    const full = path.join(dir, name);
    if (path.dirname(full) !== dir) return null;
    let handle: FileHandle;
    try {
      // O_NONBLOCK: a FIFO (or device) put there must not make the open wait for a writer; no
      // effect on the regular files served
      handle = await fs.open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return null;
    }
    try {
      const stats = await handle.stat();
      const real = await fs.realpath(full);
      if (stats.isFile() && isInside(dir, real)) return { handle, stats };
    } catch {
      // fall through
    }
    await handle.close();
    return null;
  }

  /** Plain files of dir (no temp files, no symlinks, no directories), sorted by name. */
  async list(dir: string): Promise<StoredFile[]> {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const files: StoredFile[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !isStoredName(entry.name) || entry.name.startsWith(TEMP_PREFIX)) continue;
      try {
        const stats = await fs.lstat(path.join(dir, entry.name));
        if (stats.isFile()) files.push({ name: entry.name, size: stats.size, mtimeMs: stats.mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
    return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** true when removed, false when there was no such plain file. */
  async remove(dir: string, name: string): Promise<boolean> {
    if (!isStoredName(name) || name.startsWith(TEMP_PREFIX)) return false;
    const full = path.join(dir, name);
    try {
      const stats = await fs.lstat(full);
      if (!stats.isFile()) return false;
      await fs.unlink(full);
      return true;
    } catch {
      return false;
    }
  }

  async exists(dir: string, name: string): Promise<boolean> {
    try {
      await fs.lstat(path.join(dir, name));
      return true;
    } catch {
      return false;
    }
  }

  tempPathIn(dir: string): string {
    return path.join(dir, `${TEMP_PREFIX}${OWNER}-${randomUUID()}`);
  }

  /**
   * Moves a complete, fsynced temp file into place. Without overwrite it is a hard link (atomic,
   * fails when the name exists: of two racing uploads exactly one wins) and the temp is removed.
   * Returns false when the name exists and overwrite is off.
   */
  async commit(temp: string, dir: string, name: string, overwrite: boolean): Promise<boolean> {
    const target = path.join(dir, name);
    try {
      if (overwrite) {
        await fs.rename(temp, target);
      } else {
        try {
          await fs.link(temp, target);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw error;
        }
      }
      await syncDirectory(dir);
      return true;
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  /**
   * Removes `.wharf-upload-*` leftovers (a crash mid-upload) under the storage root: those whose
   * writer was a process of this host that has ended, and any not written to for `staleMs`
   * (another instance sharing the directory may be writing the others).
   */
  async removeTempLeftovers(root: string = this.#root, staleMs: number = STALE_TEMP_MS): Promise<number> {
    const before = Date.now() - staleMs;
    let removed = 0;
    let entries;
    try {
      entries = await fs.readdir(root, { withFileTypes: true, recursive: true });
    } catch {
      return 0;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.startsWith(TEMP_PREFIX)) continue;
      const file = path.join(entry.parentPath, entry.name);
      const stats = await fs.lstat(file).catch(() => null);
      if (!stats || (stats.mtimeMs > before && !writerEnded(entry.name))) continue;
      await fs.rm(file, { force: true });
      removed += 1;
    }
    return removed;
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // some file systems refuse fsync on directories; the rename itself is still atomic
  } finally {
    await handle.close();
  }
}
