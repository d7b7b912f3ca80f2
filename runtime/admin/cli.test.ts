/** `wharf accounts ...` on a real SQLite store: every command, the last-administrator rule, exit codes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAccountCommand } from './cli.js';
import { AccountService } from './accounts.js';
import { openAccountStore } from './open-account-store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wharf-accounts-'));
const storeSettings = { provider: 'Sqlite' as const, file: path.join(dir, 'auth.db'), connectionString: null, timeoutMs: 2000 };

async function run(...argv: string[]): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await runAccountCommand(argv, { storeSettings, print: (line) => out.push(line) });
  return { code, out };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('wharf accounts', () => {
  it('runs every command in order, refusing to leave no active administrator', async () => {
    const steps: [string[], number, string | RegExp][] = [
      [['list'], 0, 'No accounts.'],
      [['create', 'alice', '--password', 'alice-password'], 0, "Account 'alice' created (administrator)."],
      [['create', 'alice', '--password', 'alice-password'], 1, "An account named 'alice' already exists"],
      [['create', 'bob', '--role', 'viewer'], 0, /^One-time password \(shown once; it must be changed at the first sign-in\): [A-Za-z0-9_-]{20}$/],
      [['demote', 'alice'], 1, "Cannot demote 'alice': it is the last active administrator"],
      [['disable', 'alice'], 1, "Cannot disable 'alice': it is the last active administrator"],
      [['delete', 'alice'], 1, "Cannot delete 'alice': it is the last active administrator"],
      [['promote', 'bob'], 0, "Account 'bob' is now an administrator."],
      [['demote', 'alice'], 0, "Account 'alice' is now a viewer."],
      [['disable', 'alice'], 0, "Account 'alice' disabled."],
      [['enable', 'alice'], 0, "Account 'alice' enabled."],
      [['password', 'alice', '--password', 'short'], 1, 'The password must be at least 12 characters long'],
      [['password', 'alice', '--password', 'eleven-char'], 1, 'The password must be at least 12 characters long'],
      [['create', 'carol', '--password', 'eleven-char'], 1, 'The password must be at least 12 characters long'],
      [['password', 'nobody'], 1, "No account named 'nobody'"],
      [['delete', 'alice'], 0, "Account 'alice' deleted."],
      [['promote'], 2, 'Usage:'],
      [['create', 'x', '--role', 'root'], 2, '--role must be administrator or viewer'],
      [['frobnicate', 'x'], 2, 'Usage:'],
    ];
    for (const [argv, code, line] of steps) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(code);
      const last = result.out.at(typeof line === 'string' && line === 'Usage:' ? 0 : -1)!;
      if (typeof line === 'string') expect(last).toBe(line);
      else expect(last).toMatch(line);
    }
    const listed = await run('list');
    expect(listed.out).toEqual([expect.stringMatching(/^2\tbob\tadministrator\tactive\tmust change password$/)]);
  });

  it('a reset password signs in and must be changed', async () => {
    const result = await run('password', 'bob');
    const password = result.out[1]!.split(': ')[1]!;
    const store = await openAccountStore(storeSettings);
    try {
      const signIn = await new AccountService(store).signIn('bob', password);
      expect(signIn.ok && signIn.account.mustChangePassword).toBe(true);
    } finally {
      await store.close();
    }
  });
});
