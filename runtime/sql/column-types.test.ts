import { describe, expect, it } from 'vitest';
import type { SqlEndpoint } from '../contract/model.js';
import { tableRefOf } from './column-types.js';

describe('tableRefOf', () => {
  it('names the table or view, one object per loaded endpoint (the column kinds are found without building a key per request)', () => {
    const table = { objectType: 'Table', schema: 'inventory', objectName: 'Products' } as SqlEndpoint;
    const ref = tableRefOf(table);
    expect(ref).toEqual({ schema: 'inventory', object: 'Products' });
    expect(tableRefOf(table)).toBe(ref);
    expect(tableRefOf({ ...table })).not.toBe(ref); // a reloaded endpoint gets its own
  });

  it('is null for a table-valued function (its columns are not read from the catalogue)', () => {
    expect(tableRefOf({ objectType: 'TableValuedFunction', schema: 'dbo', objectName: 'Find' } as SqlEndpoint)).toBeNull();
  });
});
