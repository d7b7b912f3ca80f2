/**
 * `wharf sync`: run the sync process (environments/sync.json + environments/<env>/sync.json);
 * `wharf sync --demo`: the self-contained demo (embedded database -> files);
 * `wharf sync deadletters list|replay|purge [id ...|--all]`: the dead-letter store.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadSyncConfig } from './config/load.js';
import { runDemo } from './demo/demo.js';
import { startSync } from './run.js';
import { DeadLetterStore } from './state/dead-letters.js';

export const SYNC_USAGE = `Usage:
  wharf sync [--root DIR] [--health-port N]        run the sync service (see docs/sync.md)
  wharf sync --demo [--duration S] [--health-port N]  demo: embedded database -> files in data/sync-demo/out/
  WebHost__Enabled=true wharf sync                 also serve the dashboard at /ui on the health port
  wharf sync deadletters list [--json]
  wharf sync deadletters replay <id ...> | --all   replay now (attempts reset)
  wharf sync deadletters purge <id ...> | --all    drop; the next poll sends the batch again
`;

export interface SyncCliIo {
  out(line: string): void;
  err(line: string): void;
}

const consoleIo: SyncCliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** Resolves on the first SIGINT/SIGTERM; installed before anything starts, so an early signal is not lost. */
function nextSignal(): Promise<void> {
  return new Promise((resolve) => {
    const handler = (): void => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      resolve();
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

function ids(positionals: readonly string[], all: boolean | undefined, io: SyncCliIo): number[] | 'all' | null {
  if (all) return 'all';
  const parsed = positionals.map(Number);
  if (parsed.length === 0 || parsed.some((n) => !Number.isInteger(n) || n <= 0)) {
    io.err('Name the dead letters by id (see `wharf sync deadletters list`) or pass --all.');
    return null;
  }
  return parsed;
}

async function deadLettersCommand(root: string, args: readonly string[], io: SyncCliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...args], options: { all: { type: 'boolean' }, json: { type: 'boolean' }, root: { type: 'string' } }, allowPositionals: true, strict: true });
  const [action, ...rest] = positionals;
  const { config } = await loadSyncConfig(path.resolve(values.root ?? root));
  const store = DeadLetterStore.at(config.service.stateDirectory);
  try {
    switch (action) {
      case 'list': {
        const letters = store.list();
        if (values.json) {
          io.out(JSON.stringify(letters.map(({ data, ...rest }) => ({ ...rest, count: (JSON.parse(data) as { count?: number }).count ?? null })), null, 2));
          return 0;
        }
        if (letters.length === 0) io.out('No dead letters.');
        for (const l of letters) {
          const next = l.nextAttemptAt === null ? 'exhausted' : `next replay ${new Date(l.nextAttemptAt).toISOString()}`;
          io.out(`#${l.id} ${l.sourceKey} v${l.fromVersion}..v${l.toVersion} ${l.status} attempts=${l.attempts} ${next} at=${l.timestamp} error=${l.error}`);
        }
        return 0;
      }
      case 'replay': {
        const which = ids(rest, values.all, io);
        if (which === null) return 2;
        io.out(`${store.rearm(which)} dead letter(s) due for replay now; the running sync process picks them up on its next cycle.`);
        return 0;
      }
      case 'purge': {
        const which = ids(rest, values.all, io);
        if (which === null) return 2;
        io.out(`${store.purge(which)} dead letter(s) purged; their objects poll again and re-send those changes.`);
        return 0;
      }
      default:
        io.err(SYNC_USAGE);
        return 2;
    }
  } finally {
    store.close();
  }
}

export async function runSyncCommand(rest: readonly string[], options: { root: string; io?: SyncCliIo }): Promise<number> {
  const io = options.io ?? consoleIo;
  if (rest[0] === 'deadletters') return deadLettersCommand(options.root, rest.slice(1), io);
  const { values } = parseArgs({
    args: [...rest],
    options: {
      demo: { type: 'boolean' },
      duration: { type: 'string' },
      'health-port': { type: 'string' },
      root: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    io.out(SYNC_USAGE);
    return 0;
  }
  const root = path.resolve(values.root ?? options.root);
  const healthPort = values['health-port'] === undefined ? undefined : Number(values['health-port']);
  if (healthPort !== undefined && !(Number.isInteger(healthPort) && healthPort >= 0 && healthPort < 65536)) {
    io.err(`--health-port must be an integer from 0 to 65535, got '${values['health-port']}'`);
    return 2;
  }
  const signalled = nextSignal();
  if (values.demo) {
    const duration = values.duration === undefined ? undefined : Number(values.duration);
    const demo = await runDemo({
      root,
      print: io.out,
      logStream: process.stderr,
      ...(duration !== undefined && Number.isFinite(duration) ? { durationSeconds: duration } : {}),
      ...(healthPort !== undefined ? { healthPort } : {}),
    });
    await Promise.race([demo.done, signalled]);
    await demo.stop();
    return 0;
  }
  const sync = await startSync({ root, ...(healthPort !== undefined ? { healthPort } : {}) });
  await signalled;
  await sync.close();
  return 0;
}
