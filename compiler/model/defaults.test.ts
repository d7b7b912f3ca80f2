/**
 * The schemas' `default` annotations (what editors show) equal what normalize fills in.
 * Every `default` in schemas/ must appear in this table, so a new one cannot drift.
 */
import { describe, expect, it } from 'vitest';
import type { EndpointModel } from '../../runtime/contract/index.js';
import { entity } from '../validate/entity-fixture.js';
import { loadSchemas, type JsonSchema } from '../validate/schema-store.js';
import { normalize } from './normalize.js';

const minimal: Record<string, [where: string, config: Record<string, unknown>]> = {
  sql: ['SQL/T', { DatabaseObjectName: 'T', AllowedColumns: ['Id'], Relationships: [{ Name: 'Self', Target: 'T', LocalColumn: 'Id', TargetColumn: 'Id' }], FunctionParameters: [] }],
  tvf: ['SQL/F', { DatabaseObjectName: 'F', DatabaseObjectType: 'TableValuedFunction', AllowedColumns: ['Id'], FunctionParameters: [{ Name: 'p', SqlType: 'int', Source: 'Query' }] }],
  proxy: ['Proxy/P', { Url: 'http://h/p', Methods: ['GET'], Retry: {}, DeletePatterns: [{}], CustomProperties: {}, ResponseTransforms: {} }],
  composite: ['Proxy/C', { Type: 'Composite', Url: 'http://h', Methods: ['POST'], CompositeConfig: { Name: 'C', Steps: [{ Name: 's', Endpoint: 'P', Method: 'POST' }] } }],
  static: ['Static/S', { ContentFile: 'x.json' }],
  webhook: ['Webhooks/N/W', { DatabaseObjectName: 'W', AllowedColumns: ['a'] }],
  files: ['Files/F', { StorageType: 'Local' }],
};
const models = normalize(Object.values(minimal).map(([where, config]) => entity(where, config)));
const model = (id: string): Record<string, any> => {
  const m = models.find((x: EndpointModel) => x.id === id);
  if (!m) throw new Error(`no model ${id}`);
  return m as unknown as Record<string, any>;
};

/** A proxy without DeletePatterns at all (the minimal one has `[{}]`). */
const bare = () => normalize([entity('Proxy/P', { Url: 'http://h/p', Methods: ['GET'] })])[0] as unknown as Record<string, any>;

/** [schema file, JSON path of the property schema inside it, the normalized value] */
const table: [string, string, () => unknown][] = [
  ['common.schema.json', 'definitions.Enabled', () => model('sql:T').enabled],
  ['common.schema.json', 'definitions.Hidden', () => model('proxy:P').hidden],
  ['common.schema.json', 'definitions.Deprecated', () => model('files:files/F').deprecated],
  ['common.schema.json', 'definitions.ResponseTransforms.properties.Remove', () => model('proxy:P').responseTransforms.remove],
  ['common.schema.json', 'definitions.ResponseTransforms.properties.Rename', () => model('proxy:P').responseTransforms.rename],
  ['common.schema.json', 'definitions.ResponseTransforms.properties.Mask', () => model('sql:T').responseTransforms.mask],
  ['sql.schema.json', 'properties.DatabaseSchema', () => model('sql:T').schema],
  ['sql.schema.json', 'properties.DatabaseObjectType', () => model('sql:T').objectType],
  ['sql.schema.json', 'properties.PrimaryKey', () => model('sql:T').primaryKey],
  ['sql.schema.json', 'properties.AllowedMethods', () => model('sql:T').methods],
  ['sql.schema.json', 'properties.WriteMode', () => model('sql:T').writeMode],
  ['sql.schema.json', 'properties.Paging', () => model('sql:T').paging],
  ['sql.schema.json', 'properties.FunctionParameters.items.properties.Required', () => model('sql:F').functionParameters[0].required],
  ['sql.schema.json', 'properties.Relationships.items.properties.Multiplicity', () => model('sql:T').relationships[0].multiplicity],
  ['proxy.schema.json', 'properties.FallbackUrls', () => model('proxy:P').fallbackUrls],
  ['proxy.schema.json', 'properties.Retry.properties.Attempts', () => model('proxy:P').retry.attempts],
  ['proxy.schema.json', 'properties.Retry.properties.DelayMs', () => model('proxy:P').retry.delayMs],
  ['proxy.schema.json', 'properties.SupportsOData', () => model('proxy:P').supportsOData],
  ['proxy.schema.json', 'properties.RewriteUrls', () => model('proxy:P').rewriteUrls],
  ['proxy.schema.json', 'properties.ForwardCookies', () => model('proxy:P').forwardCookies],
  ['proxy.schema.json', 'properties.TimeoutMs', () => model('proxy:P').timeoutMs],
  ['proxy.schema.json', 'properties.CustomProperties.properties.ContentType', () => model('proxy:P').contentType],
  ['proxy.schema.json', 'properties.DeletePatterns', () => bare().deletePatterns.map((p: { style: string }) => ({ Style: p.style }))],
  ['proxy.schema.json', 'properties.DeletePatterns.items.properties.Style', () => model('proxy:P').deletePatterns[0].style],
  ['composite.schema.json', 'properties.CompositeConfig.properties.Steps.items.properties.IsArray', () => model('composite:C').steps[0].isArray],
  ['composite.schema.json', 'properties.CompositeConfig.properties.Steps.items.properties.TemplateTransformations', () => model('composite:C').steps[0].templateTransformations],
  ['static.schema.json', 'properties.EnableFiltering', () => model('static:S').enableFiltering],
  ['webhook.schema.json', 'properties.DatabaseSchema', () => model('webhook:N/W').schema],
  ['files.schema.json', 'properties.AllowedExtensions', () => model('files:files/F').allowedExtensions],
];

function at(schema: JsonSchema, dotted: string): JsonSchema {
  let node: unknown = schema;
  for (const key of dotted.split('.')) node = (node as Record<string, unknown>)[key];
  return node as JsonSchema;
}

/** Every JSON path in a schema whose node carries `default`. */
function defaultsIn(node: unknown, prefix: string[] = []): string[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const here = 'default' in node && prefix[prefix.length - 1] !== 'properties' ? [prefix.join('.')] : [];
  return [...here, ...Object.entries(node).flatMap(([k, v]) => (k === 'default' ? [] : defaultsIn(v, [...prefix, k])))];
}

describe('schema defaults equal normalize defaults', () => {
  it.each(table)('%s %s', (file, dotted, actual) => {
    const schema = loadSchemas().get(file);
    if (!schema) throw new Error(file);
    expect(actual()).toEqual(at(schema, dotted).default);
  });

  it('every schema default is in the table', () => {
    const found = [...loadSchemas()].flatMap(([file, schema]) => defaultsIn(schema).map((p) => `${file} ${p}`)).sort();
    expect(found).toEqual(table.map(([file, p]) => `${file} ${p}`).sort());
  });
});
