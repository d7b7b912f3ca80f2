/**
 * The batches of one object in flight at once (MaxBatchesInFlight), each destination getting them
 * in version order: a pipelining destination (one with send(), RabbitMQ) gets the next batch as
 * soon as the previous one is on the wire, any other only once it accepted the previous one; a
 * destination that refused (or never got) a batch gets none of the later ones. One attempt per
 * batch and destination, no retries here: the caller takes the oldest batch's outcome, and at a
 * refusal drains the window and retries that batch alone, in order, before sending anything after
 * it again. Nothing here stores a version.
 */
import type { Batch } from '../destinations/batch.js';
import type { SentBatch, SyncDestination } from '../destinations/destination.js';
import { errorText, type DeliveryFailure } from './deliver.js';

export interface WindowEntry {
  readonly batch: Batch;
  /** The destinations that refused the batch (empty: every destination accepted it). */
  readonly outcome: Promise<DeliveryFailure[]>;
  /** Set once `outcome` settled: lets the caller store several accepted batches with one write. */
  settled: DeliveryFailure[] | null;
}

const NOT_SENT = 'not sent: an earlier batch was refused';

/** May the next batch go to a destination, and behind which still unconfirmed batch (pipelining). */
interface Gate {
  readonly open: boolean;
  readonly previous?: SentBatch;
}

const OPEN: Promise<Gate> = Promise.resolve({ open: true });

export class DeliveryWindow {
  private readonly entries: WindowEntry[] = [];
  /** Per destination, in the order of `destinations`. */
  private gates: Promise<Gate>[];

  constructor(
    private readonly destinations: readonly SyncDestination[],
    readonly size: number,
  ) {
    this.gates = destinations.map(() => OPEN);
  }

  get length(): number {
    return this.entries.length;
  }

  get full(): boolean {
    return this.entries.length >= this.size;
  }

  /** Starts the batch to every destination behind the batches already in the window. */
  push(batch: Batch): void {
    const results = this.destinations.map((destination, i) => this.start(destination, i, batch));
    const entry: WindowEntry = {
      batch,
      settled: null,
      outcome: Promise.all(results).then((errors) => {
        const failures: DeliveryFailure[] = [];
        errors.forEach((error, i) => {
          if (error !== null) failures.push({ destination: this.destinations[i] as SyncDestination, error });
        });
        entry.settled = failures;
        return failures;
      }),
    };
    this.entries.push(entry);
  }

  /** The destination's result for the batch: null (accepted) or the error text. Never rejects. */
  private start(destination: SyncDestination, index: number, batch: Batch): Promise<string | null> {
    const gate = this.gates[index] as Promise<Gate>;
    const send = destination.send?.bind(destination);
    if (send) {
      const sent = gate.then((g) => (g.open ? send(batch, g.previous) : null));
      this.gates[index] = sent.then(
        (s): Gate => (s === null ? { open: false } : { open: true, previous: s }),
        (): Gate => ({ open: false }),
      );
      return sent.then((s) => (s === null ? NOT_SENT : s.accepted.then(() => null, errorText)), errorText);
    }
    const done = gate.then((g) => (g.open ? destination.deliver(batch).then(() => null, errorText) : NOT_SENT));
    this.gates[index] = done.then((error): Gate => ({ open: error === null }));
    return done;
  }

  /** The oldest batch, removed from the window once it settled. */
  async shift(): Promise<{ batch: Batch; failures: DeliveryFailure[] }> {
    const entry = this.entries.shift();
    if (!entry) throw new Error('delivery window is empty');
    return { batch: entry.batch, failures: await entry.outcome };
  }

  /** The oldest batch if it already settled with every destination accepting it (else null). */
  shiftAccepted(): Batch | null {
    const entry = this.entries[0];
    if (!entry || entry.settled === null || entry.settled.length > 0) return null;
    this.entries.shift();
    return entry.batch;
  }

  /**
   * Waits until every batch in the window settled, empties it and returns them in order (their
   * outcome unused); every destination is open again, with nothing in flight to stay behind.
   */
  async drain(): Promise<Batch[]> {
    const entries = this.entries.splice(0);
    await Promise.all(entries.map((e) => e.outcome));
    await Promise.all(this.gates);
    this.gates = this.destinations.map(() => OPEN);
    return entries.map((e) => e.batch);
  }
}
