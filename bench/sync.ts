/**
 * Sync benchmark, real PostgreSQL and RabbitMQ on loopback (test/setup), one persistent message per
 * change (BENCH_SYNC_MESSAGE_PER=Batch: one per batch), publisher confirms for every batch, up to
 * BENCH_SYNC_IN_FLIGHT (MaxBatchesInFlight, default 4) batches awaiting them at once, measured with
 * the destination's default MessageHeaders (the x-wharf-* headers) and with MessageHeaders false
 * (BENCH_SYNC_HEADERS=1 or 0: only one of them):
 *  1. throughput: 100,000 changed rows waiting in PostgreSQL, `wharf sync` started, time to the last
 *     broker confirm -> changes per second, and the CPU time per change of this process (the sync
 *     runs in it), the broker and PostgreSQL: on two cores their sum bounds the throughput;
 *  2. lag (first setting only): a steady write load (BENCH_SYNC_RATE rows/s, transactions of 100, 10 s) while the
 *     sync runs -> commit-to-confirm lag p50/p99 against the polling interval.
 * BENCH_SYNC_BROKER_ERL_ARGS: Erlang VM flags for the broker (appended to its defaults, which on
 * RabbitMQ 3.10 already include `+sbwt none +sbwtdcpu none +sbwtdio none`: no busy waiting). Default
 * `-rabbit classic_queue_default_version 2`: classic queues v2, the only classic queue storage of
 * RabbitMQ 4.x (4.0 removed v1, its release notes) and the recommended one since 3.13; Debian's 3.10
 * still creates v1 queues. `BENCH_SYNC_BROKER_ERL_ARGS=` (empty) measures the 3.10 defaults.
 * BENCH_SYNC_LAZY (default 1): a `queue-mode: lazy` policy on the bench's queues. RabbitMQ 3.12 and
 * later ignore queue-mode and always run classic queues that way (messages go to disk, only a few
 * stay in memory: the RabbitMQ docs' "Lazy Queues" page); 3.10 keeps a backlog in the queue
 * process's memory unless a policy says lazy, and pays for it in garbage collection per message.
 * BENCH_SYNC_LAZY=0 measures 3.10's default mode.
 * CPU is counted for this bench's own broker and PostgreSQL (their process trees), not for other
 * brokers or databases on the machine. Run alone with `node --import tsx bench/sync.ts`.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import amqp from 'amqplib';
import pg from 'pg';
import type { Batch } from '../runtime/sync/destinations/batch.js';
import { startSync, type RunningSync } from '../runtime/sync/run.js';
import { processCpuMicros, processTreeCpuMicros } from './process-cpu.js';
import { recordTarget } from './targets.js';
import { startPostgres, type TestPostgres } from '../test/setup/postgres.js';
import { brokerPid, startRabbit, type TestRabbit } from '../test/setup/rabbitmq.js';
import { installOutbox, pgEnvironment, projectWith } from '../test/sync/sync-fixture.js';

const ROWS = Number(process.env['BENCH_SYNC_ROWS'] ?? 100_000);
const RATE = Number(process.env['BENCH_SYNC_RATE'] ?? 2000);
const POLL_SECONDS = Number(process.env['BENCH_SYNC_POLL'] ?? 1);
const MESSAGE_PER = process.env['BENCH_SYNC_MESSAGE_PER'] === 'Batch' ? 'Batch' : 'Change';
const IN_FLIGHT = Number(process.env['BENCH_SYNC_IN_FLIGHT'] ?? 4);
/** The destination's MessageHeaders, one throughput run each: BENCH_SYNC_HEADERS=1 (default only), 0 (false only), both (default). */
const HEADERS: readonly boolean[] = process.env['BENCH_SYNC_HEADERS'] === '1' ? [true] : process.env['BENCH_SYNC_HEADERS'] === '0' ? [false] : [true, false];
const CQ_V2 = '-rabbit classic_queue_default_version 2';
const BROKER_ERL_ARGS = process.env['BENCH_SYNC_BROKER_ERL_ARGS'] ?? CQ_V2;
const LAZY_QUEUES = process.env['BENCH_SYNC_LAZY'] !== '0';
/** BENCH_SYNC_LAG=0: the throughput part only. */
const LAG = process.env['BENCH_SYNC_LAG'] !== '0';

/** The postmaster of the database `client` is connected to: the parent of its backend. */
async function postmasterPid(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const stat = readFileSync(`/proc/${rows[0]!.pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

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
  console.log(`sync -> RabbitMQ, message per ${MESSAGE_PER.toLowerCase()}, confirms per batch of 1,000, ${IN_FLIGHT} batches in flight, polling ${POLL_SECONDS} s`);
  const [db, rabbit] = await Promise.all([startPostgres(), startRabbit(BROKER_ERL_ARGS ? { erlArgs: BROKER_ERL_ARGS } : {})]);
  try {
    await installOutbox(db.url);
    const queues = BROKER_ERL_ARGS === CQ_V2 ? ' (classic queues v2, as every RabbitMQ 4.x; BENCH_SYNC_BROKER_ERL_ARGS= for the 3.10 defaults, v1)' : '';
    console.log(`  broker ${BROKER_ERL_ARGS ? `with ${BROKER_ERL_ARGS}${queues}` : 'defaults (on 3.10: classic queues v1)'}`);
    if (LAZY_QUEUES) {
      await rabbit.ctl('set_policy', 'wharf-bench-lazy', '^bench\\.', '{"queue-mode":"lazy"}', '--apply-to', 'queues');
      console.log('  policy queue-mode lazy on the bench queues: how RabbitMQ 3.12 and later run every classic queue (BENCH_SYNC_LAZY=0: 3.10\'s default mode)');
    }
    for (const [i, headers] of HEADERS.entries()) await runVariant(db, rabbit, headers, LAG && i === 0);
  } finally {
    await Promise.all([db.stop(), rabbit.stop()]);
  }
}

/** One destination setting: its own project, exchange and queue, a backlog of ROWS changes, then (withLag) the lag under load. */
async function runVariant(db: TestPostgres, rabbit: TestRabbit, headers: boolean, withLag: boolean): Promise<void> {
  const name = headers ? 'headers' : 'bare';
  const root = await projectWith(
    {
      bench: pgEnvironment(db.url, [{ Type: 'RabbitMQ', Key: 'mq', Url: rabbit.url, Exchange: `wharf.bench.${name}`, Queue: `bench.products.${name}`, MessagePer: MESSAGE_PER, ...(headers ? {} : { MessageHeaders: false }) }], {
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
  client.on('error', () => undefined); // the database stops under it when the bench fails
  await client.connect();
  try {
    for (let done = 0; done < ROWS; done += 1000) await insert(client, `T${name}${done}`, Math.min(1000, ROWS - done));
    let delivered = 0;
    let drained: () => void = () => undefined;
    const allDelivered = new Promise<void>((resolve) => (drained = resolve));
    onBatch = (b) => {
      delivered += b.records.length;
      if (delivered >= ROWS) drained();
    };
    const beam = brokerPid(rabbit.port);
    const postmaster = await postmasterPid(client);
    const t0 = performance.now();
    const cpu0 = { sync: processCpuMicros(null), broker: processTreeCpuMicros(beam), postgres: processTreeCpuMicros(postmaster) };
    sync = await start();
    await allDelivered;
    const seconds = (performance.now() - t0) / 1000;
    const load = loadAverage();
    const perChange = (now: number, before: number) => ((now - before) / ROWS).toFixed(1);
    const cpu = {
      sync: perChange(processCpuMicros(null), cpu0.sync),
      broker: perChange(processTreeCpuMicros(beam), cpu0.broker),
      postgres: perChange(processTreeCpuMicros(postmaster), cpu0.postgres),
    };
    console.log(`  ${headers ? 'MessageHeaders true (default, x-wharf-* headers)' : 'MessageHeaders false (no headers)'}, load average ${load}:`);
    console.log(
      `    throughput: ${ROWS.toLocaleString('en')} waiting changes exported in ${seconds.toFixed(2)} s = ${Math.round(ROWS / seconds).toLocaleString('en')} changes/s (target >= 20,000)`,
    );
    console.log(`    CPU per change: sync ${cpu.sync} µs, RabbitMQ ${cpu.broker} µs, PostgreSQL ${cpu.postgres} µs (this bench's broker and database)`);
    const rate = ROWS / seconds;
    recordTarget({ bench: 'sync', what: `changes/s, MessageHeaders ${headers}`, figure: `${Math.round(rate).toLocaleString('en')}/s`, target: '>= 20,000/s', met: rate >= 20_000 });

    if (withLag) {
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
      lags.sort((a, b) => a - b);
      console.log(
        `    lag at ${RATE.toLocaleString('en')} rows/s for 10 s, commit -> confirmed publish: p50 ${(percentile(lags, 0.5) / 1000).toFixed(2)} s, p99 ${(percentile(lags, 0.99) / 1000).toFixed(2)} s (target p99 <= ${2 * POLL_SECONDS} s)`,
      );
      const p99 = percentile(lags, 0.99) / 1000;
      recordTarget({ bench: 'sync', what: `lag p99 at ${RATE.toLocaleString('en')} rows/s`, figure: `${p99.toFixed(2)} s`, target: `<= ${2 * POLL_SECONDS} s`, met: p99 <= 2 * POLL_SECONDS });
    }
  } finally {
    await client.end();
    await sync.close();
    // An empty broker for the next setting: its messages would otherwise weigh on the next run.
    const model = await amqp.connect(rabbit.url);
    try {
      const channel = await model.createChannel();
      await channel.deleteQueue(`bench.products.${name}`);
      await channel.deleteExchange(`wharf.bench.${name}`);
    } finally {
      await model.close();
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runSyncBench();
