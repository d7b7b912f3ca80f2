/**
 * `wharf accounts ...`: console accounts from a shell, on the same store the server uses.
 *   wharf accounts list
 *   wharf accounts create NAME [--role administrator|viewer] [--password P]   (random one-time password when absent)
 *   wharf accounts password NAME [--password P]                               (random one-time password when absent)
 *   wharf accounts promote NAME | demote NAME | enable NAME | disable NAME | delete NAME
 * Refuses to leave no active administrator. A generated password is printed once and must be
 * changed at the next sign-in. Exit codes: 0 done, 1 refused, 2 usage error.
 */
import { parseArgs } from 'node:util';
import type { TokenStoreSettings } from '../auth/store/open-store.js';
import type { AccountStore, Role } from './account-store.js';
import { AccountRuleError, AccountService } from './accounts.js';
import { openAccountStore } from './open-account-store.js';
import { randomPassword } from './password.js';

export interface AccountCommandOptions {
  readonly print: (line: string) => void;
  readonly storeSettings: TokenStoreSettings;
  /** An open store to use instead (tests); it is not closed. */
  readonly store?: AccountStore;
}

const COMMANDS = ['list', 'create', 'password', 'promote', 'demote', 'enable', 'disable', 'delete'];
const USAGE = [
  'Usage:',
  '  wharf accounts list',
  '  wharf accounts create NAME [--role administrator|viewer] [--password P]',
  '  wharf accounts password NAME [--password P]',
  '  wharf accounts promote|demote|enable|disable|delete NAME',
];

export async function runAccountCommand(argv: string[], options: AccountCommandOptions): Promise<number> {
  const args = argv[0] === 'accounts' ? argv.slice(1) : argv;
  const [command, ...rest] = args;
  const { print } = options;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { role: { type: 'string' }, password: { type: 'string' } },
    });
  } catch (error) {
    print((error as Error).message);
    for (const line of USAGE) print(line);
    return 2;
  }
  const name = parsed.positionals[0];
  if (!command || !COMMANDS.includes(command) || (command !== 'list' && !name)) {
    for (const line of USAGE) print(line);
    return 2;
  }
  const role = parsed.values.role ?? 'administrator';
  if (role !== 'administrator' && role !== 'viewer') {
    print('--role must be administrator or viewer');
    return 2;
  }
  const store = options.store ?? (await openAccountStore(options.storeSettings));
  const accounts = new AccountService(store);
  try {
    return await dispatch(command, name ?? '', role, parsed.values.password, accounts, print);
  } catch (error) {
    if (error instanceof AccountRuleError) {
      print(error.message);
      return 1;
    }
    throw error;
  } finally {
    if (!options.store) await store.close();
  }
}

async function dispatch(
  command: string,
  name: string,
  role: Role,
  password: string | undefined,
  accounts: AccountService,
  print: (line: string) => void,
): Promise<number> {
  switch (command) {
    case 'list': {
      const rows = await accounts.list();
      if (rows.length === 0) print('No accounts.');
      for (const row of rows) {
        const state = row.disabled ? 'disabled' : row.lockedUntil !== null && row.lockedUntil > Date.now() ? 'locked' : 'active';
        print(`${row.id}\t${row.username}\t${row.role}\t${state}${row.mustChangePassword ? '\tmust change password' : ''}`);
      }
      return 0;
    }
    case 'create':
    case 'password': {
      const chosen = password ?? randomPassword();
      const oneTime = password === undefined;
      if (command === 'create') await accounts.create(name, chosen, role, oneTime);
      else await accounts.setPassword(name, chosen, oneTime);
      print(command === 'create' ? `Account '${name}' created (${role}).` : `Password of '${name}' changed; its sessions are ended.`);
      if (oneTime) print(`One-time password (shown once; it must be changed at the first sign-in): ${chosen}`);
      return 0;
    }
    case 'promote':
    case 'demote':
      await accounts.setRole(name, command === 'promote' ? 'administrator' : 'viewer');
      print(`Account '${name}' is now ${command === 'promote' ? 'an administrator' : 'a viewer'}.`);
      return 0;
    case 'enable':
    case 'disable':
      await accounts.setDisabled(name, command === 'disable');
      print(`Account '${name}' ${command}d.`);
      return 0;
    default:
      await accounts.delete(name);
      print(`Account '${name}' deleted.`);
      return 0;
  }
}
