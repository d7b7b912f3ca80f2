/**
 * The procedure contract (docs/sync.md): the tracked object's procedure/function is called with
 * `{fromVersion, mode}` and returns one JSON document
 *   {Metadata: {Sync: {Version, Type: "Full"|"Diff", ReasonCode}}, Data: [{"$operation": "I"|"U"|"D", "$version": n, ...}]}
 * parseChangeSet checks that shape and puts the records in version order (stable). The document
 * is parsed without losing digits (exact-json.ts).
 */
import { parseJsonExact } from './exact-json.js';

export type ChangeOperation = 'I' | 'U' | 'D';
export type ChangeRecord = Readonly<Record<string, unknown>>;

export interface ChangeSet {
  /** Metadata.Sync.Version: the version the data is complete up to. */
  readonly version: number;
  readonly type: 'Full' | 'Diff';
  readonly reasonCode: number | null;
  /** In `$version` order when every record carries one. */
  readonly records: readonly ChangeRecord[];
}

export class ChangeSetError extends Error {
  override readonly name = 'ChangeSetError';
}

const OPERATIONS = new Set(['I', 'U', 'D']);

function asNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

/** Version of a record, or null when it has none. */
export function recordVersion(record: ChangeRecord): number | null {
  return asNumber(record['$version']);
}

export function parseChangeSet(value: unknown, procedure: string): ChangeSet {
  let doc = value;
  if (typeof doc === 'string') {
    try {
      doc = parseJsonExact(doc);
    } catch {
      throw new ChangeSetError(`${procedure} did not return JSON`);
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ChangeSetError(`${procedure} returned no JSON object (got ${doc === null ? 'null' : typeof doc})`);
  const root = doc as Record<string, unknown>;
  const sync = (root['Metadata'] as { Sync?: Record<string, unknown> } | undefined)?.Sync;
  const version = asNumber(sync?.['Version']);
  if (version === null) throw new ChangeSetError(`${procedure} returned no Metadata.Sync.Version`);
  const type = sync?.['Type'] === 'Full' ? 'Full' : 'Diff';
  const data = root['Data'] ?? [];
  if (!Array.isArray(data)) throw new ChangeSetError(`${procedure} returned Data that is not an array`);
  data.forEach((record: unknown, i) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) throw new ChangeSetError(`${procedure}: Data[${i}] is not an object`);
    const op = (record as Record<string, unknown>)['$operation'];
    if (op !== undefined && !OPERATIONS.has(String(op))) throw new ChangeSetError(`${procedure}: Data[${i}].$operation must be I, U or D`);
  });
  const records = data as ChangeRecord[];
  const versions = records.map(recordVersion);
  const versioned = versions.every((v) => v !== null);
  // Procedures usually return their changes in order already: sort only when they do not.
  const sorted = versions.every((v, i) => i === 0 || (v as number) >= (versions[i - 1] as number));
  const ordered =
    versioned && !sorted
      ? records
          .map((r, i) => [r, i] as const)
          .sort((a, b) => (versions[a[1]] as number) - (versions[b[1]] as number) || a[1] - b[1])
          .map(([r]) => r)
      : records;
  return { version, type, reasonCode: asNumber(sync?.['ReasonCode']), records: ordered };
}
