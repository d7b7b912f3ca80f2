/**
 * Sync benchmark, real PostgreSQL and RabbitMQ on loopback (test/setup), one persistent message per
 * change (BENCH_SYNC_MESSAGE_PER=Batch: one per batch), publisher confirms for every batch, up to
 * BENCH_SYNC_IN_FLIGHT (MaxBatchesInFlight, default 4) batches awaiting them at once:
 *  1. throughput: 100,000 changed rows waiting in PostgreSQL, `wharf sync` started, time to the last
 *     broker confirm -> changes per second, and the CPU time per change of this process (the sync
 *     runs in it), the broker and PostgreSQL: on two cores their sum bounds the throughput;
 *  2. lag: a steady write load (BENCH_SYNC_RATE rows/s in transactions of 100 for 10 s) while the
 *     sync runs -> commit-to-confirm lag p50/p99 against the polling interval.
 * Run alone with `node --import tsx bench/sync.ts`.
 */
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Batch } from '../runtime/sync/destinations/batch.js';
import { startSync, type RunningSync } from '../runtime/sync/run.js';
import { commandCpuMicros, processCpuMicros } from './process-cpu.js';
import { startPostgres } from '../test/setup/postgres.js';
import { startRabbit } from '../test/setup/rabbitmq.js';
import { installOutbox, pgEnvironment, projectWith } from '../test/sync/sync-fixture.js';

const ROWS = Number(process.env['BENCH_SYNC_ROWS'] ?? 100_000);
const RATE = Number(process.env['BENCH_SYNC_RATE'] ?? 2000);
const POLL_SECONDS = Number(process.env['BENCH_SYNC_POLL'] ?? 1);
const MESSAGE_PER = process.env['BENCH_SYNC_MESSAGE_PER'] === 'Batch' ? 'Batch' : 'Change';
const IN_FLIGHT = Number(process.env['BENCH_SYNC_IN_FLIGHT'] ?? 4);

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

async function insert(client: pg.Client, tag: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO inventory."Products" ("Sku", "ProductName", "CategoryId", "UnitPrice", "UnitsInStock", "CreatedAt")
     SELECT $1 || '-' || g, 'Bench ' || g, 1, 9.99, g, now() FROM generate_series(1, $2::int) g`,
    [tag, count],
  );
}

export async function runSyncBench(): Promise<void> {
  const [db, rabbit] = await Promise.all([startPostgres(), startRabbit()]);
  try {
    await installOutbox(db.url);
    const root = await projectWith(
      {
        bench: pgEnvironment(db.url, [{ Type: 'RabbitMQ', Key: 'mq', Url: rabbit.url, Exchange: 'wharf.bench', Queue: 'bench.products', MessagePer: MESSAGE_PER }], {
          PollingIntervalSeconds: POLL_SECONDS,
          MaxRecordsPerBatch: 1000,
          MaxBatchesInFlight: IN_FLIGHT,
        }),
      },
      { Health: { Enabled: false } },
    );
    let onBatch: (batch: Batch) => void = () => undefined;
    const start = () => startSync({ root, logLevel: 'warn', onDelivered: (b) => onBatch(b) });
    const initialized = async (sync: RunningSync) => {
      while (sync.service.state.get('bench', 'Products') === null) await new Promise((r) => setTimeout(r, 20));
    };
    // State at the current version, then the rows, then a fresh start: a backlog of ROWS changes.
    let sync = await start();
    await initialized(sync);
    await sync.close();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    for (let done = 0; done < ROWS; done += 1000) await insert(client, `T${done}`, Math.min(1000, ROWS - done));
    let delivered = 0;
    let drained: () => void = () => undefined;
    const allDelivered = new Promise<void>((resolve) => (drained = resolve));
    onBatch = (b) => {
      delivered += b.records.length;
      if (delivered >= ROWS) drained();
    };
    const t0 = performance.now();
    const cpu0 = { sync: processCpuMicros(null), broker: commandCpuMicros('beam.smp'), postgres: commandCpuMicros('postgres') };
    sync = await start();
    await allDelivered;
    const seconds = (performance.now() - t0) / 1000;
    const perChange = (now: number, before: number) => ((now - before) / ROWS).toFixed(1);
    const cpu = {
      sync: perChange(processCpuMicros(null), cpu0.sync),
      broker: perChange(commandCpuMicros('beam.smp'), cpu0.broker),
      postgres: perChange(commandCpuMicros('postgres'), cpu0.postgres),
    };

    // Lag under a steady load.
    const commits = new Map<string, number>();
    const lags: number[] = [];
    onBatch = (b) => {
      const now = performance.now();
      for (const r of b.records) {
        const committed = commits.get(String(r['Sku']).split('-')[0] as string);
        if (committed !== undefined) lags.push(now - committed);
      }
    };
    const txPerSecond = RATE / 100;
    const loadStart = performance.now();
    for (let i = 0; i < txPerSecond * 10; i++) {
      const due = loadStart + (i * 1000) / txPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await insert(client, `L${i}`, 100);
      commits.set(`L${i}`, performance.now());
    }
    while (lags.length < txPerSecond * 10 * 100) await new Promise((r) => setTimeout(r, 50));
    await client.end();
    await sync.close();
    lags.sort((a, b) => a - b);
    console.log(`sync -> RabbitMQ, message per ${MESSAGE_PER.toLowerCase()}, confirms per batch of 1,000, ${IN_FLIGHT} batches in flight, polling ${POLL_SECONDS} s`);
    console.log(
      `  throughput: ${ROWS.toLocaleString('en')} waiting changes exported in ${seconds.toFixed(2)} s = ${Math.round(ROWS / seconds).toLocaleString('en')} changes/s (target >= 20,000)`,
    );
    console.log(`  CPU per change: sync ${cpu.sync} µs, RabbitMQ ${cpu.broker} µs, PostgreSQL ${cpu.postgres} µs (every beam.smp / postgres process of the machine)`);
    console.log(
      `  lag at ${RATE.toLocaleString('en')} rows/s for 10 s, commit -> confirmed publish: p50 ${(percentile(lags, 0.5) / 1000).toFixed(2)} s, p99 ${(percentile(lags, 0.99) / 1000).toFixed(2)} s (target p99 <= ${2 * POLL_SECONDS} s)`,
    );
  } finally {
    await Promise.all([db.stop(), rabbit.stop()]);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runSyncBench();
