/**
 * One tracked object: poll the procedure from the stored version, split the changes into
 * batches and deliver them in order. The stored version advances only after every destination
 * accepted a batch. A destination that still refuses after the retries gets a dead letter and
 * the object stops there (nothing later is sent) until the replays deliver it.
 */
import type { DeadLetterSettings, SyncEnvironment, TrackedObject } from '../config/model.js';
import { batchEnvelope, batchFromEnvelope, splitBatches, type Batch } from '../destinations/batch.js';
import type { SyncDestination } from '../destinations/destination.js';
import { callProcedure } from '../source/procedure.js';
import { recordVersion, type ChangeSet } from '../source/change-set.js';
import type { SqlDriver } from '../../sql/drivers/driver.js';
import type { DeadLetterStore } from '../state/dead-letters.js';
import type { StateStore } from '../state/state-store.js';
import { deliverToAll, errorText } from './deliver.js';
import type { SyncLog } from './log.js';

export interface ObjectSyncDeps {
  readonly environment: SyncEnvironment;
  readonly object: TrackedObject;
  readonly driver: SqlDriver;
  readonly destinations: readonly SyncDestination[];
  readonly state: StateStore;
  readonly deadLetters: DeadLetterStore;
  readonly deadLetterSettings: DeadLetterSettings;
  readonly log: SyncLog;
  /** Called after each batch every destination accepted. */
  readonly onDelivered?: (batch: Batch) => void;
  readonly now?: () => number;
}

export type CycleOutcome =
  /** Changes were delivered: poll again at once, there may be more. */
  | 'delivered'
  | 'idle'
  /** Dead letters hold the object back. */
  | 'blocked'
  | 'failed'
  | 'aborted';

const INCREMENTAL_PAGES = 10_000;
/** A prefetched page older than this is asked for again (it stays correct, only less complete). */
const PREFETCH_MAX_AGE_MS = 5 * 60_000;

export function backoffMs(attempts: number, settings: DeadLetterSettings): number {
  return Math.min(settings.backoffCapSeconds, settings.backoffBaseSeconds * 2 ** attempts) * 1000;
}

interface Prefetch {
  readonly from: number;
  readonly at: number;
  readonly result: Promise<ChangeSet | Error>;
}

export class ObjectSync {
  consecutiveFailures = 0;
  /** Outcome of the last finished cycle (null before the first): the dashboard's state column. */
  lastOutcome: CycleOutcome | null = null;
  /** When a cycle last found nothing new to send (epoch ms; null: not yet since start). Lag is measured from it. */
  caughtUpAt: number | null = null;
  /** When this loop was built (epoch ms): the lag of an object that was never caught up counts from here. */
  readonly startedAt: number;
  /** The next page, asked for while the current one is being delivered (DB and destinations overlap). */
  private prefetch: Prefetch | null = null;
  constructor(private readonly deps: ObjectSyncDeps) {
    this.startedAt = this.now();
  }

  /** Milliseconds the object is behind its source: 0 when the last cycle found nothing new, else since it last did. */
  lagMs(now = this.now()): number {
    if (this.lastOutcome === 'idle') return 0;
    return Math.max(0, now - (this.caughtUpAt ?? this.startedAt));
  }

  private fetch(from: number): Promise<ChangeSet> {
    const { environment, object } = this.deps;
    const ready = this.prefetch;
    this.prefetch = null;
    if (ready && ready.from === from && this.now() - ready.at < PREFETCH_MAX_AGE_MS) {
      return ready.result.then((r) => {
        if (r instanceof Error) throw r;
        return r;
      });
    }
    return callProcedure(this.deps.driver, environment.provider, object.procedure, from);
  }

  private startPrefetch(from: number): void {
    const { environment, object } = this.deps;
    const result = callProcedure(this.deps.driver, environment.provider, object.procedure, from).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    this.prefetch = { from, at: this.now(), result };
  }

  private get ids() {
    return { environment: this.deps.environment.name, object: this.deps.object.name };
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : Date.now();
  }

  async cycle(signal: AbortSignal): Promise<CycleOutcome> {
    try {
      const outcome = await this.run(signal);
      this.consecutiveFailures = 0;
      if (outcome !== 'aborted') this.lastOutcome = outcome;
      if (outcome === 'idle') this.caughtUpAt = this.now();
      return outcome;
    } catch (error) {
      this.consecutiveFailures++;
      this.lastOutcome = 'failed';
      this.deps.log.error({ event: 'sync.poll_failed', ...this.ids, failures: this.consecutiveFailures, err: errorText(error) }, 'polling the tracked object failed');
      return 'failed';
    }
  }

  private async run(signal: AbortSignal): Promise<CycleOutcome> {
    const { environment, object, state } = this.deps;
    if (this.deps.deadLetters.exists()) {
      const open = this.deps.deadLetters.list(this.ids);
      if (open.length > 0) return this.replay(signal);
    }
    const stored = state.get(environment.name, object.name);
    if (stored === null && object.initialSyncMode === 'Incremental') return this.adoptCurrentVersion();
    const from = stored?.version ?? 0;
    const set = await this.fetch(from);
    if (set.records.length === 0) {
      if (stored === null || set.version > from) state.set(environment.name, object.name, Math.max(from, set.version));
      return 'idle';
    }
    const batches = splitBatches(environment.name, object.name, from, set, environment.batching);
    const last = batches[batches.length - 1] as Batch;
    if (set.records.every((r) => recordVersion(r) !== null)) this.startPrefetch(last.toVersion);
    for (const batch of batches) {
      if (signal.aborted) return 'aborted';
      // A single change larger than MaxPayloadSizeBytes cannot get smaller: no retries, straight to a dead letter.
      const oversize = batch.records.length === 1 && Buffer.byteLength(JSON.stringify(batch.records[0])) > environment.batching.maxBytes;
      const retry = oversize ? { ...environment.retry, count: 0 } : environment.retry;
      const failures = await deliverToAll(this.deps.destinations, batch, retry, this.deps.log, signal);
      if (failures === 'aborted') return 'aborted';
      if (failures.length > 0) {
        this.prefetch = null;
        const data = JSON.stringify(batchEnvelope(batch));
        for (const failure of failures) {
          const letter = this.deps.deadLetters.add(
            { ...this.ids, destination: failure.destination.key, database: object.connectionKey, data, fromVersion: batch.fromVersion, toVersion: batch.toVersion, error: failure.error },
            this.deps.deadLetterSettings.backoffBaseSeconds * 1000,
            this.now(),
          );
          this.deps.log.error(
            { event: 'sync.dead_letter', ...this.ids, destination: failure.destination.key, id: letter.id, fromVersion: batch.fromVersion, toVersion: batch.toVersion, count: batch.records.length, err: failure.error },
            'batch moved to the dead-letter store; the object waits for its replay',
          );
        }
        return 'blocked';
      }
      state.set(environment.name, object.name, batch.toVersion);
      this.deps.onDelivered?.(batch);
      this.deps.log.info(
        { event: 'sync.batch_delivered', ...this.ids, fromVersion: batch.fromVersion, toVersion: batch.toVersion, count: batch.records.length },
        'batch delivered',
      );
    }
    return 'delivered';
  }

  /** InitialSyncMode Incremental: store the current version, export nothing. */
  private async adoptCurrentVersion(): Promise<CycleOutcome> {
    const { environment, object } = this.deps;
    let version = 0;
    for (let page = 0; page < INCREMENTAL_PAGES; page++) {
      const set = await callProcedure(this.deps.driver, environment.provider, object.procedure, version);
      const top = set.records.reduce((max, r) => Math.max(max, recordVersion(r) ?? max), set.version);
      if (set.records.length === 0 || top <= version) {
        version = Math.max(version, top);
        break;
      }
      version = top;
    }
    this.deps.state.set(environment.name, object.name, version);
    this.deps.log.info({ event: 'sync.initialized', ...this.ids, version }, 'incremental start: adopted the current version');
    return 'idle';
  }

  /** Replays the object's due dead letters; when none is left, advances past their batch. */
  private async replay(signal: AbortSignal): Promise<CycleOutcome> {
    const { deadLetters, deadLetterSettings, environment, object, state, log } = this.deps;
    let delivered = -Infinity;
    for (const letter of deadLetters.list(this.ids)) {
      if (signal.aborted) return 'aborted';
      if (letter.status !== 'pending' || (letter.nextAttemptAt ?? Infinity) > this.now()) continue;
      const destination = this.deps.destinations.find((d) => d.key === letter.destination);
      try {
        if (!destination) throw new Error(`destination '${letter.destination}' is no longer configured`);
        await destination.deliver(batchFromEnvelope(letter.data));
        deadLetters.resolve(letter.id);
        delivered = Math.max(delivered, letter.toVersion);
        log.info({ event: 'sync.dead_letter_replayed', ...this.ids, destination: letter.destination, id: letter.id, toVersion: letter.toVersion }, 'dead letter replayed');
      } catch (error) {
        const attempts = letter.attempts + 1;
        const next = attempts >= deadLetterSettings.maxReplayAttempts ? null : this.now() + backoffMs(attempts, deadLetterSettings);
        deadLetters.recordFailure(letter.id, errorText(error), next);
        log.warn(
          { event: next === null ? 'sync.dead_letter_exhausted' : 'sync.dead_letter_replay_failed', ...this.ids, destination: letter.destination, id: letter.id, attempts, err: errorText(error) },
          next === null ? 'dead letter exhausted: replay or purge it with `wharf sync deadletters`' : 'dead letter replay failed',
        );
      }
    }
    if (deadLetters.list(this.ids).length > 0) return 'blocked';
    const current = state.get(environment.name, object.name)?.version ?? 0;
    if (delivered > current) state.set(environment.name, object.name, delivered);
    log.info({ event: 'sync.unblocked', ...this.ids, version: Math.max(current, delivered) }, 'dead letters cleared: polling resumes');
    return 'delivered';
  }
}
