import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { entity } from './entity-fixture.js';
import { validateSchema, VALIDATOR_OPTIONS } from './schema.js';
import { descriptionOf, loadSchemas, type JsonSchema } from './schema-store.js';

/** `severity code pointer line:col: message | hint` */
function run(where: string, config: unknown): string[] {
  return validateSchema(entity(where, config)).map(
    (d) => `${d.severity} ${d.code} ${d.pointer} ${d.line}:${d.column}: ${d.message}${d.hint ? ` | ${d.hint}` : ''}`,
  );
}

const SQL = { DatabaseObjectName: 'Products', AllowedColumns: ['Id'] };
const PROXY = { Url: 'http://127.0.0.1/x', Methods: ['GET'] };

describe('schema validation', () => {
  const cases: [string, { where: string; config: unknown; want: string[] }][] = [
    ['valid SQL', { where: 'SQL/Products', config: SQL, want: [] }],
    ['valid proxy', { where: 'Proxy/P', config: PROXY, want: [] }],
    [
      'SQL missing DatabaseObjectName',
      {
        where: 'SQL/Products',
        config: { AllowedColumns: ['Id'] },
        want: ['error schema-required /DatabaseObjectName 1:1: DatabaseObjectName is required for SQL endpoints | Name of the table, view or table-valued function.'],
      },
    ],
    [
      'proxy missing Url and Methods',
      {
        where: 'Proxy/P',
        config: {},
        want: [
          'error schema-required /Url 1:1: Url is required for Proxy endpoints | Absolute http(s) URL of the target service.',
          'error schema-required /Methods 1:1: Methods is required for Proxy endpoints | HTTP methods this endpoint serves.',
        ],
      },
    ],
    ['empty Methods', { where: 'Proxy/P', config: { ...PROXY, Methods: [] }, want: ['error schema-range /Methods 3:14: Methods must contain at least one HTTP method'] }],
    [
      'unknown method',
      {
        where: 'SQL/Products',
        config: { ...SQL, AllowedMethods: ['GET', 'FETCH'] },
        want: ["error allowed-methods /AllowedMethods/1 8:5: AllowedMethods value 'FETCH' is not one of GET, POST, PUT, PATCH, DELETE, MERGE, QUERY"],
      },
    ],
    [
      'lower-case method',
      { where: 'Proxy/P', config: { ...PROXY, Methods: ['get'] }, want: ["error allowed-methods /Methods/0 4:5: Methods value 'get' is not one of GET, POST, PUT, PATCH, DELETE, MERGE, QUERY | Methods are upper case: use 'GET'."] },
    ],
    ['wrong type', { where: 'SQL/Products', config: { ...SQL, Enabled: 'yes' }, want: ['error schema-type /Enabled 6:14: Enabled must be true or false'] }],
    ['nullable integer', { where: 'SQL/Products', config: { ...SQL, CacheDurationSeconds: 'x' }, want: ['error schema-type /CacheDurationSeconds 6:27: CacheDurationSeconds must be an integer or null'] }],
    ['null cache duration is valid', { where: 'SQL/Products', config: { ...SQL, CacheDurationSeconds: null }, want: [] }],
    ['enum', { where: 'SQL/Products', config: { ...SQL, DatabaseObjectType: 'view' }, want: ["error schema-enum /DatabaseObjectType 6:25: DatabaseObjectType value 'view' is not one of Table, View, TableValuedFunction | Values are case-sensitive: use 'View'."] }],
    ['nested range', { where: 'Proxy/P', config: { ...PROXY, Retry: { Attempts: 0 } }, want: ['error schema-range /Retry/Attempts 7:17: Retry.Attempts must be at least 1'] }],
    ['const', { where: 'Proxy/P', config: { Type: 'composite', Url: 'http://x', Methods: ['POST'], CompositeConfig: { Name: 'n', Steps: [{ Name: 'a', Endpoint: 'b', Method: 'POST' }] } }, want: ["error schema-enum /Type 2:11: Type must be 'Composite'"] }],
    [
      'unknown property with suggestion',
      { where: 'SQL/Products', config: { ...SQL, AllowedColumn: ['Id'] }, want: ["error unknown-property /AllowedColumn 6:3: 'AllowedColumn' is not a known property of SQL endpoints | Did you mean 'AllowedColumns'? For a comment, use a key starting with 'x-' or '$comment'."] },
    ],
    [
      'nested unknown property lists the known ones',
      { where: 'Proxy/P', config: { ...PROXY, Retry: { Tries: 2 } }, want: ["error unknown-property /Retry/Tries 7:5: 'Tries' is not a known property of Retry | Known properties: Attempts, DelayMs. For a comment, use a key starting with 'x-' or '$comment'."] },
    ],
    [
      'nested required',
      {
        where: 'Proxy/C',
        config: { Type: 'Composite', Url: 'http://x', Methods: ['POST'], CompositeConfig: { Name: 'n', Steps: [{ Name: 'a', Method: 'POST' }] } },
        want: ["error schema-required /CompositeConfig/Steps/0/Endpoint 10:7: Endpoint is required in CompositeConfig.Steps[0] | Target Proxy endpoint: '{namespace}/{endpoint}' or '{endpoint}'."],
      },
    ],
    ['extension pattern', { where: 'Files/F', config: { StorageType: 'Local', AllowedExtensions: ['pdf'] }, want: ["error schema-format /AllowedExtensions/0 4:5: AllowedExtensions[0] value 'pdf' does not match ^\\.[A-Za-z0-9][A-Za-z0-9._-]*$ | Write extensions with a leading dot, e.g. '.pdf'."] }],
  ];
  it.each(cases)('%s', (_name, { where, config, want }) => {
    expect(run(where, config)).toEqual(want);
  });
});

describe('schema files', () => {
  const schemas = [...loadSchemas()];
  const COMMON = ['$schema', 'Namespace', 'NamespaceDisplayName', 'DisplayName', 'AllowedEnvironments', 'Enabled', 'Hidden', 'Deprecated', 'Documentation'];

  /** Every `properties` map in a schema, with its JSON path. */
  function propertyMaps(node: unknown, at = ''): [string, Record<string, JsonSchema>][] {
    if (typeof node !== 'object' || node === null) return [];
    const own = (node as { properties?: Record<string, JsonSchema> }).properties;
    const here: [string, Record<string, JsonSchema>][] = own ? [[at, own]] : [];
    return [...here, ...Object.entries(node).flatMap(([k, v]) => propertyMaps(v, `${at}/${k}`))];
  }

  it.each(schemas)('%s: every property has a description (for editor hover)', (_file, schema) => {
    const missing = propertyMaps(schema).flatMap(([at, props]) =>
      Object.entries(props).filter(([, s]) => descriptionOf(s) === undefined).map(([name]) => `${at}/${name}`),
    );
    expect(missing).toEqual([]);
  });

  it.each(schemas.filter(([file]) => file !== 'common.schema.json'))('%s: lists the common properties and closes the object', (_file, schema) => {
    expect(Object.keys(schema.properties as object)).toEqual(expect.arrayContaining(COMMON));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.$id).toBeUndefined();
  });

  it('every schema of schemas/ is valid against the meta-schema (the build skips that check)', () => {
    const checked = new Ajv({ ...VALIDATOR_OPTIONS, validateSchema: true });
    for (const [file, schema] of loadSchemas()) {
      expect(checked.validateSchema(schema as object), `${file}: ${checked.errorsText(checked.errors)}`).toBe(true);
      checked.addSchema(schema as object, file);
    }
    for (const file of loadSchemas().keys()) expect(checked.getSchema(file)).toBeTypeOf('function');
    expect(checked.validateSchema({ type: 'object', required: 'Name' })).toBe(false); // the check can fail
  });
});
