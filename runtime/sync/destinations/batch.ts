/**
 * A batch: consecutive changes of one tracked object, bounded by record count and payload size,
 * and the message every destination receives for it. `toVersion` is what the stored version may
 * advance to once every destination accepted the batch (never past a change not yet delivered).
 */
import { recordVersion, type ChangeRecord, type ChangeSet } from '../source/change-set.js';

export interface Batch {
  readonly environment: string;
  readonly object: string;
  readonly type: 'Full' | 'Diff';
  /** The stored version the changes follow. */
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly records: readonly ChangeRecord[];
}

/** The JSON body of a batch (file content, HTTP body, RabbitMQ message in Batch mode). */
export function batchEnvelope(batch: Batch): Record<string, unknown> {
  return {
    environment: batch.environment,
    object: batch.object,
    type: batch.type,
    fromVersion: batch.fromVersion,
    version: batch.toVersion,
    count: batch.records.length,
    records: batch.records,
  };
}

/** Id a consumer de-duplicates on: environment/object/version. */
export function changeId(environment: string, object: string, version: number | string): string {
  return `${environment}/${object}/${version}`;
}

/** Restores a batch from its envelope (dead-letter replay). */
export function batchFromEnvelope(json: string): Batch {
  const e = JSON.parse(json) as Record<string, unknown>;
  return {
    environment: String(e['environment']),
    object: String(e['object']),
    type: e['type'] === 'Full' ? 'Full' : 'Diff',
    fromVersion: Number(e['fromVersion']),
    toVersion: Number(e['version']),
    records: (e['records'] as ChangeRecord[]) ?? [],
  };
}

export interface BatchLimits {
  readonly maxRecords: number;
  readonly maxBytes: number;
}

/**
 * Splits a change set into batches. With a `$version` on every record, a batch may advance the
 * version to its last change, except when the next batch starts with the same version (several
 * changes of one transaction): then only to just below it. Without versions (a Full export)
 * only the last batch advances, to Metadata.Sync.Version.
 */
export function splitBatches(environment: string, object: string, fromVersion: number, set: ChangeSet, limits: BatchLimits): Batch[] {
  const groups: ChangeRecord[][] = [];
  let current: ChangeRecord[] = [];
  let bytes = 2;
  for (const record of set.records) {
    const size = Buffer.byteLength(JSON.stringify(record)) + 1;
    if (current.length > 0 && (current.length >= limits.maxRecords || bytes + size > limits.maxBytes)) {
      groups.push(current);
      current = [];
      bytes = 2;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  const versioned = set.records.every((r) => recordVersion(r) !== null);
  let previous = fromVersion;
  return groups.map((records, i) => {
    const last = i === groups.length - 1;
    let to: number;
    if (!versioned) to = last ? Math.max(set.version, fromVersion) : fromVersion;
    else {
      const top = recordVersion(records[records.length - 1] as ChangeRecord) as number;
      const next = last ? null : recordVersion((groups[i + 1] as ChangeRecord[])[0] as ChangeRecord);
      to = next !== null && next <= top ? next - 1 : top;
    }
    to = Math.max(to, previous);
    const batch: Batch = { environment, object, type: set.type, fromVersion: previous, toVersion: to, records };
    previous = to;
    return batch;
  });
}
