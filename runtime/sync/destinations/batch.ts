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
  /** Each record's JSON text, as splitBatches measured it (so no destination serialises a record twice). */
  readonly recordJson?: readonly string[];
}

/** The JSON body of a batch (file content, HTTP body, RabbitMQ message in Batch mode). */
export function batchEnvelope(batch: Batch): Record<string, unknown> {
  return { ...envelopeHead(batch), records: batch.records };
}

/** The envelope without its records; `part` only on the non-final batches of a Full export. */
function envelopeHead(batch: Batch): Record<string, unknown> {
  return {
    environment: batch.environment,
    object: batch.object,
    type: batch.type,
    fromVersion: batch.fromVersion,
    version: batch.toVersion,
    ...(batch.part === undefined ? {} : { part: batch.part }),
    count: batch.records.length,
  };
}

/**
 * The batch's version as ids carry it: `toVersion`, with `.partN` on the parts of a Full export
 * (they share their version: without it a consumer de-duplicating on the id dropped every part
 * after the first). The file name, the HTTP batch id and the RabbitMQ message ids use it.
 */
export function batchVersionId(batch: Batch): string {
  return batch.part === undefined ? String(batch.toVersion) : `${batch.toVersion}.part${batch.part}`;
}

/** JSON.stringify(batchEnvelope(batch)), built from the records' JSON texts when the batch has them. */
export function batchJson(batch: Batch): string {
  const texts = batch.recordJson;
  if (!texts) return JSON.stringify(batchEnvelope(batch));
  const head = JSON.stringify(envelopeHead(batch));
  return `${head.slice(0, -1)},"records":[${texts.join(',')}]}`;
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
    ...(typeof e['part'] === 'number' ? { part: e['part'] } : {}),
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
  const records = set.records;
  const versions = records.map(recordVersion);
  const versioned = versions.every((v) => v !== null);
  // Units: runs of records sharing one $version (single records without versions), as [start, end).
  const groups: [number, number][] = [];
  const texts: string[] = new Array<string>(records.length);
  let start = 0;
  let bytes = 2;
  let i = 0;
  while (i < records.length) {
    let end = i + 1;
    if (versioned) while (end < records.length && versions[end] === versions[i]) end++;
    let size = 0;
    for (let k = i; k < end; k++) {
      const text = JSON.stringify(records[k]);
      texts[k] = text;
      size += Buffer.byteLength(text) + 1;
    }
    if (i > start && (i - start + (end - i) > limits.maxRecords || bytes + size > limits.maxBytes)) {
      groups.push([start, i]);
      start = i;
      bytes = 2;
    }
    bytes += size;
    i = end;
  }
  if (records.length > start) groups.push([start, records.length]);
  let previous = fromVersion;
  return groups.map(([from, end], g) => {
    const last = g === groups.length - 1;
    const top = versioned ? (versions[end - 1] as number) : last ? set.version : fromVersion;
    const to = Math.max(top, previous);
    const batch: Batch = {
      environment,
      object,
      type: set.type,
      fromVersion: previous,
      toVersion: to,
      records: records.slice(from, end),
      ...(versioned || last ? {} : { part: g + 1 }),
      recordJson: texts.slice(from, end),
    };
    previous = to;
    return batch;
  });
}
