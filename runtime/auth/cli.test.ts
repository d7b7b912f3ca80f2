import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../../test/setup/free-port.js';
import { demoTokenLines, ensureDemoToken, runTokenCommand } from './cli.js';
import { SqliteTokenStore } from './store/sqlite-store.js';
import { TokenService } from './tokens.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-cli-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

async function run(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  return runKnowing(undefined, ...argv);
}

async function runKnowing(knownEnvironments: readonly string[] | undefined, ...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runTokenCommand(argv, { dataDir, print: (line) => lines.push(line), ...(knownEnvironments ? { knownEnvironments } : {}) });
  return { code, lines };
}

const TOKEN = /^whf_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;

describe('wharf token', () => {
  it('create refuses an environment the project does not have (exit 1, nothing stored) unless --force', async () => {
    const refused = await runKnowing(['demo', 'test'], 'create', '--username', 'ops', '--environments', 'prod');
    expect(refused).toEqual({
      code: 1,
      lines: ["--environments names unknown environment 'prod' (known: demo, test); no token created. Check the name, or add --force to create it anyway."],
    });
    expect((await run('list', '--all')).lines).toEqual(['No tokens.']);
    const forced = await runKnowing(['demo', 'test'], 'create', '--username', 'ops', '--environments', 'demo,prod', '--force');
    expect(forced.code).toBe(0);
    expect(forced.lines[0]).toBe("WARNING: --environments names unknown environment 'prod' (known: demo, test); the token cannot be used there until it exists.");
    expect(forced.lines[1]).toMatch(/^Token 1 created for ops \(scopes: \*; environments: demo,prod; /);
    expect((await runKnowing(['demo', 'test'], 'create', '--username', 'all', '--environments', 't*')).code).toBe(0);
  });

  it('revoke with Redis unreachable still revokes, and says the other instances follow by their TTL', async () => {
    expect((await run('create', '--username', 'bob')).code).toBe(0);
    const port = await freePort();
    const lines: string[] = [];
    const code = await runTokenCommand(['revoke', '1'], {
      dataDir,
      print: (line) => lines.push(line),
      redis: { url: `redis://:hunter2@127.0.0.1:${port}`, keyPrefix: 'wharf:', commandTimeoutMs: 200, connectTimeoutMs: 500 },
    });
    expect(code).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Redis is unreachable \(.*\): other instances apply this after Auth:VerificationCacheSeconds$/);
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[1]).toBe('Token 1 (bob) revoked.');
  });

  it('create prints the token once; list, rotate and revoke work on data/auth.db', async () => {
    const created = await run('token', 'create', '--username', 'alice', '--scopes', 'read', '--environments', 'dev,test', '--expires-in-days', '30', '--description', 'reports');
    expect(created.code).toBe(0);
    expect(created.lines[0]).toMatch(/^Token 1 created for alice \(scopes: read; environments: dev,test; expires: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\.$/);
    expect(created.lines[1]).toBe('Copy it now; it is not shown again:');
    const token = created.lines[2]!;
    expect(token).toMatch(TOKEN);

    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.lines).toHaveLength(1);
    expect(listed.lines[0]).toMatch(/^1\talice\tscopes=read\tenvironments=dev,test\tcreated=.+\texpires=.+\tactive$/);
    expect(listed.lines.join('\n')).not.toContain(token);

    const rotated = await run('rotate', '1');
    expect(rotated.code).toBe(0);
    expect(rotated.lines[0]).toBe('Token 1 (alice) rotated: revoked and replaced by token 2; the previous value no longer works.');
    const newToken = rotated.lines[2]!;
    expect(newToken).toMatch(TOKEN);
    expect(await run('rotate', '1')).toEqual({ code: 1, lines: ['No active token with id 1.'] });

    const store = new SqliteTokenStore(path.join(dataDir, 'auth.db'));
    const service = new TokenService(store);
    expect(await service.verify(token)).toEqual({ ok: false, reason: 'revoked' });
    expect(await service.verify(newToken)).toMatchObject({ ok: true, principal: { tokenId: 2, username: 'alice', allowedScopes: 'read', allowedEnvironments: 'dev,test' } });
    expect((await service.audit(1)).map((entry) => [entry.operation, entry.details])).toEqual([
      ['Revoked', 'Token rotated; replaced by token 2'],
      ['Created', 'Token created for alice'],
    ]);
    expect((await service.audit(2)).map((entry) => [entry.operation, entry.details])).toEqual([['Created', 'Token created by rotating token 1']]);
    await store.close();
    expect((await run('list', '--all')).lines.map((line) => line.split('\t').slice(0, 2).concat(line.split('\t').at(-1)!.split(' ')[0]!))).toEqual([
      ['1', 'alice', 'revoked'],
      ['2', 'alice', 'active'],
    ]);

    expect(await run('revoke', '2')).toEqual({ code: 0, lines: ['Token 2 (alice) revoked.'] });
    expect(await run('revoke', '2')).toEqual({ code: 1, lines: ['No active token with id 2.'] });
    expect(await run('list')).toEqual({ code: 0, lines: ['No tokens.'] });
    expect((await run('list', '--all')).lines[1]).toMatch(/\trevoked \d{4}-/);
  });

  const REFUSED: [string, string[], number, string][] = [
    ['no subcommand', [], 2, 'Usage:'],
    ['unknown subcommand', ['frobnicate'], 2, 'Usage:'],
    ['unknown option', ['create', '--user', 'x'], 2, "Unknown option '--user'"],
    ['missing username', ['create'], 2, '--username is required'],
    ['bad days', ['create', '--username', 'a', '--expires-in-days', 'ten'], 2, '--expires-in-days must be a whole number of days'],
    ['bad scope', ['create', '--username', 'a', '--scopes', 'read write'], 1, "allowed_scopes contains an invalid item 'read write'"],
    ['revoke without id', ['revoke'], 2, 'wharf token revoke needs a token id (see wharf token list)'],
    ['rotate unknown', ['rotate', '7'], 1, 'No active token with id 7.'],
  ];
  it.each(REFUSED)('%s', async (_name, argv, code, first) => {
    const result = await run(...argv);
    expect(result.code).toBe(code);
    expect(result.lines[0]).toContain(first);
  });

  it('refuses a taken username', async () => {
    await run('create', '--username', 'alice');
    expect(await run('create', '--username', 'Alice')).toEqual({ code: 1, lines: ["A token with username 'Alice' already exists"] });
  });
});

describe('ensureDemoToken', () => {
  it('creates one full-access demo token on an empty store, and never again', async () => {
    const store = new SqliteTokenStore(path.join(dataDir, 'auth.db'));
    const token = await ensureDemoToken(store);
    expect(token).toMatch(TOKEN);
    const verified = await new TokenService(store).verify(token!);
    expect(verified).toMatchObject({ ok: true, principal: { username: 'demo', allowedScopes: '*', allowedEnvironments: '*' } });
    expect(await ensureDemoToken(store)).toBeNull();
    await new TokenService(store).revoke(1);
    expect(await ensureDemoToken(store)).toBeNull(); // a revoked token still counts: no silent re-creation
    await store.close();
    expect(demoTokenLines('whf_x', 'http://127.0.0.1:8080/api/dev/Products')[3]).toBe(
      '  curl -H "Authorization: Bearer whf_x" http://127.0.0.1:8080/api/dev/Products',
    );
  });
});
