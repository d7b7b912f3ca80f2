import { describe, expect, it } from 'vitest';
import { MANIFEST_SCHEMA_VERSION } from '../../runtime/contract/index.js';
import { customers, goldenModels, products } from './__golden__/models.js';
import { buildManifest, emitManifest } from './manifest.js';

describe('manifest.json', () => {
  it('carries the schema version, the hash and the endpoints sorted by id', () => {
    const manifest = buildManifest(goldenModels, 'h');
    expect(manifest.schemaVersion).toBe(MANIFEST_SCHEMA_VERSION);
    expect(manifest.sourceHash).toBe('h');
    const ids = manifest.endpoints.map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toHaveLength(goldenModels.length);
  });

  it('round-trips the models unchanged through JSON', () => {
    const [file] = emitManifest([products, customers], 'h');
    expect(file?.path).toBe('manifest.json');
    expect(JSON.parse(String(file?.content))).toEqual({ schemaVersion: MANIFEST_SCHEMA_VERSION, sourceHash: 'h', endpoints: [customers, products] });
  });

  it('refuses duplicate endpoint ids', () => {
    expect(() => buildManifest([customers, { ...customers }], 'h')).toThrow(/duplicate endpoint id 'sql:Customers'/);
  });
});
