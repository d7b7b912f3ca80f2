/** `wharf watch`: build once, then rebuild generated/ on every change of the sources. */
import { watchSources } from '../watch.js';
import { runBuild, type Printer } from './build-command.js';

export const WATCHED_FOLDERS = ['endpoints', 'schemas'] as const;

export async function runWatch(root: string, print: Printer, docs: boolean): Promise<number> {
  await runBuild(root, print, docs);
  const folders = docs ? [...WATCHED_FOLDERS, 'docs'] : [...WATCHED_FOLDERS];
  const watcher = watchSources(root, folders, async (changed) => {
    print.out(`Changed: ${changed.join(', ')}`);
    await runBuild(root, print, docs);
  });
  await watcher.ready;
  print.out(`Watching ${folders.join(', ')} for changes (Ctrl+C to stop).`);
  return new Promise<number>(() => undefined);
}
