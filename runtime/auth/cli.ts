/**
 * `wharf token ...` and the first-start demo token.
 *   wharf token create --username U [--scopes S] [--environments E] [--expires-in-days N] [--description D] [--force]
 *   wharf token list [--all]
 *   wharf token revoke ID
 *   wharf token rotate ID          revokes ID and creates its successor (new id, same username and rights)
 * The token value is printed once (create, rotate) and never written anywhere else.
 * --environments naming an environment the project does not have is refused (exit 1) unless
 * --force is given; then it is created with a warning (e.g. for an environment added later).
 * Exit codes: 0 done, 1 refused (unknown id, username taken, bad input), 2 usage error.
 */
import { parseArgs } from 'node:util';
import { connectRedis } from '../traffic/redis-client.js';
import type { RedisSettings } from '../traffic/redis-client.js';
import { openTokenStore, defaultTokenStoreFile } from './store/open-store.js';
import type { TokenStoreSettings } from './store/open-store.js';
import { UsernameTakenError } from './store/token-store.js';
import type { TokenStore } from './store/token-store.js';
import { toTokenView } from './token-view.js';
import { unknownEnvironments } from './scopes.js';
import { TokenInputError, TokenService } from './tokens.js';

export interface TokenCommandOptions {
  readonly dataDir: string;
  readonly print: (line: string) => void;
  /** Store settings (Auth:Store:*); default: SQLite at <dataDir>/auth.db. */
  readonly storeSettings?: TokenStoreSettings;
  /** An open store to use instead (tests); it is not closed. */
  readonly store?: TokenStore;
  /** Redis:* settings: with a Url, revoke and rotate are announced to every running instance at once. */
  readonly redis?: RedisSettings;
  /** The project's environments (Environment:AllowedEnvironments, else the configured ones); absent: not checked. */
  readonly knownEnvironments?: readonly string[];
}

const USAGE = [
  'Usage:',
  '  wharf token create --username U [--scopes S] [--environments E] [--expires-in-days N] [--description D] [--force]',
  '  wharf token list [--all]',
  '  wharf token revoke ID',
  '  wharf token rotate ID',
];

function parseId(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

export async function runTokenCommand(argv: string[], options: TokenCommandOptions): Promise<number> {
  const args = argv[0] === 'token' ? argv.slice(1) : argv;
  const [command, ...rest] = args;
  const { print } = options;
  let parsed: ReturnType<typeof parseCommandArgs>;
  try {
    parsed = parseCommandArgs(rest);
  } catch (error) {
    print((error as Error).message);
    for (const line of USAGE) print(line);
    return 2;
  }
  if (!command || !['create', 'list', 'revoke', 'rotate'].includes(command)) {
    for (const line of USAGE) print(line);
    return 2;
  }
  const store =
    options.store ??
    (await openTokenStore(
      options.storeSettings ?? { provider: 'Sqlite', file: defaultTokenStoreFile(options.dataDir), connectionString: null, timeoutMs: 2000 },
    ));
  // Redis down: the change is made all the same; other instances apply it after their verification cache TTL.
  const redis =
    options.redis?.url && (command === 'revoke' || command === 'rotate')
      ? await connectRedis(options.redis.url, options.redis.connectTimeoutMs).catch((error: unknown) => {
          print(`Redis is unreachable (${(error as Error).message}): other instances apply this after Auth:VerificationCacheSeconds`);
          return null;
        })
      : null;
  const channel = `${options.redis?.keyPrefix ?? ''}token-changed`;
  // The same message the servers' revocation bus publishes (revocation-bus.ts).
  const announce = redis ? async (id: number) => void (await redis.publish(channel, String(id))) : undefined;
  const service = new TokenService(store, announce ? { announce } : {});
  try {
    return await dispatch(command, parsed, service, print, options.knownEnvironments ?? null);
  } finally {
    redis?.disconnect();
    if (!options.store) await store.close();
  }
}

function parseCommandArgs(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      username: { type: 'string' },
      scopes: { type: 'string' },
      environments: { type: 'string' },
      'expires-in-days': { type: 'string' },
      description: { type: 'string' },
      all: { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
}

async function dispatch(
  command: string,
  parsed: ReturnType<typeof parseCommandArgs>,
  service: TokenService,
  print: (line: string) => void,
  knownEnvironments: readonly string[] | null,
): Promise<number> {
  const { values, positionals } = parsed;
  if (command === 'create') {
    if (!values.username) {
      print('--username is required');
      return 2;
    }
    const days = values['expires-in-days'];
    if (days !== undefined && !/^\d+$/.test(days)) {
      print('--expires-in-days must be a whole number of days');
      return 2;
    }
    const unknown = knownEnvironments === null ? [] : unknownEnvironments(values.environments ?? '*', knownEnvironments);
    if (unknown.length > 0) {
      const names = unknown.map((name) => `'${name}'`).join(', ');
      const known = knownEnvironments!.join(', ') || 'none';
      if (values.force !== true) {
        print(`--environments names unknown environment${unknown.length > 1 ? 's' : ''} ${names} (known: ${known}); no token created. Check the name, or add --force to create it anyway.`);
        return 1;
      }
      print(`WARNING: --environments names unknown environment${unknown.length > 1 ? 's' : ''} ${names} (known: ${known}); the token cannot be used there until it exists.`);
    }
    try {
      const issued = await service.create({
        username: values.username,
        description: values.description ?? '',
        allowedScopes: values.scopes ?? '*',
        allowedEnvironments: values.environments ?? '*',
        expiresInDays: days === undefined ? null : Number(days),
      });
      const view = toTokenView(issued.record, Date.now());
      print(`Token ${view.id} created for ${view.username} (scopes: ${view.allowed_scopes}; environments: ${view.allowed_environments}; expires: ${view.expires_at ?? 'never'}).`);
      print('Copy it now; it is not shown again:');
      print(issued.token);
      return 0;
    } catch (error) {
      if (error instanceof UsernameTakenError || error instanceof TokenInputError) {
        print(error.message);
        return 1;
      }
      throw error;
    }
  }
  if (command === 'list') {
    const now = Date.now();
    const rows = (await service.list(values.all === true)).map((row) => toTokenView(row, now));
    if (rows.length === 0) print('No tokens.');
    for (const row of rows) {
      const state = row.revoked_at ? `revoked ${row.revoked_at}` : row.is_active ? 'active' : 'expired';
      print(
        `${row.id}\t${row.username}\tscopes=${row.allowed_scopes}\tenvironments=${row.allowed_environments}\tcreated=${row.created_at}\texpires=${row.expires_at ?? 'never'}\t${state}`,
      );
    }
    return 0;
  }
  const id = parseId(positionals[0]);
  if (id === null) {
    print(`wharf token ${command} needs a token id (see wharf token list)`);
    return 2;
  }
  if (command === 'revoke') {
    const row = await service.revoke(id);
    if (!row) {
      print(`No active token with id ${id}.`);
      return 1;
    }
    print(`Token ${id} (${row.username}) revoked.`);
    return 0;
  }
  const issued = await service.rotate(id);
  if (!issued) {
    print(`No active token with id ${id}.`);
    return 1;
  }
  print(`Token ${id} (${issued.record.username}) rotated: revoked and replaced by token ${issued.record.id}; the previous value no longer works.`);
  print('Copy the new value now; it is not shown again:');
  print(issued.token);
  return 0;
}

export const DEMO_USERNAME = 'demo';

/**
 * On a store with no token at all (revoked ones count), creates the demo token (scopes `*`,
 * environments `*`) and returns its value for the start command to print once; otherwise null.
 */
export async function ensureDemoToken(store: TokenStore | TokenService): Promise<string | null> {
  const service = store instanceof TokenService ? store : new TokenService(store);
  if ((await service.store.count()) > 0) return null;
  try {
    const issued = await service.create({
      username: DEMO_USERNAME,
      description: 'Demo token created on first start; revoke it with wharf token revoke',
      allowedScopes: '*',
      allowedEnvironments: '*',
    });
    return issued.token;
  } catch (error) {
    if (error instanceof UsernameTakenError) return null; // another instance on the same store was first
    throw error;
  }
}

/** The lines the start command prints with the demo token. */
export function demoTokenLines(token: string, exampleUrl: string): string[] {
  return [
    'Created a demo API token (shown once; it is stored only as a hash):',
    `  ${token}`,
    'Try it:',
    `  curl -H "Authorization: Bearer ${token}" ${exampleUrl}`,
  ];
}
