/**
 * `wharf dev` on a throwaway copy of the project, for tests that save files and watch the running
 * server change: the session, its printed lines, the demo token, and `eventually` for polling.
 */
import type { Printer } from '../../compiler/cli/build-command.js';
import { demoToken, startDev, type DevSession } from '../../compiler/cli/serve-command.js';
import { copyProject, type TempProject } from './project.js';

export interface DevFixture {
  readonly project: TempProject;
  readonly dev: DevSession;
  /** Everything the session printed. */
  readonly lines: string[];
  /** The demo token the first banner created (null if the store already had tokens). */
  readonly demo: string | null;
  /** Polls until the predicate holds (the watcher debounces and rebuilds in the background). */
  eventually(check: () => Promise<boolean>, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function startDevFixture(): Promise<DevFixture> {
  const lines: string[] = [];
  const print: Printer = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
  const project = await copyProject();
  // Polling sends hundreds of requests: a budget far above it (through settings).
  const env = { RateLimiting__IpLimit: '100000', RateLimiting__TokenLimit: '100000' };
  const dev = await startDev({ command: 'dev', rest: [], root: project.root, port: 0, host: '127.0.0.1', docs: false }, print, { logger: false, env });
  const demo = await demoToken(dev.server);
  return {
    project,
    dev,
    lines,
    demo,
    async eventually(check, what) {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`timed out waiting for: ${what}\n${lines.join('\n')}`);
    },
    async close() {
      await dev.close();
      await project.remove();
    },
  };
}
