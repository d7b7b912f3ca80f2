import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../source/change-set.js';
import { splitBatches } from './batch.js';

const rec = (v: number | null, size = 0) => ({ $operation: 'U', ...(v === null ? {} : { $version: v }), pad: 'x'.repeat(size) });
const set = (records: Record<string, unknown>[], version: number, type: 'Full' | 'Diff' = 'Diff'): ChangeSet => ({ version, type, reasonCode: 0, records });

describe('splitBatches', () => {
  const cases: [string, { records: Record<string, unknown>[]; version: number; maxRecords: number; maxBytes?: number; type?: 'Full' | 'Diff' }, [number, number, number][]][] = [
    ['one batch advances to the last version', { records: [rec(11), rec(12)], version: 12, maxRecords: 10 }, [[10, 12, 2]]],
    ['count bound', { records: [rec(11), rec(12), rec(13)], version: 13, maxRecords: 2 }, [[10, 12, 2], [12, 13, 1]]],
    ['changes of one version stay together', { records: [rec(11), rec(12), rec(12), rec(13)], version: 13, maxRecords: 2 }, [[10, 11, 1], [11, 12, 2], [12, 13, 1]]],
    ['even past the record bound', { records: [rec(12), rec(12), rec(12)], version: 12, maxRecords: 1 }, [[10, 12, 3]]],
    ['size bound', { records: [rec(11, 600), rec(12, 600), rec(13, 10)], version: 13, maxRecords: 100, maxBytes: 1024 }, [[10, 11, 1], [11, 13, 2]]],
    ['Full export without versions advances only at the end', { records: [rec(null), rec(null), rec(null)], version: 40, maxRecords: 2, type: 'Full' }, [[10, 10, 2], [10, 40, 1]]],
  ];
  it.each(cases)('%s', (_name, given, want) => {
    const batches = splitBatches('env', 'obj', 10, set(given.records, given.version, given.type), { maxRecords: given.maxRecords, maxBytes: given.maxBytes ?? 1 << 20 });
    expect(batches.map((b) => [b.fromVersion, b.toVersion, b.records.length])).toEqual(want);
  });
});

describe('file names of a Full export', () => {
  it('batches that do not advance carry a part number, so their files stay apart', async () => {
    const { filePathOf } = await import('./file.js');
    const batches = splitBatches('env', 'obj', 0, set([rec(null), rec(null), rec(null)], 40, 'Full'), { maxRecords: 1, maxBytes: 1 << 20 });
    const config = { type: 'File' as const, key: 'f', path: 'out/{object}/{version}.json' };
    expect(batches.map((b) => filePathOf(config, '/p', b))).toEqual(['/p/out/obj/000000000000.part1.json', '/p/out/obj/000000000000.part2.json', '/p/out/obj/000000000040.json']);
  });
});

describe('batchJson', () => {
  it('is JSON.stringify of the envelope, built from the JSON texts splitBatches kept (no second serialisation)', async () => {
    const { batchEnvelope, batchJson } = await import('./batch.js');
    const records = [rec(11), { $operation: 'D', $version: 12, name: 'ü "quoted"\n', n: 1.5, nested: { a: [1, null] } }];
    const [batch] = splitBatches('env "x"', 'obj', 10, set(records, 12), { maxRecords: 10, maxBytes: 1 << 20 });
    expect(batch?.recordJson).toEqual(records.map((r) => JSON.stringify(r)));
    expect(batchJson(batch!)).toBe(JSON.stringify(batchEnvelope(batch!)));
    const { recordJson: _, ...without } = batch!;
    expect(batchJson(without)).toBe(JSON.stringify(batchEnvelope(batch!)));
  });
});

describe('batchFromEnvelope (dead-letter replay)', () => {
  it('keeps the part of a Full export, so the replay is written and identified as that part', async () => {
    const { batchFromEnvelope, batchJson, batchVersionId } = await import('./batch.js');
    const part = { environment: 'prod', object: 'obj', type: 'Full', fromVersion: 0, toVersion: 0, part: 2, records: [{ Id: 1 }] } as const;
    const replayed = batchFromEnvelope(batchJson(part));
    expect(replayed).toEqual(part);
    expect(batchVersionId(replayed)).toBe('0.part2');
    expect(batchFromEnvelope(batchJson({ ...part, part: undefined, toVersion: 7 })).part).toBeUndefined();
  });
});
