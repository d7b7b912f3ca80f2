/**
 * Watch mode: rebuild on every change below the source folders. Builds never overlap; changes
 * that arrive during a build trigger exactly one more build after it.
 */
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';

export interface Watcher {
  /** Resolves once the initial scan is done: changes after this are seen. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
  /** Resolves when no build is running or queued (for tests). */
  idle(): Promise<void>;
}

/** A rebuild that threw (not a build with diagnostics: those the rebuild reports itself) is said, and watching goes on. */
function reportFailure(error: unknown): void {
  process.stderr.write(`wharf: the rebuild failed: ${error instanceof Error ? error.message : String(error)}; watching goes on, the last good build stays\n`);
}

export function watchSources(
  root: string,
  folders: readonly string[],
  rebuild: (changed: readonly string[]) => Promise<void>,
  debounceMs = 40,
  onFailure: (error: unknown) => void = reportFailure,
): Watcher {
  const watcher: FSWatcher = watch(
    folders.map((f) => path.join(root, f)),
    { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 30, pollInterval: 10 } },
  );
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;

  const run = async (): Promise<void> => {
    while (pending.size > 0) {
      const changed = [...pending].sort();
      pending = new Set();
      await rebuild(changed).catch(onFailure);
    }
    running = null;
  };
  const schedule = (file: string) => {
    pending.add(path.relative(root, file).split(path.sep).join('/'));
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!running) running = run();
    }, debounceMs);
  };
  watcher.on('add', schedule).on('change', schedule).on('unlink', schedule).on('addDir', schedule).on('unlinkDir', schedule);

  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    close: () => watcher.close(),
    async idle() {
      while (timer || running) await (running ?? new Promise((r) => setTimeout(r, debounceMs)));
    },
  };
}
