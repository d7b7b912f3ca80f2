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
  /** 1-based, only on the batches of a Full export that do not advance the version. */
  readonly part?: number;
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
 * Splits a change set into batches. Changes sharing one `$version` (one transaction under change
 * tracking) stay in one batch even past MaxRecordsPerBatch/MaxPayloadSizeBytes, so every batch
 * may advance the version to its last change and no two batches end on the same version.
 * Without versions (a Full export) only the last batch advances, to Metadata.Sync.Version; the
 * others carry `part` so file names stay apart.
 */
export function splitBatches(environment: string, object: string, fromVersion: number, set: ChangeSet, limits: BatchLimits): Batch[] {
  const versioned = set.records.every((r) => recordVersion(r) !== null);
  const units: ChangeRecord[][] = [];
  for (const record of set.records) {
    const previous = units[units.length - 1];
    if (versioned && previous && recordVersion(previous[0] as ChangeRecord) === recordVersion(record)) previous.push(record);
    else units.push([record]);
  }
  const groups: ChangeRecord[][] = [];
  let current: ChangeRecord[] = [];
  let bytes = 2;
  for (const unit of units) {
    const size = unit.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
    if (current.length > 0 && (current.length + unit.length > limits.maxRecords || bytes + size > limits.maxBytes)) {
      groups.push(current);
      current = [];
      bytes = 2;
    }
    current.push(...unit);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  let previous = fromVersion;
  return groups.map((records, i) => {
    const last = i === groups.length - 1;
    const top = versioned ? (recordVersion(records[records.length - 1] as ChangeRecord) as number) : last ? set.version : fromVersion;
    const to = Math.max(top, previous);
    const batch: Batch = { environment, object, type: set.type, fromVersion: previous, toVersion: to, records, ...(versioned || last ? {} : { part: i + 1 }) };
    previous = to;
    return batch;
  });
}
