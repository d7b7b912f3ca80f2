/**
 * The standalone validators `wharf build` loads give what ajv's compiled ones give: for every
 * entity.json of the invalid fixtures and of the sample endpoints, the same verdict and the same
 * errors (every field: keyword, paths, params, and with `verbose` the schema and the data).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EndpointKind } from '../../runtime/contract/index.js';
import { REPO_ROOT } from '../../test/support/project.js';
import { entitySchemasAjv, VALIDATOR_OPTIONS } from './schema.js';
import { loadSchemas, SCHEMA_FILE } from './schema-store.js';
import { loadValidators, saveValidators, validatorsFileName } from './standalone-validators.js';
import { tooDeepAt } from '../json-text.js';

const KIND_OF_FOLDER: Readonly<Record<string, EndpointKind>> = { SQL: 'sql', Proxy: 'proxy', Static: 'static', Composite: 'composite', Webhook: 'webhook', Files: 'files' };
const kinds = Object.keys(SCHEMA_FILE) as EndpointKind[];
// inside the package, as Wharf's .wharf/artifacts is: the code requires ajv's runtime helpers
mkdirSync(path.join(REPO_ROOT, '.wharf'), { recursive: true });
const dir = mkdtempSync(path.join(REPO_ROOT, '.wharf', 'test-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** [kind, file, parsed config] of every entity.json under `root` (an endpoints/ folder, or folders holding them). */
function entities(root: string): [EndpointKind, string, unknown][] {
  const out: [EndpointKind, string, unknown][] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'entity.json') continue;
    const file = path.join(entry.parentPath, entry.name);
    const parts = path.relative(root, file).split(path.sep);
    const kind = KIND_OF_FOLDER[parts[parts.indexOf('endpoints') + 1] ?? ''];
    if (kind === undefined) continue;
    const text = readFileSync(file, 'utf8');
    if (tooDeepAt(text) !== undefined) continue; // refused by parse (json-text.ts): never reaches schema validation
    try {
      out.push([kind, file, JSON.parse(text)]);
    } catch {
      // not JSON: never reaches schema validation
    }
  }
  return out;
}

describe('standalone entity validators', () => {
  const fileName = validatorsFileName(loadSchemas(), VALIDATOR_OPTIONS);

  it('are absent until saved, then load for every kind', () => {
    expect(loadValidators(dir, fileName, kinds)).toBeNull();
    const ajv = entitySchemasAjv(true);
    for (const kind of kinds) ajv.getSchema(SCHEMA_FILE[kind]);
    saveValidators(dir, fileName, ajv, SCHEMA_FILE);
    expect([...(loadValidators(dir, fileName, kinds)?.keys() ?? [])].sort()).toEqual([...kinds].sort());
  });

  it('give the compiled validators\' verdicts and errors on every fixture and sample entity', () => {
    const standalone = loadValidators(dir, fileName, kinds);
    expect(standalone).not.toBeNull();
    const compiled = entitySchemasAjv(false);
    const all = [...entities(path.join(REPO_ROOT, 'test/fixtures/invalid')), ...entities(path.join(REPO_ROOT, 'endpoints'))];
    expect(all.length).toBeGreaterThan(100);
    let failing = 0;
    for (const [kind, file, config] of all) {
      const a = compiled.getSchema(SCHEMA_FILE[kind])!;
      const b = standalone!.get(kind)!;
      const verdict = a(config);
      expect(b(config), file).toBe(verdict);
      expect(JSON.stringify(b.errors ?? null), file).toBe(JSON.stringify(a.errors ?? null));
      if (!verdict) failing += 1;
    }
    expect(failing).toBeGreaterThan(10); // the comparison covered errors, not only valid entities
  });

  it('a file for other schemas is another name, and a damaged file does not load', () => {
    const other = new Map(loadSchemas());
    other.set('sql.schema.json', { ...other.get('sql.schema.json'), description: 'changed' });
    expect(validatorsFileName(other, VALIDATOR_OPTIONS)).not.toBe(fileName);
    writeFileSync(path.join(dir, 'entity-validators-damaged.cjs'), 'module.exports = {');
    expect(loadValidators(dir, 'entity-validators-damaged.cjs', kinds)).toBeNull();
    writeFileSync(path.join(dir, 'entity-validators-partial.cjs'), 'module.exports = { sql() { return true; } };');
    expect(loadValidators(dir, 'entity-validators-partial.cjs', kinds)).toBeNull();
  });
});
