/**
 * Structural guards on one object's delivery pipeline (counts, never times): a procedure that
 * serves pages of versioned changes from memory, a pipelining destination (send()) that confirms
 * each batch a moment after it was sent, and one without send(). The real PostgreSQL -> RabbitMQ
 * path is in test/sync/rabbitmq.test.ts, broker restarts, freezes and kill -9 in rabbitmq-faults.test.ts.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SyncEnvironment, TrackedObject } from '../config/model.js';
import type { Batch } from '../destinations/batch.js';
import type { SentBatch, SyncDestination } from '../destinations/destination.js';
import type { SqlDriver } from '../../sql/drivers/driver.js';
import { DeadLetterStore } from '../state/dead-letters.js';
import { StateStore } from '../state/state-store.js';
import { silentLog } from './log.js';
import { ObjectSync } from './object-sync.js';

const OBJECT: TrackedObject = { name: 'obj', procedure: 'sync.Changes', connectionKey: 'main', pollingIntervalSeconds: 1, initialSyncMode: 'Full' };

/** Changes 1..total, at most `page` per call after fromVersion; counts the calls. */
function changes(total: number, page: number): SqlDriver & { calls: number } {
  const driver = {
    provider: 'postgres' as const,
    calls: 0,
    async query(_sql: string, params: readonly { value: unknown }[]) {
      driver.calls++;
      const from = (JSON.parse(String(params[0]?.value)) as { fromVersion: number }).fromVersion;
      const data = [];
      for (let v = from + 1; v <= Math.min(total, from + page); v++) data.push({ $operation: 'I', $version: v, Id: v });
      return [{ result: { Metadata: { Sync: { Version: data.length ? from + data.length : from, Type: 'Diff' } }, Data: data } }];
    },
    async close() {},
  };
  return driver;
}

/** Counts statements; checks that no stored version passes a batch not yet accepted. */
class CountingState extends StateStore {
  reads = 0;
  writes = 0;
  acceptedUpTo = 0;
  override get(environment: string, object: string) {
    this.reads++;
    return super.get(environment, object);
  }
  override set(environment: string, object: string, version: number, now?: Date) {
    this.writes++;
    expect(version, 'stored version passes an unaccepted batch').toBeLessThanOrEqual(this.acceptedUpTo);
    super.set(environment, object, version, now);
  }
}

interface Sent {
  readonly toVersion: number;
  readonly records: number;
}

/**
 * A destination with send(): every batch is confirmed (or refused by `refuse`) on a timer after it
 * was sent, in the order sent; a refusal also fails every batch still unconfirmed behind it (a
 * lost connection). Records what was sent and the most batches ever awaiting confirmation.
 */
function pipelining(state: CountingState, refuse: (batch: Batch, attempt: number) => boolean = () => false) {
  const sent: Sent[] = [];
  const attempts = new Map<number, number>();
  let unconfirmed: { batch: Batch; fail: (e: Error) => void; ok: () => void }[] = [];
  const stats = { maxUnconfirmed: 0 };
  const destination: SyncDestination = {
    key: 'mq',
    type: 'RabbitMQ',
    async send(batch: Batch): Promise<SentBatch> {
      sent.push({ toVersion: batch.toVersion, records: batch.records.length });
      const attempt = (attempts.get(batch.toVersion) ?? 0) + 1;
      attempts.set(batch.toVersion, attempt);
      const result: { accepted: Promise<void>; via: object; confirmed: boolean } = { accepted: Promise.resolve(), via: destination, confirmed: false };
      result.accepted = new Promise<void>((ok, fail) => {
        const entry = { batch, ok, fail };
        unconfirmed.push(entry);
        stats.maxUnconfirmed = Math.max(stats.maxUnconfirmed, unconfirmed.length);
        setTimeout(() => {
          if (!unconfirmed.includes(entry)) return;
          if (refuse(batch, attempt)) {
            for (const u of unconfirmed.splice(0)) u.fail(new Error('channel closed'));
            return;
          }
          unconfirmed = unconfirmed.filter((u) => u !== entry);
          result.confirmed = true;
          state.acceptedUpTo = Math.max(state.acceptedUpTo, batch.toVersion);
          ok();
        }, 2);
      });
      result.accepted.catch(() => undefined);
      return result;
    },
    async deliver(batch: Batch) {
      await (await (this.send as (b: Batch) => Promise<SentBatch>)(batch)).accepted;
    },
    async close() {},
  };
  return { destination, sent, attempts, stats };
}

/** A destination without send(): records how many of its deliveries ever overlapped. */
function plain() {
  const stats = { running: 0, maxRunning: 0, delivered: [] as number[] };
  const destination: SyncDestination = {
    key: 'hook',
    type: 'Http',
    async deliver(batch: Batch) {
      stats.running++;
      stats.maxRunning = Math.max(stats.maxRunning, stats.running);
      await new Promise((resolve) => setTimeout(resolve, 1));
      stats.delivered.push(batch.toVersion);
      stats.running--;
    },
    async close() {},
  };
  return { destination, stats };
}

async function setUp(options: { total: number; page: number; maxRecords: number; maxInFlight: number; retryCount?: number }) {
  const dir = await mkdtemp(path.join(tmpdir(), 'wharf-object-sync-'));
  const state = new CountingState(path.join(dir, 'state.db'));
  const deadLetters = DeadLetterStore.at(dir);
  const driver = changes(options.total, options.page);
  const environment: SyncEnvironment = {
    name: 'env',
    file: 'environments/env/sync.json',
    provider: 'postgres',
    connectionStrings: { main: 'postgres://unused' },
    retry: { count: options.retryCount ?? 0, delaySeconds: 0 },
    batching: { maxRecords: options.maxRecords, maxBytes: 1 << 20, maxInFlight: options.maxInFlight },
    objects: [OBJECT],
    destinations: [],
  };
  const delivered: Batch[] = [];
  const sync = (destinations: SyncDestination[]) =>
    new ObjectSync({
      environment,
      object: OBJECT,
      driver,
      destinations,
      state,
      deadLetters,
      deadLetterSettings: { replayIntervalSeconds: 1, maxReplayAttempts: 1, backoffBaseSeconds: 60, backoffCapSeconds: 60, retentionDays: 1 },
      log: silentLog,
      onDelivered: (b) => delivered.push(b),
    });
  return { state, deadLetters, driver, sync, delivered };
}

/** Versions in first-seen order, the way a consumer de-duplicates. */
const firstSeen = (sent: readonly Sent[]) => [...new Set(sent.map((s) => s.toVersion))];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('one object delivered through the window', () => {
  it('keeps MaxBatchesInFlight batches awaiting confirmation, reads the next page meanwhile, and stores each version once in order', async () => {
    const { state, driver, sync, delivered } = await setUp({ total: 24, page: 12, maxRecords: 2, maxInFlight: 3 });
    const mq = pipelining(state);
    const hook = plain();
    expect(await sync([mq.destination, hook.destination]).cycle(new AbortController().signal)).toBe('delivered');
    // 12 batches of 2, sent once each, in order, to both destinations.
    expect(mq.sent.map((s) => s.toVersion)).toEqual(range(1, 12).map((n) => 2 * n));
    expect(hook.stats.delivered).toEqual(range(1, 12).map((n) => 2 * n));
    expect(delivered.map((b) => b.toVersion)).toEqual(range(1, 12).map((n) => 2 * n));
    expect(mq.stats.maxUnconfirmed, 'batches awaiting their confirms at once').toBe(3);
    expect(hook.stats.maxRunning, 'a destination without send() gets one batch at a time').toBe(1);
    // Round trips of the whole run: 2 pages and the empty read that ends it, one state read,
    // at most one state write per batch.
    expect(driver.calls).toBe(3);
    expect(state.reads).toBe(1);
    expect(state.writes).toBeLessThanOrEqual(12);
    expect(state.get('env', 'obj')?.version).toBe(24);
  });

  it('MaxBatchesInFlight 1: one batch at a time, as without a window', async () => {
    const { state, sync } = await setUp({ total: 6, page: 6, maxRecords: 2, maxInFlight: 1 });
    const mq = pipelining(state);
    expect(await sync([mq.destination]).cycle(new AbortController().signal)).toBe('delivered');
    expect(mq.stats.maxUnconfirmed).toBe(1);
    expect(state.get('env', 'obj')?.version).toBe(6);
  });

  it('a batch refused in the window is retried alone, the later ones are sent again behind it, in order; nothing is skipped', async () => {
    const { state, sync, delivered } = await setUp({ total: 20, page: 20, maxRecords: 2, maxInFlight: 4, retryCount: 2 });
    // The first attempt of the batch ending at version 8 loses the connection with everything behind it.
    const mq = pipelining(state, (batch, attempt) => batch.toVersion === 8 && attempt === 1);
    expect(await sync([mq.destination]).cycle(new AbortController().signal)).toBe('delivered');
    const sent = mq.sent.map((s) => s.toVersion);
    const retry = sent.lastIndexOf(8);
    expect(sent.slice(0, retry).filter((v) => v === 8)).toHaveLength(1);
    expect(sent.slice(retry), 'the retry, then everything after it again, in order').toEqual([8, 10, 12, 14, 16, 18, 20]);
    expect(firstSeen(mq.sent)).toEqual(range(1, 10).map((n) => 2 * n));
    expect(mq.attempts.get(8)).toBe(2);
    expect(delivered.map((b) => b.toVersion)).toEqual(range(1, 10).map((n) => 2 * n));
    expect(state.get('env', 'obj')?.version).toBe(20);
  });

  it('refused on every attempt: one dead letter for that batch, the version stays before it, the object is blocked', async () => {
    const { state, deadLetters, sync, delivered } = await setUp({ total: 20, page: 20, maxRecords: 2, maxInFlight: 4, retryCount: 1 });
    const mq = pipelining(state, (batch) => batch.toVersion === 8);
    expect(await sync([mq.destination]).cycle(new AbortController().signal)).toBe('blocked');
    expect(mq.attempts.get(8), 'RetryCount 1: two attempts').toBe(2);
    expect(deadLetters.list().map((l) => [l.fromVersion, l.toVersion, l.destination])).toEqual([[6, 8, 'mq']]);
    expect(delivered.map((b) => b.toVersion)).toEqual([2, 4, 6]);
    expect(state.get('env', 'obj')?.version).toBe(6);
  });

  it('shutdown mid-window: what is in flight settles, the accepted prefix is stored, nothing after it', async () => {
    const { state, sync } = await setUp({ total: 20, page: 20, maxRecords: 2, maxInFlight: 2 });
    const mq = pipelining(state);
    const controller = new AbortController();
    const send = mq.destination.send?.bind(mq.destination) as (b: Batch) => Promise<SentBatch>;
    mq.destination.send = async (b: Batch) => {
      if (b.toVersion === 4) controller.abort();
      return send(b);
    };
    expect(await sync([mq.destination]).cycle(controller.signal)).toBe('aborted');
    expect(mq.sent.map((s) => s.toVersion)).toEqual([2, 4]);
    expect(state.get('env', 'obj')?.version).toBe(4);
  });
});
