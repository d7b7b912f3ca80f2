import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entity } from '../entity-fixture.js';
import { validate } from '../index.js';

type Given = [where: string, config: Record<string, unknown>][];

/** A project root holding the Static content files the cases need. */
const root = mkdtempSync(path.join(tmpdir(), 'wharf-rules-'));
for (const where of ['Static/Ref/Units', 'Static/Ref/Logo']) mkdirSync(path.join(root, 'endpoints', where), { recursive: true });
writeFileSync(path.join(root, 'endpoints/Static/Ref/Units/units.csv'), 'a,b\n');
writeFileSync(path.join(root, 'endpoints/Static/Ref/Logo/logo.png'), '');

function run(given: Given): string[] {
  const contexts = given.map(([where, config]) => entity(where, config, root));
  return validate(contexts).map((d) => `${d.file.replace(/^endpoints\/|\/entity\.json$/g, '')} ${d.severity} ${d.code} ${d.pointer}: ${d.message}`);
}

const SQL = { DatabaseObjectName: 'T', AllowedColumns: ['Id', 'Name'] };
const TVF = { DatabaseObjectName: 'F', DatabaseObjectType: 'TableValuedFunction', AllowedColumns: ['Id'], FunctionParameters: [] };
const PROXY = { Url: 'http://127.0.0.1/x', Methods: ['GET', 'POST'] };
const composite = (steps: unknown[]) => ({ Type: 'Composite', Url: 'http://127.0.0.1', Methods: ['POST'], CompositeConfig: { Name: 'Flow', Steps: steps } });
const step = (Name: string, Endpoint: string, extra: Record<string, unknown> = {}) => ({ Name, Endpoint, Method: 'POST', ...extra });
const SEGMENT = 'must start with a letter and contain only letters, numbers, and underscores';

const cases: [string, { given: Given; want: string[] }][] = [
  ['valid project', { given: [['SQL/Sales/Orders', SQL], ['Proxy/P', PROXY], ['Webhooks/In/Hook', { DatabaseObjectName: 'W', AllowedColumns: ['a-b'] }]], want: [] }],
  // namespaces and names
  ['folder segment', { given: [['SQL/9Sales/Orders', SQL]], want: [`SQL/9Sales/Orders error namespace-segment : Namespace segment '9Sales' ${SEGMENT}`] }],
  ['explicit segment', { given: [['SQL/Orders', { ...SQL, Namespace: 'Sales/Q-1' }]], want: [`SQL/Orders error namespace-segment /Namespace: Namespace segment 'Q-1' ${SEGMENT}`] }],
  ['empty explicit segment', { given: [['SQL/Orders', { ...SQL, Namespace: 'Sales//Q' }]], want: [`SQL/Orders error namespace-segment /Namespace: Namespace segment '' ${SEGMENT}`] }],
  ['namespace length', { given: [['SQL/Orders', { ...SQL, Namespace: `A${'b'.repeat(25)}/C${'d'.repeat(23)}` }]], want: [`SQL/Orders error namespace-length /Namespace: Namespace 'A${'b'.repeat(25)}/C${'d'.repeat(23)}' is 51 characters long; the maximum is 50`] }],
  ['namespace of 50 is fine', { given: [['SQL/Orders', { ...SQL, Namespace: `A${'b'.repeat(49)}` }]], want: [] }],
  ['reserved namespace, any case', { given: [['SQL/Admin/Orders', SQL]], want: ["SQL/Admin/Orders error namespace-reserved : 'Admin' is a reserved namespace name"] }],
  ['reserved only as first segment', { given: [['SQL/Sales/Files/Orders', SQL]], want: [] }],
  ['reserved legacy name', { given: [['SQL/health', SQL]], want: ["SQL/health error endpoint-name-reserved : 'health' is a reserved name and cannot be a non-namespaced endpoint"] }],
  ['files may be named like a reserved word', { given: [['Files/docs', { StorageType: 'Local' }]], want: [] }],
  ['endpoint folder name', { given: [['SQL/Sales/Order-Lines', SQL]], want: [`SQL/Sales/Order-Lines error endpoint-name : Endpoint name 'Order-Lines' ${SEGMENT}`] }],
  ['webhook without namespace', { given: [['Webhooks/Hook', { DatabaseObjectName: 'W', AllowedColumns: ['a'] }]], want: ['Webhooks/Hook error webhook-namespace-required : Webhook endpoints require a namespace'] }],
  ['identity rules run despite schema errors', { given: [['SQL/9x/Orders', { AllowedColumns: ['Id'] }]], want: ['SQL/9x/Orders error schema-required /DatabaseObjectName: DatabaseObjectName is required for SQL endpoints', `SQL/9x/Orders error namespace-segment : Namespace segment '9x' ${SEGMENT}`] }],
  ['schema reference', { given: [['Proxy/P', { $schema: '../../../schemas/sql.schema.json', ...PROXY }]], want: ["Proxy/P warning schema-reference /$schema: $schema names 'sql.schema.json' but this is a Proxy endpoint"] }],
  // routes
  ['duplicate route across types, ignoring case', { given: [['SQL/Sales/Orders', SQL], ['Proxy/sales/orders', PROXY]], want: ["SQL/Sales/Orders error duplicate-route : Route '/api/{env}/Sales/Orders' is already used by endpoints/Proxy/sales/orders/entity.json"] }],
  ['explicit namespace collides with folders', { given: [['SQL/Sales/Orders', SQL], ['SQL/Orders', { ...SQL, Namespace: 'Sales' }]], want: ["SQL/Sales/Orders error duplicate-route : Route '/api/{env}/Sales/Orders' is already used by endpoints/SQL/Orders/entity.json"] }],
  ['files routes do not collide with others', { given: [['SQL/Archive/Invoices', SQL], ['Files/Archive/Invoices', { StorageType: 'Local' }]], want: [] }],
  ['skipped endpoints take no route', { given: [['SQL/Admin/Orders', SQL], ['Proxy/admin/orders', PROXY]], want: ["SQL/Admin/Orders error namespace-reserved : 'Admin' is a reserved namespace name", "Proxy/admin/orders error namespace-reserved : 'admin' is a reserved namespace name"] }],
  // methods
  ['composite supports POST only', { given: [['Proxy/P', PROXY], ['Proxy/Flow', { ...composite([step('a', 'P')]), Methods: ['POST', 'GET'] }]], want: ['Proxy/Flow error method-not-supported /Methods/1: Composite endpoints do not support GET'] }],
  // table-valued functions
  ['valid function', { given: [['SQL/F', { ...TVF, FunctionParameters: [{ Name: 'a', SqlType: 'int', Source: 'Path', Position: 1 }, { Name: 'b', SqlType: 'int', Source: 'Query', DefaultValue: 'DEFAULT' }] }]], want: [] }],
  ['function is read-only', { given: [['SQL/F', { ...TVF, AllowedMethods: ['GET', 'QUERY', 'POST'] }]], want: ['SQL/F error tvf-methods /AllowedMethods/1: Table-valued function endpoints are read-only: QUERY is not allowed', 'SQL/F error tvf-methods /AllowedMethods/2: Table-valued function endpoints are read-only: POST is not allowed'] }],
  ['function primary key unused', { given: [['SQL/F', { ...TVF, PrimaryKey: 'Id' }]], want: ['SQL/F warning tvf-primary-key /PrimaryKey: PrimaryKey is not used by table-valued function endpoints'] }],
  ['function needs parameters', { given: [['SQL/F', { ...TVF, FunctionParameters: undefined }]], want: ['SQL/F error function-parameters-required /FunctionParameters: FunctionParameters is required for table-valued function endpoints'] }],
  ['parameters on a table are unused', { given: [['SQL/T', { ...SQL, FunctionParameters: [] }]], want: ['SQL/T warning function-parameters-unused /FunctionParameters: FunctionParameters is ignored: the endpoint is not a table-valued function'] }],
  [
    'parameter problems',
    {
      given: [
        ['SQL/F', {
          ...TVF,
          FunctionParameters: [
            { Name: 'a', SqlType: 'int', Source: 'Path' },
            { Name: 'b', SqlType: 'int', Source: 'Path', Position: 1 },
            { Name: 'B', SqlType: 'int', Source: 'Path', Position: 1 },
            { Name: 'q', SqlType: 'int', Source: 'Query', Position: 2, ValidationPattern: '([0-9]' },
            { Name: 'r', SqlType: 'int', Source: 'Query', Required: true, DefaultValue: 'DEFAULT' },
          ],
        }],
      ],
      want: [
        "SQL/F error function-parameter-position /FunctionParameters/0: Path parameter 'a' needs a Position",
        "SQL/F error function-parameter-duplicate /FunctionParameters/2/Name: Function parameter 'B' is already defined at FunctionParameters[1]",
        "SQL/F error function-parameter-position /FunctionParameters/2/Position: Position 1 of 'B' is already used by FunctionParameters[1]",
        "SQL/F error function-parameter-position /FunctionParameters/3/Position: Query parameter 'q' must not have a Position",
        "SQL/F error function-parameter-pattern /FunctionParameters/3/ValidationPattern: ValidationPattern of 'q' is not a valid regular expression: Invalid regular expression: /([0-9]/: Unterminated group",
        "SQL/F error function-parameter-default /FunctionParameters/4/DefaultValue: Required parameter 'r' cannot use DEFAULT",
      ],
    },
  ],
  // columns and keys
  ['__proto__ as a column or an alias', { given: [['SQL/T', { ...SQL, AllowedColumns: ['Id', '__proto__', 'Name;__proto__', '__proto__;Proto'] }]], want: [1, 2, 3].map((i) => `SQL/T error allowed-column-format /AllowedColumns/${i}: AllowedColumns entry '${['', '__proto__', 'Name;__proto__', '__proto__;Proto'][i]}' names '__proto__', which a JavaScript object cannot hold as a field`) }],
  ['column entries', { given: [['SQL/T', { ...SQL, AllowedColumns: ['Id', 'Name;Alias;X', 'Bad Col', 'Other;Name', 'name'] }]], want: ["SQL/T error allowed-column-format /AllowedColumns/1: AllowedColumns entry 'Name;Alias;X' is not 'Column' or 'Column;Alias'", "SQL/T error allowed-column-format /AllowedColumns/2: AllowedColumns entry 'Bad Col' is not 'Column' or 'Column;Alias'", "SQL/T error allowed-column-duplicate /AllowedColumns/4: Column name 'name' is already exposed by AllowedColumns[3]"] }],
  ['default primary key must be allowed', { given: [['SQL/T', { ...SQL, AllowedColumns: ['Code'] }]], want: ["SQL/T error primary-key-not-allowed /AllowedColumns: PrimaryKey 'Id' is not one of the AllowedColumns"] }],
  ['primary key by alias', { given: [['SQL/T', { ...SQL, PrimaryKey: 'Key', AllowedColumns: ['KeyId;Key'] }]], want: ["SQL/T error primary-key-not-allowed /PrimaryKey: PrimaryKey 'Key' is not one of the AllowedColumns"] }],
  ['views need an allowed key too', { given: [['SQL/V', { ...SQL, DatabaseObjectType: 'View', PrimaryKey: 'X' }]], want: ["SQL/V error primary-key-not-allowed /PrimaryKey: PrimaryKey 'X' is not one of the AllowedColumns"] }],
  ['writes need a strategy', { given: [['SQL/T', { ...SQL, AllowedMethods: ['GET', 'POST', 'DELETE'] }]], want: ['SQL/T error write-strategy-missing /AllowedMethods: AllowedMethods contains POST, DELETE but the endpoint has no Procedure'] }],
  ['a procedure cannot take a column Method (@Method is the verb)', { given: [['SQL/T', { ...SQL, AllowedColumns: ['Id', 'method;Verb'], AllowedMethods: ['GET', 'POST'], Procedure: 'dbo.Save' }], ['SQL/U', { ...SQL, AllowedColumns: ['Id', 'Method'], AllowedMethods: ['GET', 'POST'], WriteMode: 'Table' }], ['SQL/V', { ...SQL, AllowedColumns: ['Id', 'Method'], Procedure: 'dbo.Save' }]], want: ['SQL/T warning procedure-method-column /AllowedColumns/1: Column Method cannot be written through the procedure: its parameter @Method carries the verb'] }],
  ['table mode needs no procedure', { given: [['SQL/T', { ...SQL, AllowedMethods: ['POST'], WriteMode: 'Table', Procedure: 'dbo.Save' }]], want: ['SQL/T warning procedure-unused /Procedure: Procedure is not used when WriteMode is Table'] }],
  // relationships
  ['valid relationship', { given: [['SQL/A/Orders', { ...SQL, AllowedColumns: ['Id', 'CustomerId'], Relationships: [{ Name: 'Customer', Target: 'a/customers', LocalColumn: 'CustomerId', TargetColumn: 'Id' }] }], ['SQL/A/Customers', SQL]], want: [] }],
  [
    'relationship problems',
    {
      given: [
        ['SQL/A/Orders', { ...SQL, AllowedColumns: ['Id', 'CustId;CustomerId'], Relationships: [
          { Name: 'Customer', Target: 'A/Customers', LocalColumn: 'CustomerId', TargetColumn: 'Code' },
          { Name: 'customer', Target: 'A/Nothing', LocalColumn: 'Id', TargetColumn: 'Id' },
          { Name: 'CustomerId', Target: 'P', LocalColumn: 'Id', TargetColumn: 'Id' },
          { Name: 'Fn', Target: 'F', LocalColumn: 'Id', TargetColumn: 'Id' },
        ] }],
        ['SQL/A/Customers', SQL],
        ['Proxy/P', PROXY],
        ['SQL/F', TVF],
      ],
      want: [
        "SQL/A/Orders error relationship-column /Relationships/0/LocalColumn: LocalColumn 'CustomerId' is not one of the AllowedColumns of this endpoint",
        "SQL/A/Orders error relationship-column /Relationships/0/TargetColumn: TargetColumn 'Code' is not one of the AllowedColumns of the target",
        "SQL/A/Orders error relationship-duplicate /Relationships/1/Name: Relationship 'customer' is already defined at Relationships[0]",
        "SQL/A/Orders error relationship-target /Relationships/1/Target: Relationship target 'A/Nothing' is not a SQL endpoint of this project",
        "SQL/A/Orders error relationship-duplicate /Relationships/2/Name: Relationship name 'CustomerId' is also an exposed column name",
        "SQL/A/Orders error relationship-target /Relationships/2/Target: Relationship target 'P' is a proxy endpoint, not a SQL endpoint",
        "SQL/A/Orders error relationship-not-supported /Relationships/3/Target: Relationship target 'F' is a table-valued function endpoint",
      ],
    },
  ],
  ['no $expand on functions', { given: [['SQL/F', { ...TVF, Relationships: [{ Name: 'X', Target: 'F', LocalColumn: 'Id', TargetColumn: 'Id' }] }]], want: ['SQL/F error relationship-not-supported /Relationships: $expand is not available on table-valued function endpoints'] }],
  // static
  ['static file present', { given: [['Static/Ref/Units', { ContentFile: 'units.csv' }]], want: [] }],
  // a lookup of the ContentType in a plain object found Object.prototype's members and threw a TypeError
  ['static ContentType named like an Object.prototype member', { given: [['Static/Ref/Units', { ContentFile: 'units.csv', ContentType: '__proto__' }], ['Static/Ref/Logo', { ContentFile: 'logo.png', ContentType: 'constructor' }]], want: [] }],
  ['static file missing', { given: [['Static/Ref/Units', { ContentFile: 'unit.csv' }]], want: ["Static/Ref/Units error content-file-missing /ContentFile: ContentFile 'unit.csv' does not exist next to entity.json"] }],
  ['static file escapes', { given: [['Static/Ref/Units', { ContentFile: '../Logo/logo.png' }], ['Static/Ref/Logo', { ContentFile: '/etc/passwd' }]], want: ["Static/Ref/Units error content-file-escape /ContentFile: ContentFile '../Logo/logo.png' must name a file inside the endpoint folder", "Static/Ref/Logo error content-file-escape /ContentFile: ContentFile '/etc/passwd' must name a file inside the endpoint folder"] }],
  ['filtering on an image', { given: [['Static/Ref/Logo', { ContentFile: 'logo.png', EnableFiltering: true }]], want: ['Static/Ref/Logo error static-filtering-unsupported /EnableFiltering: EnableFiltering has no effect on image/png content'] }],
  // composite
  ['valid composite', { given: [['Proxy/S/P', PROXY], ['Proxy/S/Flow', composite([step('a', 'S/P'), step('b', 's/p', { DependsOn: 'a', TemplateTransformations: { id: '$prev.a.id' } })])]], want: [] }],
  [
    'composite step problems',
    {
      given: [
        ['Proxy/S/P', { ...PROXY, Methods: ['GET'] }],
        ['Proxy/S/Other', composite([step('x', 'S/P')])],
        ['SQL/S/T', SQL],
        ['Proxy/S/Flow', composite([
          step('a', 'S/Missing', { DependsOn: 'b' }),
          step('b', 'S/T', { TemplateTransformations: { v: '$prev.c.id' } }),
          step('a', 'S/Other'),
        ])],
      ],
      want: [
        "Proxy/S/Other error composite-step-method /CompositeConfig/Steps/0/Method: Step 'x' uses POST, which S/P does not allow",
        "Proxy/S/Flow error composite-step-target /CompositeConfig/Steps/0/Endpoint: Step 'a' calls 'S/Missing', which is not a Proxy endpoint of this project",
        "Proxy/S/Flow error composite-step-depends-on /CompositeConfig/Steps/0/DependsOn: Step 'a' depends on 'b', which is not an earlier step",
        "Proxy/S/Flow error composite-step-target /CompositeConfig/Steps/1/Endpoint: Step 'b' calls 'S/T', a sql endpoint; steps call Proxy endpoints only",
        "Proxy/S/Flow error composite-template-prev /CompositeConfig/Steps/1/TemplateTransformations/v: Template '$prev.c.id' reads step 'c', which is not an earlier step",
        "Proxy/S/Flow error composite-step-duplicate /CompositeConfig/Steps/2/Name: Step name 'a' is used by an earlier step",
        "Proxy/S/Flow error composite-step-target /CompositeConfig/Steps/2/Endpoint: Step 'a' calls 'S/Other', a composite endpoint; steps call Proxy endpoints only",
      ],
    },
  ],
  // files
  ['base directory with {env}', { given: [['Files/D/F', { StorageType: 'Local', BaseDirectory: '{env}/a/../b' }]], want: [] }],
  // a NUL passed the build and made every request of the endpoint a 500
  ['NUL in a Files path', { given: [['Files/D/F', { StorageType: 'Local', BaseDirectory: 'a\u0000b' }], ['Files/D/G', { StorageType: 'Local', StorageDirectory: '/srv/\u0000' }]], want: ['Files/D/F error base-directory-escape /BaseDirectory: BaseDirectory contains a NUL character (\\u0000), which no file system path can hold', 'Files/D/G error base-directory-escape /StorageDirectory: StorageDirectory contains a NUL character (\\u0000), which no file system path can hold'] }],
  ['base directory escapes', { given: [['Files/D/F', { StorageType: 'Local', BaseDirectory: 'a/../../b' }], ['Files/D/G', { StorageType: 'Local', BaseDirectory: '/srv/files' }], ['Files/D/H', { StorageType: 'Local', BaseDirectory: 'C:\\files' }]], want: ["Files/D/F error base-directory-escape /BaseDirectory: BaseDirectory 'a/../../b' must be a relative folder inside the storage root", "Files/D/G error base-directory-escape /BaseDirectory: BaseDirectory '/srv/files' must be a relative folder inside the storage root", "Files/D/H error base-directory-escape /BaseDirectory: BaseDirectory 'C:\\files' must be a relative folder inside the storage root"] }],
  // proxy
  ['proxy urls', { given: [['Proxy/P', { ...PROXY, Url: 'inventory/items', FallbackUrls: ['https://ok.example/x', 'ftp://host/x'] }]], want: ["Proxy/P error url-invalid /Url: Url 'inventory/items' is not an absolute http or https URL", "Proxy/P error url-invalid /FallbackUrls/1: FallbackUrls entry 'ftp://host/x' is not an absolute http or https URL"] }],
  ['proxy url in a blocked range', { given: [['Proxy/P', { ...PROXY, Url: 'http://169.254.169.254/latest', FallbackUrls: ['http://[fe80::1]/x', 'http://10.0.0.1/x', 'http://metadata.internal/x'] }]], want: ['Proxy/P warning url-blocked /Url: http://169.254.169.254/latest is in a range the network access policy blocks', 'Proxy/P warning url-blocked /FallbackUrls/0: http://[fe80::1]/x is in a range the network access policy blocks'] }],
  ['composite url', { given: [['Proxy/P', PROXY], ['Proxy/Flow', { ...composite([step('a', 'P')]), Url: 'localhost:9000' }]], want: ["Proxy/Flow error url-invalid /Url: Url 'localhost:9000' is not an absolute http or https URL"] }],
  ['custom properties ok', { given: [['Proxy/P', { ...PROXY, CustomProperties: { HttpMethodTranslation: 'PUT:POST, merge:patch', HttpMethodAppendHeaders: 'PUT:X-Original-Method={ORIGINAL_METHOD},DELETE:X-Reason=cleanup' } }]], want: [] }],
  [
    'custom properties malformed',
    {
      given: [['Proxy/P', { ...PROXY, CustomProperties: { HttpMethodTranslation: 'PUT>POST,FETCH:GET,GET:TRACE,PUT:PATCH,DELETE:POST', HttpMethodAppendHeaders: 'PUT:X Bad=1,POST:X-Ok=,X-NoMethod=1' } }]],
      want: [
        "Proxy/P error method-translation-invalid /CustomProperties/HttpMethodTranslation: HttpMethodTranslation: 'PUT>POST' is not a FROM:TO pair",
        "Proxy/P error method-translation-invalid /CustomProperties/HttpMethodTranslation: HttpMethodTranslation: 'FETCH' is not one of GET, POST, PUT, PATCH, DELETE, MERGE, QUERY",
        "Proxy/P error method-translation-invalid /CustomProperties/HttpMethodTranslation: HttpMethodTranslation: 'TRACE' is not one of GET, POST, PUT, DELETE, PATCH, MERGE, HEAD, OPTIONS, QUERY",
        "Proxy/P error append-headers-invalid /CustomProperties/HttpMethodAppendHeaders: HttpMethodAppendHeaders: 'X Bad' is not a valid header name",
        "Proxy/P error append-headers-invalid /CustomProperties/HttpMethodAppendHeaders: HttpMethodAppendHeaders: the value for header 'X-Ok' is empty or contains a line break",
        "Proxy/P error append-headers-invalid /CustomProperties/HttpMethodAppendHeaders: HttpMethodAppendHeaders: 'X-NoMethod=1' is not a METHOD:Header=Value item",
      ],
    },
  ],
  ['translated twice', { given: [['Proxy/P', { ...PROXY, CustomProperties: { HttpMethodTranslation: 'PUT:POST,put:PATCH' } }]], want: ['Proxy/P error method-translation-invalid /CustomProperties/HttpMethodTranslation: HttpMethodTranslation: PUT is translated more than once'] }],
  ['query delete pattern needs a parameter', { given: [['Proxy/P', { ...PROXY, DeletePatterns: [{ Style: 'QueryParameter' }] }]], want: ['Proxy/P error delete-pattern-parameter /DeletePatterns/0: A QueryParameter delete pattern needs a Parameter'] }],
];

describe('semantic rules', () => {
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(run(given)).toEqual(want);
  });
});
