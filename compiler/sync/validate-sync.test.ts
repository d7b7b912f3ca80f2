import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostics.js';
import { compile } from '../pipeline.js';
import { validateSyncFile } from './validate-sync.js';

const good = {
  Provider: 'postgres',
  ConnectionStrings: { main: 'postgres://h/db' },
  TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges' }],
  Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{object}/{version}.json' }],
};
const file = 'environments/prod/sync.json';
const lines = (doc: unknown) => validateSyncFile(file, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2), 'environment').map(formatDiagnostic);

describe('sync.json validation', () => {
  const cases: [string, unknown, string[]][] = [
    ['a valid file', good, []],
    ['syntax error', '{"Provider": "postgres",}', ['environments/prod/sync.json:1:25: error json-syntax: Invalid JSON: PropertyNameExpected at line 1, column 25']],
    ['missing destinations', { ...good, Destinations: undefined }, ['environments/prod/sync.json:1:1: error schema-required at /Destinations: Destinations is required']],
    [
      'unknown provider and unknown property',
      { ...good, Provider: 'oracle', Polling: 3 },
      [
        'environments/prod/sync.json:2:15: error schema-enum at /Provider: Provider value "oracle" is not one of postgres, mssql, embedded',
        'environments/prod/sync.json:19:3: warning unknown-property at /Polling: \'Polling\' is not a known property of sync.json',
      ],
    ],
    [
      'destination fields per type',
      { ...good, Destinations: [{ Type: 'RabbitMQ', Key: 'q', Url: 'http://x' }] },
      [
        'environments/prod/sync.json:13:5: error schema-required at /Destinations/0/Exchange: Exchange is required in Destinations[0]',
        'environments/prod/sync.json:16:14: error schema-format at /Destinations/0/Url: Destinations[0].Url does not match ^amqps?:// (value not shown: it may hold a credential)',
      ],
    ],
    [
      'a URL with a password under the wrong scheme: named, the password never printed',
      { ...good, Destinations: [{ Type: 'RabbitMQ', Key: 'q', Url: 'rabbitmq://sync:pa55-secret@mq', Exchange: 'x' }, { Type: 'Http', Key: 'h', Url: 'ftp://u:pa55-secret@h', Auth: { Type: 'OAuth2ClientCredentials', TokenUrl: 'tcp://pa55-secret', ClientId: 'a', ClientSecret: 'b' } }] },
      [
        'environments/prod/sync.json:16:14: error schema-format at /Destinations/0/Url: Destinations[0].Url does not match ^amqps?:// (value not shown: it may hold a credential)',
        'environments/prod/sync.json:22:14: error schema-format at /Destinations/1/Url: Destinations[1].Url does not match ^https?:// (value not shown: it may hold a credential)',
        'environments/prod/sync.json:25:21: error schema-format at /Destinations/1/Auth/TokenUrl: Destinations[1].Auth.TokenUrl does not match ^https?:// (value not shown: it may hold a credential)',
      ],
    ],
    [
      'procedure name that is not an identifier',
      { ...good, TrackedObjects: [{ Name: 'P', StoredProcedureName: 'x; drop table y' }] },
      ['environments/prod/sync.json:9:30: error schema-format at /TrackedObjects/0/StoredProcedureName: TrackedObjects[0].StoredProcedureName value "x; drop table y" does not match ^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*){0,2}$'],
    ],
    [
      'semantic rules',
      { ...good, TrackedObjects: [{ Name: 'P', StoredProcedureName: 'a.b', ConnectionKey: 'other' }, { Name: 'p', StoredProcedureName: 'a.c' }], Destinations: [good.Destinations[0], good.Destinations[0]] },
      [
        "environments/prod/sync.json:10:24: error sync-connection-key at /TrackedObjects/0/ConnectionKey: ConnectionKey 'other' is not a key of ConnectionStrings (main)",
        "environments/prod/sync.json:13:15: error sync-duplicate-name at /TrackedObjects/1/Name: Tracked object 'p' is already defined at TrackedObjects[0] (names are case-insensitive)",
        "environments/prod/sync.json:25:14: error sync-duplicate-key at /Destinations/1/Key: Destination key 'f' is already used by Destinations[0]",
      ],
    ],
    [
      'connection strings the SQL drivers cannot read (as wharf sync refuses them), named by key, never by value',
      { ...good, ConnectionStrings: { main: 'Host=db;Port=five;Password=s3cret' }, Destinations: [{ Type: 'Database', Key: 'd', Provider: 'mssql', ConnectionString: 'Server=db;Pasword=s3cret', Table: 'sync.Changes' }] },
      [
        'environments/prod/sync.json:4:13: error sync-connection-string at /ConnectionStrings/main: Port must be a whole number',
        "environments/prod/sync.json:17:27: error sync-connection-string at /Destinations/0/ConnectionString: unknown key 'Pasword' (SQL Server keys: Server, Database, User Id, Password, Encrypt, TrustServerCertificate, Connect Timeout, Application Name, Max Pool Size, ...)",
      ],
    ],
    [
      'destination values the schema lets through that wharf sync could never deliver with, or would overwrite batches with',
      {
        ...good,
        TrackedObjects: [{ Name: 'A', StoredProcedureName: 'a.a' }, { Name: 'B', StoredProcedureName: 'a.b' }],
        Destinations: [
          { Type: 'File', Key: 'f1', Path: '../outside/{object}/{version}.json' },
          { Type: 'File', Key: 'f2', Path: '/var/{object}/{version}.json' },
          { Type: 'File', Key: 'f3', Path: 'out/{object}.json' },
          { Type: 'File', Key: 'f4', Path: 'out/{version}.json' },
          { Type: 'File', Key: 'f5', Path: 'out/{Object}/{version}.json' },
          { Type: 'Http', Key: 'h1', Url: 'http://', CustomHeaders: { 'X Tenant': 'a', 'X-B': 'b\r\nInjected: 1', 'Content-Length': '3' } },
          { Type: 'Http', Key: 'h2', Url: 'https://ok.example/in', Auth: { Type: 'Bearer', Token: 'se\ncret' } },
          { Type: 'Http', Key: 'h3', Url: 'https://ok.example/in', Auth: { Type: 'ApiKey', HeaderName: 'Api Key', ApiKey: 'k' } },
          { Type: 'RabbitMQ', Key: 'r1', Url: 'amqp://', Exchange: 'amq.changes', Queue: 'amq.q', RoutingKey: '{env}.{object}' },
          { Type: 'RabbitMQ', Key: 'r2', Url: 'amqp://broker', Exchange: 'amq.topic', ExchangeType: 'topic', Queue: 'q'.repeat(256) },
        ],
      },
      [
        'environments/prod/sync.json:20:15: error sync-destination at /Destinations/0/Path: Path must be relative to the project folder and stay inside it',
        'environments/prod/sync.json:25:15: error sync-destination at /Destinations/1/Path: Path must be relative to the project folder and stay inside it',
        'environments/prod/sync.json:30:15: error sync-destination at /Destinations/2/Path: Path must contain {version}: without it every batch overwrites the file of the one before',
        'environments/prod/sync.json:35:15: error sync-destination at /Destinations/3/Path: Path must contain {object} when the environment tracks more than one object: their batches would overwrite each other',
        'environments/prod/sync.json:40:15: error sync-destination at /Destinations/4/Path: unknown placeholder {Object} (known: {environment}, {object}, {version}, {fromVersion})',
        'environments/prod/sync.json:40:15: error sync-destination at /Destinations/4/Path: Path must contain {object} when the environment tracks more than one object: their batches would overwrite each other',
        'environments/prod/sync.json:45:14: error sync-destination at /Destinations/5/Url: Url is not a valid URL',
        "environments/prod/sync.json:47:21: error sync-destination at /Destinations/5/CustomHeaders/X Tenant: header name 'X Tenant' is not a valid HTTP header name",
        "environments/prod/sync.json:48:16: error sync-destination at /Destinations/5/CustomHeaders/X-B: the value of header 'X-B' holds a line break or control character",
        "environments/prod/sync.json:49:27: error sync-destination at /Destinations/5/CustomHeaders/Content-Length: header 'Content-Length' is set by the destination itself and cannot be configured",
        'environments/prod/sync.json:58:18: error sync-destination at /Destinations/6/Auth/Token: Auth Token holds a line break or control character',
        "environments/prod/sync.json:67:23: error sync-destination at /Destinations/7/Auth/HeaderName: header name 'Api Key' is not a valid HTTP header name",
        'environments/prod/sync.json:74:14: error sync-destination at /Destinations/8/Url: Url has no host',
        "environments/prod/sync.json:75:19: error sync-destination at /Destinations/8/Exchange: Exchange 'amq.changes': the amq. prefix is reserved by the broker (only amq.direct, amq.fanout, amq.topic with their own ExchangeType)",
        "environments/prod/sync.json:76:16: error sync-destination at /Destinations/8/Queue: Queue 'amq.q': the amq. prefix is reserved by the broker",
        'environments/prod/sync.json:77:21: error sync-destination at /Destinations/8/RoutingKey: unknown placeholder {env} (known: {environment}, {object}, {operation})',
        'environments/prod/sync.json:85:16: error sync-destination at /Destinations/9/Queue: Queue is longer than 255 bytes (AMQP limit)',
      ],
    ],
    [
      'a key written twice (JSON keeps the last one)',
      JSON.stringify(good, null, 2).replace('"Key": "f",', '"Key": "f",\n      "Key": "g",'),
      ['environments/prod/sync.json:16:7: error duplicate-key at /Destinations/0/Key: Key "Key" is written twice in the same object (first at line 15); JSON keeps only the last one\n    hint: Remove one of the two; merge their settings into a single key.'],
    ],
  ];
  it.each(cases)('%s', (_name, doc, want) => {
    expect(lines(doc)).toEqual(want);
  });

  it('wharf build fails on a bad sync.json and names file:line', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-build-'));
    await mkdir(path.join(root, 'environments', 'prod'), { recursive: true });
    await mkdir(path.join(root, 'endpoints'), { recursive: true });
    await writeFile(path.join(root, 'environments', 'sync.json'), JSON.stringify({ Health: { Port: 'x' } }, null, 2));
    const result = await compile({ root, docs: false });
    expect(result.outputs).toBeNull();
    expect(result.diagnostics.map(formatDiagnostic)).toContain('environments/sync.json:3:13: error schema-type at /Health/Port: Health.Port must be integer');
  });

  it('two environments writing the same files (a File Path without {environment}, an object in both): wharf check fails at the second', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-shared-'));
    await mkdir(path.join(root, 'endpoints'), { recursive: true });
    const env = (objects: string[], filePath: string) => ({ ...good, TrackedObjects: objects.map((Name) => ({ Name, StoredProcedureName: 'sync.Changes' })), Destinations: [{ Type: 'File', Key: 'f', Path: filePath }] });
    const write = async (name: string, doc: unknown) => {
      await mkdir(path.join(root, 'environments', name), { recursive: true });
      await writeFile(path.join(root, 'environments', name, 'sync.json'), JSON.stringify(doc, null, 2));
    };
    await write('prod', env(['Products', 'Orders'], 'out/{object}/{version}.json'));
    await write('staging', env(['Products'], 'out/{object}/{version}.json'));
    await write('test', env(['Customers'], 'out/{object}/{version}.json')); // no object in common: its files are its own
    await write('uat', env(['Products'], 'out/{environment}/{object}/{version}.json'));
    const result = await compile({ root, docs: false });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'environments/staging/sync.json:16:15: error sync-destination at /Destinations/0/Path: Path writes the same files as environments/prod/sync.json Destinations[0]: put {environment} in it',
    ]);
  });
});

describe('environments/sync.json (service settings): WebHost', () => {
  const service = (doc: unknown) => validateSyncFile('environments/sync.json', JSON.stringify(doc, null, 2), 'service').map(formatDiagnostic);
  const cases: [string, unknown, string[]][] = [
    ['the dashboard on, read-only', { WebHost: { Enabled: true } }, []],
    ['the dashboard with an admin key', { WebHost: { Enabled: true, AdminKey: 'a-long-admin-key-0123' } }, []],
    ['an admin key shorter than 16 characters', { WebHost: { AdminKey: 'short' } }, ['environments/sync.json:3:17: error schema-range at /WebHost/AdminKey: WebHost.AdminKey must NOT have fewer than 16 characters']],
    ['an unknown WebHost key', { WebHost: { Port: 80 } }, ["environments/sync.json:3:5: error unknown-property at /WebHost/Port: 'Port' is not a known property of WebHost"]],
  ];
  it.each(cases)('%s', (_name, doc, want) => {
    expect(service(doc)).toEqual(want);
  });
});
