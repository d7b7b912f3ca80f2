/**
 * generated/openapi-3.1.json, the 3.1 rendering of openapi.json for generators: both demo documents
 * pass @seriousme/openapi-schema-validator (as 3.2 and 3.1), the rendering loses no operation
 * (QUERY lives in `x-query`), it is byte-for-byte deterministic, and a client generated from it with
 * openapi-typescript typechecks (tsc) against a usage of the demo's Warehouses endpoint.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { diffOpenApi } from '../../openapi-diff/diff.js';
import { OPENAPI_31_VERSION, toOpenApi31 } from './document.js';

const run = promisify(execFile);
type SpecData = Record<string, unknown>;
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (rel: string) => JSON.parse(readFileSync(path.join(repo, rel), 'utf8')) as Record<string, unknown>;
const doc32 = read('generated/openapi.json');
const doc31 = read('generated/openapi-3.1.json');

async function validate(doc: unknown) {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as unknown as SpecData);
  return { ...result, version: validator.version };
}

describe('openapi-3.1.json', () => {
  it('the demo openapi.json is valid 3.2 and openapi-3.1.json valid 3.1', async () => {
    const v32 = await validate(doc32);
    expect(v32.errors).toBeUndefined();
    expect([v32.valid, v32.version]).toEqual([true, '3.2']);
    const v31 = await validate(doc31);
    expect(v31.errors).toBeUndefined();
    expect([v31.valid, v31.version]).toEqual([true, '3.1']);
    expect(doc31.openapi).toBe(OPENAPI_31_VERSION);
  });

  it('the validity check can fail: the 3.2 document merely relabelled 3.1 is refused (query, additionalOperations, tag kind)', async () => {
    expect((await validate({ ...structuredClone(doc32), openapi: OPENAPI_31_VERSION })).valid).toBe(false);
  });

  it('keeps every operation: QUERY in x-query, MERGE in x-additional-operations, nothing else changed', () => {
    const paths31 = doc31.paths as Record<string, Record<string, unknown>>;
    const paths32 = doc32.paths as Record<string, Record<string, unknown>>;
    const queries = Object.entries(paths32).filter(([, item]) => item.query);
    expect(queries.length).toBeGreaterThan(5);
    for (const [p, item] of queries) expect(paths31[p]!['x-query'], p).toEqual(item.query);
    expect(Object.values(paths31).some((item) => 'query' in item || 'additionalOperations' in item)).toBe(false);
    expect(Object.values(paths31).filter((item) => 'x-additional-operations' in item).length).toBe(
      Object.values(paths32).filter((item) => 'additionalOperations' in item).length,
    );
    expect(diffOpenApi(doc32, doc31)).toEqual([]);
    expect(doc31.components).toEqual(doc32.components);
  });

  it('is deterministic and does not change its input', () => {
    const before = JSON.stringify(doc32);
    expect(JSON.stringify(toOpenApi31(doc32))).toBe(JSON.stringify(toOpenApi31(doc32)));
    expect(JSON.stringify(doc32)).toBe(before);
  });

  it('a TypeScript client generated with openapi-typescript typechecks against a usage of the demo', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wharf-oapi-ts-'));
    try {
      const bin = (name: string) => path.join(repo, 'node_modules/.bin', name);
      await run(bin('openapi-typescript'), [path.join(repo, 'generated/openapi-3.1.json'), '-o', path.join(dir, 'api.d.ts')], { cwd: dir });
      writeFileSync(
        path.join(dir, 'usage.ts'),
        [
          "import type { components, paths } from './api';",
          "type Page = paths['/api/{env}/Inventory/Warehouses']['get']['responses'][200]['content']['application/json'];",
          "type Create = NonNullable<paths['/api/{env}/Inventory/Warehouses']['post']['requestBody']>['content']['application/json'];",
          "type Warehouse = components['schemas']['Inventory.Warehouses.Item'];",
          'export function cities(page: Page): (string | null | undefined)[] {',
          '  return page.value.map((w: Warehouse) => w.City);',
          '}',
          "export const input: Create = { Code: 'NL-001', Name: 'Rotterdam', City: null, Capacity: 100 };",
          "export const env: paths['/api/{env}/Inventory/Warehouses']['parameters']['path']['env'] = 'demo';",
          '// @ts-expect-error a column the endpoint does not take (the create body has no other fields)',
          "export const wrong: Create = { Code: 'NL-002', Name: 'Delft', NoSuchColumn: 1 };",
          '// @ts-expect-error the typed column is a number, not text',
          "export const capacity: NonNullable<Warehouse['Capacity']> = 'many';",
          '',
        ].join('\n'),
      );
      const tsc = await run(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'usage.ts'], { cwd: dir }).catch((e: { stdout: string; stderr: string }) => {
        throw new Error(`tsc failed:\n${e.stdout}${e.stderr}`);
      });
      expect(tsc.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
