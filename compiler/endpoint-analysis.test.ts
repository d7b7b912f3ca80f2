import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeEntities, entityKey, modelsOf, standsAlone } from './endpoint-analysis.js';
import { normalize } from './model/normalize.js';
import type { Rule } from './validate/rule.js';
import { validateEntity } from './validate/index.js';
import { entity } from './validate/entity-fixture.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wharf-analysis-'));
  await mkdir(path.join(root, 'endpoints/Static/Ref/Units'), { recursive: true });
  await writeFile(path.join(root, 'endpoints/Static/Ref/Units/units.csv'), 'code\nkg\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const SQL = { DatabaseObjectName: 'T', AllowedColumns: ['Id'] };

describe('standsAlone', () => {
  const cases: Array<[string, { where: string; config: unknown; want: boolean }]> = [
    ['SQL without Relationships', { where: 'SQL/A/T', config: SQL, want: true }],
    ['SQL with Relationships (reads its targets)', { where: 'SQL/A/T', config: { ...SQL, Relationships: [] }, want: false }],
    ['Proxy', { where: 'Proxy/P', config: { Url: 'http://example.com', Methods: ['GET'] }, want: true }],
    ['Composite (reads its steps)', { where: 'Proxy/C', config: { Type: 'Composite', Url: 'http://x' }, want: false }],
    ['Static', { where: 'Static/Ref/Units', config: { ContentFile: 'units.csv' }, want: true }],
  ];
  it.each(cases)('%s', (_name, { where, config, want }) => expect(standsAlone(entity(where, config))).toBe(want));
});

describe('entityKey', () => {
  const units = () => entity('Static/Ref/Units', { ContentFile: 'units.csv' }, root);
  it('covers the path, the text, the build inputs and a referenced content file', async () => {
    const base = entityKey(units(), 'inputs');
    expect(entityKey(units(), 'inputs')).toBe(base);
    expect(entityKey(units(), 'other inputs')).not.toBe(base);
    expect(entityKey(entity('Static/Ref/Units', { ContentFile: 'units.csv', Hidden: true }, root), 'inputs')).not.toBe(base);
    expect(entityKey(entity('Static/Other/Units', { ContentFile: 'units.csv' }, root), 'inputs')).not.toBe(base);
    await writeFile(path.join(root, 'endpoints/Static/Ref/Units/units.csv'), 'code\ng\n');
    expect(entityKey(units(), 'inputs')).not.toBe(base);
    await rm(path.join(root, 'endpoints/Static/Ref/Units/units.csv'));
    expect(entityKey(units(), 'inputs')).not.toBe(base);
  });
});

describe('analyzeEntities', () => {
  const contexts = [
    entity('SQL/Sales/Orders', { ...SQL, Relationships: [{ Name: 'C', Target: 'Sales/Customers', LocalColumn: 'Id', TargetColumn: 'Id' }] }),
    entity('SQL/Sales/Customers', SQL),
    entity('Proxy/Weather', { Url: 'http://example.com', Methods: ['GET'] }),
  ];
  it('gives the models of normalize, from a cold or a warm cache', () => {
    const cold = analyzeEntities(contexts, { cache: { records: new Map(), inputs: 'i' } });
    expect(cold.analysed).toBe(3);
    const warm = analyzeEntities(contexts, { cache: { records: cold.records, inputs: 'i' } });
    expect(warm.analysed).toBe(1); // Orders reads its target: always analysed
    expect(modelsOf(contexts, warm.results).models).toEqual(normalize(contexts));
    expect(modelsOf(contexts, cold.results).models).toEqual(normalize(contexts));
    expect(analyzeEntities(contexts, { cache: { records: cold.records, inputs: 'changed' } }).analysed).toBe(3);
  });
});

describe('validateEntity', () => {
  it('refuses a rule that reads other entities without saying so', () => {
    const sneaky: Rule = { name: 'sneaky', scope: 'entity', codes: [], check: (_ctx, project) => (project.contexts.length > 0 ? [] : []) };
    expect(() => validateEntity(entity('SQL/A/T', SQL), [sneaky])).toThrow(/readsOtherEntities/);
    expect(validateEntity(entity('SQL/A/T', SQL), [{ ...sneaky, readsOtherEntities: true }]).diagnostics).toEqual([]);
  });
});
