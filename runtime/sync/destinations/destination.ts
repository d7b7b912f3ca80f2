/** What every destination implements. deliver() resolves only once the batch is durably accepted. */
import type { Batch } from './batch.js';

export interface SyncDestination {
  readonly key: string;
  readonly type: 'File' | 'Http' | 'RabbitMQ' | 'Database';
  deliver(batch: Batch): Promise<void>;
  /**
   * Only on destinations that keep order on one connection (RabbitMQ's confirm channel): puts the
   * batch on the wire behind every batch sent before it and resolves then; `accepted` settles once
   * the destination durably accepted (or refused) it. Lets several batches of one object await
   * their confirmation at once (MaxBatchesInFlight). With `after` (the object's previous batch)
   * still unconfirmed it refuses to send on any other connection than that batch's: a batch may
   * never overtake an earlier one that a lost connection leaves to be sent again.
   * deliver(b) = (await send(b)).accepted.
   */
  send?(batch: Batch, after?: SentBatch): Promise<SentBatch>;
  close(): Promise<void>;
}

export interface SentBatch {
  readonly accepted: Promise<void>;
  /** Which connection carried it (compared by identity only). */
  readonly via: object;
  /** True once every part of it was confirmed (set before `accepted` resolves). */
  readonly confirmed: boolean;
}

/** Fills {environment}, {object}, ... in a template; unknown names stay as written. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (all, name: string) => values[name] ?? all);
}
