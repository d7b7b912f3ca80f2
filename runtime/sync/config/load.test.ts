/**
 * `Section__Key` variables over environments/sync.json, read through the settings registry
 * (normalizeService): the one override mechanism of `wharf sync` (it replaced a separate
 * env-overrides.ts that rewrote the document; these are that file's cases, on the registry).
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSyncConfig, serviceSettingsOf, SyncConfigError } from './load.js';

async function project(service?: unknown): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-env-'));
  await mkdir(path.join(root, 'environments'), { recursive: true });
  if (service !== undefined) await writeFile(path.join(root, 'environments', 'sync.json'), JSON.stringify(service));
  return root;
}

const KEY = 'a-long-admin-key-0123';

describe('loadSyncConfig with Section__Key overrides', () => {
  it('WebHost is off by default and read-only without AdminKey', async () => {
    const { config } = await loadSyncConfig(await project(), undefined, {});
    expect(config.service.webHost).toEqual({ enabled: false, adminKey: null });
  });

  it('WebHost__Enabled and WebHost__AdminKey override the file', async () => {
    const root = await project({ WebHost: { Enabled: false } });
    const { config } = await loadSyncConfig(root, undefined, { WebHost__Enabled: 'true', WebHost__AdminKey: KEY });
    expect(config.service.webHost).toEqual({ enabled: true, adminKey: KEY });
  });

  it('variable names are case-insensitive, values follow the one grammar (TRUE is true)', async () => {
    const root = await project({ WebHost: { Enabled: false } });
    const { config } = await loadSyncConfig(root, undefined, { WEBHOST__ENABLED: 'TRUE', webhost__adminkey: KEY });
    expect(config.service.webHost).toEqual({ enabled: true, adminKey: KEY });
  });

  it('numbers become numbers; keys of the file the variables do not name stay', async () => {
    const root = await project({ Health: { Enabled: false, Host: '127.0.0.2' } });
    const { config } = await loadSyncConfig(root, undefined, { Health__Port: '2466', DeadLetters__MaxReplayAttempts: '3' });
    expect(config.service.health).toMatchObject({ enabled: false, host: '127.0.0.2', port: 2466 });
    expect(config.service.deadLetters.maxReplayAttempts).toBe(3);
  });

  it("other processes' sections and top-level names are left alone", async () => {
    const { config } = await loadSyncConfig(await project({}), undefined, {
      Docs__BasePath: '/x',
      RateLimiting__Enabled: 'false',
      StateDirectory: 'elsewhere',
      PATH: '/bin',
    });
    expect(config.service.stateDirectory.endsWith(path.join('data', 'sync'))).toBe(true);
    expect(config.service.webHost.enabled).toBe(false);
  });

  const refused: [string, Record<string, string>, string][] = [
    ['a value that is not a boolean', { WebHost__Enabled: 'yes' }, "Setting 'WebHost:Enabled' (from environment variable WebHost__Enabled) must be true or false"],
    ['an unknown key of the section', { WebHost__Colour: 'red' }, "Setting 'WebHost:Colour' (from environment variable WebHost__Colour) is not a known setting."],
    ['an admin key shorter than 16 characters', { WebHost__AdminKey: 'short' }, "Setting 'WebHost:AdminKey' (from environment variable WebHost__AdminKey) must be at least 16 characters"],
    ['an admin key longer than 512 characters', { WebHost__AdminKey: 'k'.repeat(513) }, "Setting 'WebHost:AdminKey' (from environment variable WebHost__AdminKey) must be at most 512 characters"],
  ];
  it.each(refused)('refuses %s, naming the variable', async (_name, env, want) => {
    const error = await loadSyncConfig(await project({}), undefined, env).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    const problems = (error as SyncConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]?.startsWith(want)).toBe(true);
  });

  it('a refused admin key is not echoed', async () => {
    const key = 'secret-but-short';
    const error = await loadSyncConfig(await project({}), undefined, { WebHost__AdminKey: key.slice(0, 12) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as Error).message).toContain('WebHost__AdminKey');
    expect((error as Error).message).not.toContain(key.slice(0, 12));
  });
});

describe('serviceSettingsOf (the demo): the same overrides over a built-in document', () => {
  it('WebHost__Enabled turns the dashboard on; the document keeps its values', async () => {
    const settings = await serviceSettingsOf({ StateDirectory: 'data/sync-demo', Health: { FirstProbeDelaySeconds: 2 } }, '/p', { WebHost__Enabled: 'true' });
    expect(settings.webHost).toEqual({ enabled: true, adminKey: null });
    expect(settings.health.firstProbeDelaySeconds).toBe(2);
    expect(settings.stateDirectory).toBe(path.resolve('/p', 'data/sync-demo'));
  });

  it('a bad variable is a SyncConfigError naming it', async () => {
    const error = await serviceSettingsOf({}, '/p', { Health__Port: 'abc' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual(["Setting 'Health:Port' (from environment variable Health__Port) must be a whole number"]);
  });
});

/** A project with environments/prod/sync.json: one RabbitMQ destination (plus `destination` fields), plus `extra` fields. */
async function withEnvironment(extra: Record<string, unknown>, destination: Record<string, unknown> = {}): Promise<string> {
  const root = await project();
  await mkdir(path.join(root, 'environments', 'prod'), { recursive: true });
  const environment = {
    Provider: 'postgres',
    ConnectionStrings: { main: 'postgres://u:p@127.0.0.1:5432/shop' },
    TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges' }],
    Destinations: [{ Type: 'RabbitMQ', Key: 'mq', Url: 'amqp://127.0.0.1', Exchange: 'x', ...destination }],
    ...extra,
  };
  await writeFile(path.join(root, 'environments', 'prod', 'sync.json'), JSON.stringify(environment));
  return root;
}

describe('MaxBatchesInFlight (environments/<env>/sync.json)', () => {

  it('defaults to 4 and takes a value in 1..64', async () => {
    expect((await loadSyncConfig(await withEnvironment({}), undefined, {})).config.environments[0]?.batching.maxInFlight).toBe(4);
    expect((await loadSyncConfig(await withEnvironment({ MaxBatchesInFlight: 1 }), undefined, {})).config.environments[0]?.batching.maxInFlight).toBe(1);
    expect((await loadSyncConfig(await withEnvironment({ MaxBatchesInFlight: 64 }), undefined, {})).config.environments[0]?.batching.maxInFlight).toBe(64);
  });

  it.each([0, 65, 2.5])('refuses %s', async (value) => {
    const error = await loadSyncConfig(await withEnvironment({ MaxBatchesInFlight: value }), undefined, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual([expect.stringContaining('/MaxBatchesInFlight must be')]);
  });
});

describe('RabbitMQ MessageHeaders (environments/<env>/sync.json)', () => {
  const headersOf = async (extra: Record<string, unknown>) => {
    const destination = (await loadSyncConfig(await withEnvironment({}, extra), undefined, {})).config.environments[0]?.destinations[0];
    return destination?.type === 'RabbitMQ' ? destination.messageHeaders : 'not RabbitMQ';
  };

  it('defaults to true; false leaves the headers out', async () => {
    expect(await headersOf({})).toBe(true);
    expect(await headersOf({ MessageHeaders: true })).toBe(true);
    expect(await headersOf({ MessageHeaders: false })).toBe(false);
  });

  it('refuses a value that is not a boolean', async () => {
    const error = await loadSyncConfig(await withEnvironment({}, { MessageHeaders: 'no' }), undefined, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual([expect.stringContaining('MessageHeaders')]);
  });
});

describe('destination values wharf sync could never deliver with (the same rules as wharf check)', () => {
  it('refuses them on start and reload, naming the field, never the secret', async () => {
    const error = await loadSyncConfig(await withEnvironment({}, { Url: 'amqp://', Exchange: 'amq.changes' }), undefined, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual([
      'environments/prod/sync.json: /Destinations/0/Url Url has no host',
      "environments/prod/sync.json: /Destinations/0/Exchange Exchange 'amq.changes': the amq. prefix is reserved by the broker (only amq.direct, amq.fanout, amq.topic with their own ExchangeType)",
    ]);
    const leak = await loadSyncConfig(await withEnvironment({ Destinations: [{ Type: 'Http', Key: 'h', Url: 'https://h.example/in', Auth: { Type: 'Bearer', Token: 'top-secret\r\nX: 1' } }] }), undefined, {}).catch((e: unknown) => e);
    expect((leak as SyncConfigError).problems).toEqual(['environments/prod/sync.json: /Destinations/0/Auth/Token Auth Token holds a line break or control character']);
  });
});

describe('File destinations of two environments writing the same files', () => {
  it('are refused by wharf sync as by wharf check, at the later environment', async () => {
    const root = await withEnvironment({ Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{object}/{version}.json' }] });
    await mkdir(path.join(root, 'environments', 'staging'), { recursive: true });
    const staging = { Provider: 'postgres', ConnectionStrings: { main: 'postgres://u:p@127.0.0.1:5432/shop' }, TrackedObjects: [{ Name: 'Products', StoredProcedureName: 'sync.ProductChanges' }], Destinations: [{ Type: 'File', Key: 'f', Path: 'out/{object}/{version}.json' }] };
    await writeFile(path.join(root, 'environments', 'staging', 'sync.json'), JSON.stringify(staging));
    const error = await loadSyncConfig(root, undefined, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual(['environments/staging/sync.json: /Destinations/0/Path Path writes the same files as environments/prod/sync.json Destinations[0]: put {environment} in it']);
  });
});
