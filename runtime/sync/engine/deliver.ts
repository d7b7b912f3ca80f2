/**
 * Delivers one batch to every destination at once; each destination gets RetryCount retries
 * RetryDelaySeconds apart. Returns the destinations that still refused it (their errors), or
 * 'aborted' when shutdown interrupted the retries (nothing may advance then).
 */
import type { RetrySettings } from '../config/model.js';
import type { Batch } from '../destinations/batch.js';
import type { SyncDestination } from '../destinations/destination.js';
import { sleep, type SyncLog } from './log.js';

export interface DeliveryFailure {
  readonly destination: SyncDestination;
  readonly error: string;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function deliverOne(
  destination: SyncDestination,
  batch: Batch,
  retry: RetrySettings,
  log: SyncLog,
  signal: AbortSignal,
  firstAttempt: number,
): Promise<string | null | 'aborted'> {
  let last = '';
  for (let attempt = firstAttempt; attempt <= retry.count; attempt++) {
    if (attempt > 0) {
      await sleep(retry.delaySeconds * 1000, signal);
      if (signal.aborted) return 'aborted';
    }
    try {
      await destination.deliver(batch);
      return null;
    } catch (error) {
      last = errorText(error);
      log.warn(
        { event: 'sync.delivery_failed', environment: batch.environment, object: batch.object, destination: destination.key, attempt: attempt + 1, of: retry.count + 1, toVersion: batch.toVersion, err: last },
        'delivery failed',
      );
    }
  }
  return last;
}

export async function deliverToAll(
  destinations: readonly SyncDestination[],
  batch: Batch,
  retry: RetrySettings,
  log: SyncLog,
  signal: AbortSignal,
  /** Attempts already made (0-based index of the first one here; it waits RetryDelaySeconds first when > 0). */
  firstAttempt = 0,
): Promise<DeliveryFailure[] | 'aborted'> {
  const results = await Promise.all(destinations.map((d) => deliverOne(d, batch, retry, log, signal, firstAttempt)));
  if (results.includes('aborted')) return 'aborted';
  const failures: DeliveryFailure[] = [];
  results.forEach((result, i) => {
    if (typeof result === 'string') failures.push({ destination: destinations[i] as SyncDestination, error: result });
  });
  return failures;
}
