/**
 * Writes a file so a reader (or a crash, kill -9 included) sees the old content or the new one,
 * never a torn one: write a temp file in the same folder, fsync it, copy the previous version to
 * `<file>.bak` (through a temp copy and a rename, so the backup is never torn either), rename the
 * temp file over the target, fsync the folder. A kill can leave a `.<name>.<hex>.tmp` file behind.
 */
import { copyFile, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // the backup is replaced atomically too: copy beside it, then rename over it
    const copied = await copyFile(file, `${temp}.bak`).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        return false;
      },
    );
    if (copied) await rename(`${temp}.bak`, `${file}.bak`);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    await rm(`${temp}.bak`, { force: true });
    throw error;
  }
  const dir = await open(path.dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
