import { describe, expect, it } from 'vitest';
import { entity } from '../validate/entity-fixture.js';
import { normalize } from './normalize.js';

type Given = [where: string, config: Record<string, unknown>][];

const SQL = { DatabaseObjectName: 'Products', AllowedColumns: ['Id', 'ProductName;Name'] };
const PROXY = { Url: 'http://127.0.0.1/p', Methods: ['GET'] };

const cases: [string, { given: Given; id: string; want: Record<string, unknown> }][] = [
  [
    'SQL defaults',
    {
      given: [['SQL/Inventory/Products', SQL]],
      id: 'sql:Inventory/Products',
      want: {
        kind: 'sql', name: 'Products', namespace: 'Inventory', routePath: 'Inventory/Products', sourceFile: 'endpoints/SQL/Inventory/Products/entity.json',
        displayName: 'Products', namespaceDisplayName: null, allowedEnvironments: null, enabled: true, hidden: false, deprecated: false,
        documentation: { tagDescription: null, methodDescriptions: {} }, methods: ['GET'],
        schema: 'dbo', objectName: 'Products', objectType: 'Table', primaryKey: 'Id',
        columns: [{ db: 'Id', name: 'Id' }, { db: 'ProductName', name: 'Name' }], functionParameters: [], procedure: null, writeMode: 'Procedure', requiredColumns: [], columnValidation: [],
        responseTransforms: { remove: [], rename: {}, mask: [] }, relationships: [], maxBatchRows: null, paging: 'Skip', cacheDurationSeconds: null,
      },
    },
  ],
  [
    'SQL methods in canonical order, deduplicated',
    { given: [['SQL/P', { ...SQL, AllowedMethods: ['DELETE', 'GET', 'GET', 'QUERY'], Procedure: 'dbo.Save', CacheDurationSeconds: 0 }]], id: 'sql:P', want: { methods: ['GET', 'DELETE', 'QUERY'], procedure: 'dbo.Save', cacheDurationSeconds: 0 } },
  ],
  [
    'table-valued function',
    {
      given: [['SQL/F', { DatabaseObjectName: 'F', DatabaseObjectType: 'TableValuedFunction', AllowedColumns: ['Id'], FunctionParameters: [{ Name: 'a', SqlType: 'int', Source: 'Path', Position: 1, Required: true, ValidationPattern: '^\\d+$' }, { Name: 'b', SqlType: 'int', Source: 'Query', DefaultValue: 'DEFAULT' }] }]],
      id: 'sql:F',
      want: {
        primaryKey: null, objectType: 'TableValuedFunction', methods: ['GET'],
        functionParameters: [
          { name: 'a', sqlType: 'int', source: 'Path', position: 1, required: true, defaultValue: null, validationPattern: '^\\d+$' },
          { name: 'b', sqlType: 'int', source: 'Query', position: null, required: false, defaultValue: 'DEFAULT', validationPattern: null },
        ],
      },
    },
  ],
  [
    'relationship target resolved to an id',
    {
      given: [['SQL/Sales/Orders', { ...SQL, AllowedColumns: ['Id', 'CustomerId'], Relationships: [{ Name: 'Customer', Target: 'customers', LocalColumn: 'CustomerId', TargetColumn: 'Id' }] }], ['SQL/Customers', SQL]],
      id: 'sql:Sales/Orders',
      want: { relationships: [{ name: 'Customer', targetId: 'sql:Customers', localColumn: 'CustomerId', targetColumn: 'Id', multiplicity: 'ToOne' }] },
    },
  ],
  [
    'common properties',
    {
      given: [['SQL/P', { ...SQL, Namespace: 'Shop', DisplayName: 'All products', NamespaceDisplayName: 'The shop', AllowedEnvironments: ['prod'], Enabled: false, Hidden: true, Deprecated: true, Documentation: { TagDescription: 'Tag', MethodDescriptions: { GET: 'List' } } }]],
      id: 'sql:Shop/P',
      want: { namespace: 'Shop', namespaceSource: 'explicit', displayName: 'All products', namespaceDisplayName: 'The shop', allowedEnvironments: ['prod'], enabled: false, hidden: true, deprecated: true, documentation: { tagDescription: 'Tag', methodDescriptions: { GET: 'List' } } },
    },
  ],
  [
    'proxy defaults',
    { given: [['Proxy/P', PROXY]], id: 'proxy:P', want: { url: 'http://127.0.0.1/p', fallbackUrls: [], retry: { attempts: 1, delayMs: 200 }, supportsOData: false, rewriteUrls: true, forwardCookies: false, timeoutMs: null, contentType: 'application/json', methodTranslation: {}, appendHeaders: [], deletePatterns: [{ style: 'PathParameter', parameter: null }], cacheDurationSeconds: null, methods: ['GET'] } },
  ],
  [
    'proxy custom properties parsed',
    {
      given: [['Proxy/P', { ...PROXY, Methods: ['PUT', 'GET'], Retry: { Attempts: 3 }, CustomProperties: { ContentType: 'text/xml', HttpMethodTranslation: 'PUT:POST, merge:patch', HttpMethodAppendHeaders: 'PUT:X-Original-Method={ORIGINAL_METHOD}' }, DeletePatterns: [{ Style: 'QueryParameter', Parameter: 'id' }] }]],
      id: 'proxy:P',
      want: { methods: ['GET', 'PUT'], retry: { attempts: 3, delayMs: 200 }, contentType: 'text/xml', methodTranslation: { PUT: 'POST', MERGE: 'PATCH' }, appendHeaders: [{ method: 'PUT', header: 'X-Original-Method', value: '{ORIGINAL_METHOD}' }], deletePatterns: [{ style: 'QueryParameter', parameter: 'id' }] },
    },
  ],
  [
    'legacy composite with alias and resolved steps',
    {
      given: [['Proxy/Ship/Create', { ...PROXY, Methods: ['POST'] }], ['Proxy/Flow', { Type: 'Composite', Url: 'http://h', Methods: ['POST'], CompositeConfig: { Name: 'Flow', Steps: [{ Name: 's', Endpoint: 'ship/create', Method: 'POST', IsArray: true, ArrayProperty: 'items' }] } }]],
      id: 'composite:Flow',
      want: { routePath: 'Flow', routeAliases: ['composite/Flow'], methods: ['POST'], url: 'http://h', compositeName: 'Flow', description: null, steps: [{ name: 's', endpoint: 'ship/create', targetId: 'proxy:Ship/Create', method: 'POST', isArray: true, arrayProperty: 'items', sourceProperty: null, dependsOn: null, templateTransformations: {} }] },
    },
  ],
  ['static content type detected', { given: [['Static/Ref/Units', { ContentFile: './units.csv' }]], id: 'static:Ref/Units', want: { contentFile: 'endpoints/Static/Ref/Units/units.csv', contentType: 'text/csv', enableFiltering: false, methods: ['GET', 'QUERY'] } }],
  ['static serves QUERY with filtering too', { given: [['Static/C', { ContentFile: 'c.json', EnableFiltering: true }]], id: 'static:C', want: { contentType: 'application/json', enableFiltering: true, methods: ['GET', 'QUERY'] } }],
  ['static explicit content type, unknown extension', { given: [['Static/D', { ContentFile: 'd.bin' }], ['Static/E', { ContentFile: 'e.dat', ContentType: 'text/plain' }]], id: 'static:D', want: { contentType: 'application/octet-stream' } }],
  ['webhook', { given: [['Webhooks/In/Pay', { DatabaseObjectName: 'Events', AllowedColumns: ['paid'] }]], id: 'webhook:In/Pay', want: { schema: 'dbo', objectName: 'Events', webhookIds: ['paid'], methods: ['POST'] } }],
  ['files defaults', { given: [['Files/Archive/Invoices', { StorageType: 'Local' }]], id: 'files:files/Archive/Invoices', want: { routePath: 'files/Archive/Invoices', baseDirectory: 'Invoices', storageDirectory: null, allowedExtensions: [], maxFileSizeBytes: null, methods: ['GET', 'POST', 'DELETE'] } }],
  ['files settings', { given: [['Files/I', { StorageType: 'Local', BaseDirectory: '{env}/./inv/', AllowedExtensions: ['.PDF'], MaxFileSizeBytes: 10 }]], id: 'files:files/I', want: { baseDirectory: '{env}/inv', allowedExtensions: ['.pdf'], maxFileSizeBytes: 10 } }],
];

describe('normalize', () => {
  it.each(cases)('%s', (_name, { given, id, want }) => {
    const model = normalize(given.map(([where, config]) => entity(where, config))).find((m) => m.id === id);
    expect(model).toMatchObject(want);
  });

  it('sorts by id and leaves out skipped endpoints', () => {
    const models = normalize([
      entity('SQL/Zeta/T', { DatabaseObjectName: 'T', AllowedColumns: ['Id'] }),
      entity('Proxy/Alpha', PROXY),
      entity('SQL/Admin/T', { DatabaseObjectName: 'T', AllowedColumns: ['Id'] }),
      entity('SQL/files', { DatabaseObjectName: 'T', AllowedColumns: ['Id'] }),
    ]);
    expect(models.map((m) => m.id)).toEqual(['proxy:Alpha', 'sql:Zeta/T']);
  });

  it('refuses a reference that validation should have caught', () => {
    expect(() => normalize([entity('SQL/T', { ...SQL, Relationships: [{ Name: 'X', Target: 'Nope', LocalColumn: 'Id', TargetColumn: 'Id' }] })])).toThrow(
      "endpoints/SQL/T/entity.json: reference 'Nope' to a sql endpoint was not validated",
    );
  });
});
