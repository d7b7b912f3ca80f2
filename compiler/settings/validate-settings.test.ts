import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../diagnostics.js';
import { compile } from '../pipeline.js';
import { validateSyncFile } from '../sync/validate-sync.js';
import { validateEnvironmentFile, validateSettingsFile } from './validate-settings.js';

const FILE = 'environments/settings.json';
const lines = (doc: unknown) => validateSettingsFile(FILE, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2)).map(formatDiagnostic);

describe('environments/settings.json validation', () => {
  const cases: [string, unknown, string[]][] = [
    ['a valid file', { $schema: '../schemas/settings.schema.json', Environment: { ServerName: 'x' }, 'RateLimiting:IpLimit': 5, Docs: { Themes: { PrimaryColor: '#111' } } }, []],
    ['syntax error', '{"Server": {},}', ['environments/settings.json:1:15: error json-syntax: Invalid JSON: PropertyNameExpected at line 1, column 15']],
    [
      'a misspelt section',
      { Environment: { ServerName: 'x' }, RateLimting: { Enabled: false } },
      ["environments/settings.json:5:3: error settings-unknown-key at /RateLimting: 'RateLimting' is not a known setting of environments/settings.json\n    hint: did you mean 'RateLimiting'?"],
    ],
    [
      'a misspelt key',
      { Metrics: { Enable: true } },
      ["environments/settings.json:3:5: error settings-unknown-key at /Metrics/Enable: 'Enable' is not a known setting of Metrics\n    hint: did you mean 'Enabled'?"],
    ],
    [
      'values by the one grammar and the registry ranges',
      { Metrics: { Enabled: 'yes' }, HealthChecks: { CacheTimeSeconds: 4000 }, Logging: { MinLevel: 'loud', Sinks: [1] } },
      [
        'environments/settings.json:3:16: error settings-value at /Metrics/Enabled: Metrics:Enabled must be true or false',
        'environments/settings.json:6:25: error settings-value at /HealthChecks/CacheTimeSeconds: HealthChecks:CacheTimeSeconds must be 3600 or less',
        'environments/settings.json:9:17: error settings-value at /Logging/MinLevel: Logging:MinLevel must be one of trace, debug, info, warn, error, fatal, silent',
        'environments/settings.json:11:7: error settings-value at /Logging/Sinks/0: Logging:Sinks must be a list of strings',
      ],
    ],
    [
      'a Git value that git would read as an option',
      { Git: { Url: '--upload-pack=touch x', Branch: '-b' } },
      [
        "environments/settings.json:3:12: error settings-value at /Git/Url: Git:Url must not start with '-' (git would read it as an option)",
        "environments/settings.json:4:15: error settings-value at /Git/Branch: Git:Branch must not start with '-' (git would read it as an option)",
      ],
    ],
  ];
  it.each(cases)('%s', (_name, doc, want) => {
    expect(lines(doc)).toEqual(want);
  });

  it('a key written twice (JSON keeps the last one): an error at the second, the other checks still run', () => {
    const text = '{\n  "Metrics": { "Enabled": true },\n  "RateLimiting": { "Enabled": false, "Enabled": true },\n  "Metrics": { "Enabled": false },\n  "HealthChecks": { "CacheTimeSeconds": 4000 }\n}\n';
    expect(lines(text)).toEqual([
      'environments/settings.json:3:39: error duplicate-key at /RateLimiting/Enabled: Key "Enabled" is written twice in the same object (first at line 3); JSON keeps only the last one\n    hint: Remove one of the two; merge their settings into a single key.',
      'environments/settings.json:4:3: error duplicate-key at /Metrics: Key "Metrics" is written twice in the same object (first at line 2); JSON keeps only the last one\n    hint: Remove one of the two; merge their settings into a single key.',
      'environments/settings.json:5:41: error settings-value at /HealthChecks/CacheTimeSeconds: HealthChecks:CacheTimeSeconds must be 3600 or less',
    ]);
  });

  it('an environment folder: a key written twice', () => {
    const text = '{\n  "Provider": "postgres",\n  "ConnectionString": "postgres://h/db",\n  "Provider": "postgres"\n}\n';
    expect(validateEnvironmentFile('environments/prod/settings.json', text).map(formatDiagnostic)).toEqual([
      'environments/prod/settings.json:4:3: error duplicate-key at /Provider: Key "Provider" is written twice in the same object (first at line 2); JSON keeps only the last one\n    hint: Remove one of the two; merge their settings into a single key.',
    ]);
  });

  it('an environment folder: a byte order mark is fine (the gateway reads it too), a bad header value is named by its pointer', () => {
    expect(validateEnvironmentFile('environments/prod/settings.json', `\ufeff${JSON.stringify({ Provider: 'postgres', ConnectionString: 'Host=x' })}`)).toEqual([]);
    const text = JSON.stringify({ Headers: { 'X/A': 1 } }, null, 2);
    expect(validateEnvironmentFile('environments/prod/settings.json', text).map(formatDiagnostic)).toEqual([
      'environments/prod/settings.json:3:12: error settings-value at /Headers/X~1A: Headers.X/A must be a string',
    ]);
  });

  it('an environment folder: unknown fields and bad values', () => {
    const text = JSON.stringify({ Provdier: 'postgres', Provider: 'oracle' }, null, 2);
    expect(validateEnvironmentFile('environments/prod/settings.json', text).map(formatDiagnostic)).toEqual([
      "environments/prod/settings.json:2:3: error settings-unknown-key at /Provdier: 'Provdier' is not a known field of an environment's settings.json\n    hint: did you mean 'Provider'?",
      'environments/prod/settings.json:3:15: error settings-value at /Provider: Provider must be one of mssql, postgres, embedded',
    ]);
  });

  it('an unknown key of environments/sync.json is an error with a suggestion', () => {
    const text = JSON.stringify({ Health: { Prot: 1 } }, null, 2);
    expect(validateSyncFile('environments/sync.json', text, 'service').map(formatDiagnostic)).toEqual([
      "environments/sync.json:3:5: error unknown-property at /Health/Prot: 'Prot' is not a known property of Health\n    hint: did you mean 'Port'?",
    ]);
  });

  it('wharf build fails on a settings typo, naming file:line and the suggestion', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'wharf-settings-build-'));
    try {
      await mkdir(path.join(root, 'environments'), { recursive: true });
      await mkdir(path.join(root, 'endpoints'), { recursive: true });
      await writeFile(path.join(root, 'environments', 'settings.json'), JSON.stringify({ RateLimting: { Enabled: false } }, null, 2));
      const result = await compile({ root, docs: false });
      expect(result.outputs).toBeNull();
      expect(result.diagnostics.map(formatDiagnostic)).toContain(
        "environments/settings.json:2:3: error settings-unknown-key at /RateLimting: 'RateLimting' is not a known setting of environments/settings.json\n    hint: did you mean 'RateLimiting'?",
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
