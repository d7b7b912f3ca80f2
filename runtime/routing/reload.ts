/**
 * Reloading generated/ while serving: loads it again and swaps the route table only when the load
 * succeeds (a failed load keeps the previous table and says why). Calls run one at a time.
 * `onReloaded` listeners hear every successful reload (the console announces `endpoint_reload`).
 */
import type { FastifyBaseLogger } from 'fastify';
import { WharfError } from '../errors/wharf-error.js';
import { loadGenerated } from '../load/load-generated.js';
import type { ReloadResult } from '../wharf-runtime.js';
import { RouteTable } from './route-table.js';
import type { RouteTableHolder } from './route-table-holder.js';

export interface Reloader {
  reload(): Promise<ReloadResult>;
  /** Called after each successful reload, with the table now serving; returns the unsubscribe. */
  onReloaded(listener: (table: RouteTable) => void): () => void;
}

function describe(error: unknown): string {
  return error instanceof WharfError ? error.message : `Loading generated/ failed: ${(error as Error).message}`;
}

export function createReloader(generatedDir: string, holder: RouteTableHolder, log: FastifyBaseLogger): Reloader {
  const listeners = new Set<(table: RouteTable) => void>();
  let queue: Promise<unknown> = Promise.resolve();
  async function reloadOnce(): Promise<ReloadResult> {
    try {
      const table = RouteTable.build(await loadGenerated(generatedDir));
      holder.swap(table);
      log.info({ sourceHash: table.sourceHash, endpoints: table.size }, 'generated/ reloaded');
      for (const listener of listeners) listener(table);
      return { ok: true, sourceHash: table.sourceHash, endpoints: table.size };
    } catch (error) {
      const message = describe(error);
      log.error({ err: error }, `Reload failed, still serving the previous endpoints: ${message}`);
      const current = holder.current;
      return { ok: false, error: message, sourceHash: current.sourceHash, endpoints: current.size };
    }
  }
  return {
    reload() {
      const run = queue.then(reloadOnce);
      queue = run.catch(() => undefined);
      return run;
    },
    onReloaded(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
