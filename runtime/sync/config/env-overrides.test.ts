import { mkdtemp, writeFile, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEnvOverrides } from './env-overrides.js';
import { loadSyncConfig, SyncConfigError } from './load.js';

const SCHEMA = JSON.parse(readFileSync(new URL('../../../schemas/sync/service.schema.json', import.meta.url), 'utf8')) as object;

describe('Section__Key overrides of environments/sync.json', () => {
  const cases: [string, { file: unknown; env: Record<string, string>; want: unknown; variables: string[] }][] = [
    ['WebHost__Enabled turns the dashboard on', { file: {}, env: { WebHost__Enabled: 'true' }, want: { WebHost: { Enabled: true } }, variables: ['WebHost__Enabled'] }],
    ['names are case-insensitive and written as the schema spells them', { file: { webhost: { enabled: false } }, env: { WEBHOST__ENABLED: 'TRUE', webhost__adminkey: 'k' }, want: { WebHost: { Enabled: true, AdminKey: 'k' } }, variables: ['webhost__adminkey', 'WEBHOST__ENABLED'] }],
    ['numbers become numbers, other sections stay', { file: { Health: { Enabled: true } }, env: { Health__Port: '2466', DeadLetters__MaxReplayAttempts: '3' }, want: { Health: { Enabled: true, Port: 2466 }, DeadLetters: { MaxReplayAttempts: 3 } }, variables: ['DeadLetters__MaxReplayAttempts', 'Health__Port'] }],
    ["other processes' sections and top-level scalars are ignored", { file: {}, env: { Docs__BasePath: '/x', RateLimiting__Enabled: 'false', StateDirectory: 'x', PATH: '/bin' }, want: {}, variables: [] }],
    ['text that is not the schema type stays text (the schema reports it)', { file: {}, env: { WebHost__Enabled: 'yes' }, want: { WebHost: { Enabled: 'yes' } }, variables: ['WebHost__Enabled'] }],
  ];
  it.each(cases)('%s', (_name, { file, env, want, variables }) => {
    const result = applyEnvOverrides(file, SCHEMA, env);
    expect(result.document).toEqual(want);
    expect(result.variables).toEqual(variables);
  });

  it('the file document itself is not changed', () => {
    const file = { WebHost: { Enabled: false } };
    applyEnvOverrides(file, SCHEMA, { WebHost__Enabled: 'true' });
    expect(file).toEqual({ WebHost: { Enabled: false } });
  });
});

describe('loadSyncConfig with environment overrides', () => {
  async function project(service?: unknown): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), 'wharf-sync-env-'));
    await mkdir(path.join(root, 'environments'), { recursive: true });
    if (service !== undefined) await writeFile(path.join(root, 'environments', 'sync.json'), JSON.stringify(service));
    return root;
  }

  it('WebHost is off by default and read-only without AdminKey', async () => {
    const { config } = await loadSyncConfig(await project(), undefined, {});
    expect(config.service.webHost).toEqual({ enabled: false, adminKey: null });
  });

  it('WebHost__Enabled and WebHost__AdminKey override the file', async () => {
    const root = await project({ WebHost: { Enabled: false } });
    const { config } = await loadSyncConfig(root, undefined, { WebHost__Enabled: 'true', WebHost__AdminKey: 'a-long-admin-key-0123' });
    expect(config.service.webHost).toEqual({ enabled: true, adminKey: 'a-long-admin-key-0123' });
  });

  const refused: [string, Record<string, string>, string][] = [
    ['a value that is not a boolean', { WebHost__Enabled: 'yes' }, 'environments/sync.json with environment variable(s) WebHost__Enabled: /WebHost/Enabled must be boolean'],
    ['an unknown key of the section', { WebHost__Colour: 'red' }, "environments/sync.json with environment variable(s) WebHost__Colour: /WebHost must NOT have additional properties ('Colour')"],
    ['an admin key shorter than 16 characters (not echoed)', { WebHost__AdminKey: 'short' }, 'environments/sync.json with environment variable(s) WebHost__AdminKey: /WebHost/AdminKey must NOT have fewer than 16 characters'],
  ];
  it.each(refused)('refuses %s, naming the variable', async (_name, env, want) => {
    const error = await loadSyncConfig(await project({}), undefined, env).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncConfigError);
    expect((error as SyncConfigError).problems).toEqual([want]);
    expect((error as Error).message).not.toContain('short\'');
  });
});
