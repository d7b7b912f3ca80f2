/**
 * The committed demo build (generated/, made with endpoints/database.snapshot.json): every column
 * of every SQL schema in openapi.json has a type, the document stays valid OpenAPI 3.2, and
 * generated/types/rows.ts has the matching row types. `npm run check` keeps generated/ fresh.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/project.js';

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: string[]; [k: string]: unknown };
const doc = JSON.parse(readFileSync(path.join(REPO_ROOT, 'generated/openapi.json'), 'utf8')) as { components: { schemas: Record<string, Schema> } };
const schemas = doc.components.schemas;

describe('generated/openapi.json of the demo', () => {
  it('is valid OpenAPI 3.2', async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result.errors).toBeUndefined();
  });

  it('types every column of every SQL item and write body (no empty schema left)', () => {
    const sql = Object.entries(schemas).filter(([name]) => /\.(Item|CreateBody|ReplaceBody|UpdateBody)$/.test(name));
    expect(sql.length).toBeGreaterThan(8);
    const untyped = sql.flatMap(([name, s]) => Object.entries(s.properties ?? {}).filter(([, p]) => p.type === undefined).map(([prop]) => `${name}.${prop}`));
    expect(untyped).toEqual([]);
  });

  it('carries type, format, nullability, maxLength, readOnly and required from the catalogue', () => {
    expect(schemas['Inventory.Products.Item']!.properties).toMatchObject({
      ProductId: { type: 'integer', format: 'int32', readOnly: true },
      Price: { type: 'number', format: 'decimal' },
      CreatedAt: { type: 'string', format: 'date-time' },
    });
    expect(schemas['Inventory.Warehouses.Item']!.properties).toMatchObject({ City: { type: ['string', 'null'], maxLength: 40 }, Notes: { const: '***' } });
    expect(schemas['Inventory.Warehouses.CreateBody']!.required).toEqual(['Code', 'Name']);
    expect(schemas['Inventory.Warehouses.CreateBody']!.properties!['Capacity']).toEqual({ type: ['integer', 'null'], format: 'int32' });
  });

  it('generated/types/rows.ts has the row of each SQL endpoint', () => {
    const rows = readFileSync(path.join(REPO_ROOT, 'generated/types/rows.ts'), 'utf8');
    expect(rows).toContain('export interface InventoryProductsRow {\n  ProductId: number;\n  Sku: string;\n  Name: string;\n');
    expect(rows).toContain('export interface InventoryWarehousesRow {');
    expect(rows).toContain("  Notes: '***';");
  });
});
