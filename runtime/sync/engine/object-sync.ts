/**
 * One tracked object: poll the procedure from the stored version, split the changes into
 * batches and deliver them in order, up to MaxBatchesInFlight of them awaiting their
 * confirmation at once (delivery-window.ts), the next page read meanwhile. The stored version
 * advances only to the last batch that every destination accepted with all batches before it. A destination that still refuses after the retries gets a dead letter and
 * the object stops there (nothing later is sent) until the replays deliver it.
 */
import type { DeadLetterSettings, SyncEnvironment, TrackedObject } from '../config/model.js';
import { batchFromEnvelope, batchJson, splitBatches, type Batch } from '../destinations/batch.js';
import type { SyncDestination } from '../destinations/destination.js';
import { callProcedure } from '../source/procedure.js';
import { recordVersion, type ChangeSet } from '../source/change-set.js';
import type { SqlDriver } from '../../sql/drivers/driver.js';
import type { DeadLetterStore } from '../state/dead-letters.js';
import type { StateStore } from '../state/state-store.js';
import { deliverToAll, errorText, type DeliveryFailure } from './deliver.js';
import { DeliveryWindow } from './delivery-window.js';
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
    const window = new DeliveryWindow(this.deps.destinations, environment.batching.maxInFlight);
    try {
      return await this.pipeline(window, from, set, signal);
    } finally {
      // Shutdown, a refusal or a failed read: what is still in flight settles and every batch
      // accepted in order up to the first one that was not is stored; nothing after it.
      while (window.length > 0) {
        const { batch, failures } = await window.shift();
        if (failures.length > 0) {
          await window.drain();
          break;
        }
        this.delivered([batch]);
      }
    }
  }

  /**
   * Sends the page's batches through the window, reads the next page (prefetched while these were
   * delivered) while the last ones are still being confirmed, and stores the version as the oldest
   * batches are accepted: one upsert for every run of batches that settled together.
   */
  private async pipeline(window: DeliveryWindow, from: number, first: ChangeSet, signal: AbortSignal): Promise<CycleOutcome> {
    const { environment, object } = this.deps;
    let set = first;
    let queue = splitBatches(environment.name, object.name, from, set, environment.batching);
    let read = queue[queue.length - 1] as Batch;
    let more = set.records.every((r) => recordVersion(r) !== null);
    if (more) this.startPrefetch(read.toVersion);
    for (;;) {
      if (signal.aborted) return 'aborted';
      if (window.full || (queue.length === 0 && window.length > 0 && !more)) {
        const { batch, failures } = await window.shift();
        if (failures.length === 0) {
          this.accepted(window, batch);
          continue;
        }
        // Refused: nothing after it counts. Let the rest settle, then retry this batch alone and
        // send the later ones again behind it, in order.
        queue = [...(await window.drain()), ...queue];
        const outcome = await this.retryRefused(batch, failures, signal);
        if (outcome !== 'delivered') return outcome;
        this.delivered([batch]);
        continue;
      }
      const next = queue.shift();
      if (next) {
        window.push(next);
        continue;
      }
      if (!more) return 'delivered';
      set = await this.fetch(read.toVersion);
      if (set.records.length === 0) {
        more = false;
        continue;
      }
      queue = splitBatches(environment.name, object.name, read.toVersion, set, environment.batching);
      read = queue[queue.length - 1] as Batch;
      more = set.records.every((r) => recordVersion(r) !== null);
      if (more) this.startPrefetch(read.toVersion);
    }
  }

  /** The oldest batch was accepted: store it with every batch after it that was accepted meanwhile. */
  private accepted(window: DeliveryWindow, batch: Batch): void {
    const batches = [batch];
    for (let next = window.shiftAccepted(); next; next = window.shiftAccepted()) batches.push(next);
    this.delivered(batches);
  }

  /** Stores the version of the last batch (one upsert), then reports each batch in order. */
  private delivered(batches: readonly Batch[]): void {
    const { environment, object, state, log } = this.deps;
    const last = batches[batches.length - 1];
    if (!last) return;
    state.set(environment.name, object.name, last.toVersion);
    for (const batch of batches) {
      this.deps.onDelivered?.(batch);
      log.info({ event: 'sync.batch_delivered', ...this.ids, fromVersion: batch.fromVersion, toVersion: batch.toVersion, count: batch.records.length }, 'batch delivered');
    }
  }

  /**
   * A batch refused in the window (its first attempt): the remaining RetryCount attempts to the
   * destinations that refused it, RetryDelaySeconds apart; then a dead letter per destination that
   * still refuses, and the object is blocked. A single change larger than MaxPayloadSizeBytes
   * cannot get smaller: no retries, straight to a dead letter.
   */
  private async retryRefused(batch: Batch, refused: readonly DeliveryFailure[], signal: AbortSignal): Promise<CycleOutcome> {
    const { environment, object, log } = this.deps;
    const oversize = batch.records.length === 1 && Buffer.byteLength(batch.recordJson?.[0] ?? JSON.stringify(batch.records[0])) > environment.batching.maxBytes;
    const retry = oversize ? { ...environment.retry, count: 0 } : environment.retry;
    for (const failure of refused) {
      log.warn(
        { event: 'sync.delivery_failed', ...this.ids, destination: failure.destination.key, attempt: 1, of: retry.count + 1, toVersion: batch.toVersion, err: failure.error },
        'delivery failed',
      );
    }
    let failures: readonly DeliveryFailure[] = refused;
    if (retry.count > 0) {
      const again = await deliverToAll(
        refused.map((f) => f.destination),
        batch,
        retry,
        log,
        signal,
        1,
      );
      if (again === 'aborted') return 'aborted';
      failures = again;
    }
    if (failures.length === 0) return 'delivered';
    this.prefetch = null;
    const data = batchJson(batch);
    for (const failure of failures) {
      const letter = this.deps.deadLetters.add(
        { ...this.ids, destination: failure.destination.key, database: object.connectionKey, data, fromVersion: batch.fromVersion, toVersion: batch.toVersion, error: failure.error },
        this.deps.deadLetterSettings.backoffBaseSeconds * 1000,
        this.now(),
      );
      log.error(
        { event: 'sync.dead_letter', ...this.ids, destination: failure.destination.key, id: letter.id, fromVersion: batch.fromVersion, toVersion: batch.toVersion, count: batch.records.length, err: failure.error },
        'batch moved to the dead-letter store; the object waits for its replay',
      );
    }
    return 'blocked';
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
