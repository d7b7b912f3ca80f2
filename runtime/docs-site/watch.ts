/**
 * Hot reload trigger: chokidar on the docs folder, only `*.md` and `config.json`, events
 * coalesced for 300 ms into one `onChange` call. Whether anything really changed is decided by
 * the content hash after the rebuild (so a touch without an edit does not raise the version).
 */
import { watch } from 'chokidar';
import { basename } from 'node:path';

export interface DocsWatcher {
  close(): Promise<void>;
}

export const DEBOUNCE_MS = 300;

export async function watchDocs(dir: string, onChange: () => void, debounceMs = DEBOUNCE_MS): Promise<DocsWatcher> {
  let timer: NodeJS.Timeout | null = null;
  const watcher = watch(dir, {
    ignoreInitial: true,
    ignored: (path, stats) => (stats?.isFile() ?? false) && !/\.md$/i.test(path) && basename(path) !== 'config.json',
    awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 20 },
  });
  const fire = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      onChange();
    }, debounceMs);
  };
  watcher.on('all', fire);
  await new Promise<void>((resolveReady) => watcher.once('ready', () => resolveReady()));
  return {
    async close() {
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}
