/**
 * Every `wharf` command and option, in one table: `wharf --help`, the argument parser, the
 * dispatcher (main.ts), the README's Commands table and docs/cli.md are all generated from it
 * (test/cli/commands-table.test.ts keeps README and docs in step). Adding a command is one row.
 * Handlers are imported lazily, so `wharf --help` loads nothing else.
 */
import path from 'node:path';
import type { CliArgs } from './cli-args.js';
import type { Printer } from './build-command.js';

export type OptionName = 'root' | 'port' | 'host' | 'no-docs' | 'demo-upstream' | 'db';

export interface CliOption {
  readonly flag: string;
  readonly short?: string;
  /** Placeholder of the value; none for a boolean flag. */
  readonly value?: string;
  readonly description: string;
}

export const OPTIONS: Readonly<Record<OptionName, CliOption>> = {
  root: { flag: '--root', value: 'DIR', description: 'project folder (default: the current directory)' },
  port: { flag: '--port', short: 'p', value: 'N', description: 'port to listen on (default: PORT, else 8080)' },
  host: { flag: '--host', value: 'H', description: 'address to listen on (default: HOST, else 127.0.0.1)' },
  'no-docs': { flag: '--no-docs', description: 'skip checking docs/ (broken links, missing images, bad formulas)' },
  'demo-upstream': {
    flag: '--demo-upstream',
    description: 'also run the sample upstream of endpoints/Proxy (scripts/demo-upstream.mjs) in this process; `npm start` passes it',
  },
  db: { flag: '--db', value: 'NAME', description: "check only: compare environment NAME's live database with endpoints/database.snapshot.json instead" },
};

export interface CliCommand {
  readonly name: string;
  /** Synopsis lines after `wharf ` (subcommands and their own options for pass-through commands). */
  readonly usage: readonly string[];
  readonly summary: string;
  /** How the README names it when an npm script wraps it (`npm run build`); default `npx wharf <usage[0]>`. */
  readonly npm?: string;
  /** The shared options it takes; pass-through commands parse their own arguments (`args.rest`). */
  readonly options: readonly OptionName[] | 'own';
  readonly run: (args: CliArgs, print: Printer) => Promise<number>;
}

const BUILD_OPTIONS: readonly OptionName[] = ['root', 'no-docs'];
const SERVE_OPTIONS: readonly OptionName[] = ['root', 'port', 'host', 'no-docs'];

export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'build',
    usage: ['build'],
    npm: 'npm run build',
    summary: 'compile `endpoints/` into `generated/`; any error prints `file:line:column` and writes nothing',
    options: BUILD_OPTIONS,
    run: async (args, print) => ((await (await import('./build-command.js')).runBuild(args.root, print, args.docs)).outputs ? 0 : 1),
  },
  {
    name: 'check',
    usage: ['check'],
    npm: 'npm run check',
    summary: 'compile in memory; fail on errors or when `generated/` is stale (CI runs it); `--db NAME`: fail when that database differs from the snapshot',
    options: [...BUILD_OPTIONS, 'db'],
    run: async (args, print) =>
      args.db !== undefined
        ? (await import('./db-command.js')).runDbCheck(args.root, args.db, print)
        : (await import('./build-command.js')).runCheck(args.root, print, args.docs),
  },
  {
    name: 'diff',
    usage: ['diff [BASE] [--allow-breaking] [--root DIR]'],
    summary:
      'compare the OpenAPI of the working tree with BASE (a git ref, default the merge base with main, or a file); print each change as breaking or compatible, exit 1 on a breaking one unless `--allow-breaking`',
    options: 'own',
    run: async (args, print) => (await import('./diff-command.js')).runDiffCommand(args.rest, args.root, print),
  },
  {
    name: 'watch',
    usage: ['watch'],
    summary: 'rebuild `generated/` on every saved change',
    options: BUILD_OPTIONS,
    run: async (args, print) => (await import('./watch-command.js')).runWatch(args.root, print, args.docs),
  },
  {
    name: 'start',
    usage: ['start'],
    npm: 'npm start',
    summary:
      'serve `generated/` on `PORT`/`--port` (default 8080) and `HOST`/`--host` (default 127.0.0.1); `npm start` builds first and runs the sample upstream (`--demo-upstream`)',
    options: [...SERVE_OPTIONS, 'demo-upstream'],
    run: async (args, print) => (await import('./serve-command.js')).runStart(args, print),
  },
  {
    name: 'dev',
    usage: ['dev'],
    npm: 'npm run dev',
    summary: 'build, serve and rebuild on every change; the server swaps in each good build without a restart',
    options: SERVE_OPTIONS,
    run: async (args, print) => (await import('./serve-command.js')).runDev(args, print),
  },
  {
    name: 'db',
    usage: ['db pull [--env NAME] [--root DIR]'],
    summary: 'read the catalogue of an environment\'s database into `endpoints/database.snapshot.json` (commit it: the build checks and types columns with it)',
    options: 'own',
    run: async (args, print) => (await import('./db-command.js')).runDbCommand(args.rest, args.root, print),
  },
  {
    name: 'add',
    usage: ['add sql SCHEMA.OBJECT [--namespace N] [--methods GET,POST,...] [--write] [--root DIR]'],
    summary: 'print (or `--write`) an `entity.json` for a table, view or table-valued function of the database snapshot',
    options: 'own',
    run: async (args, print) => (await import('./add-command.js')).runAddCommand(args.rest, args.root, print),
  },
  {
    name: 'token',
    usage: [
      'token create --username U [--scopes S] [--environments E] [--expires-in-days N] [--description D] [--force]',
      'token list [--all]',
      'token revoke ID',
      'token rotate ID',
    ],
    summary: 'create an API token (printed once, stored as a hash); list, revoke or rotate tokens',
    options: 'own',
    run: async (args, print) => {
      // The same store the server opens: <root>/data/auth.db unless Auth:Store:* says otherwise.
      const { runTokenCommand } = await import('../../runtime/auth/cli.js');
      const { readTokenStoreSettings } = await import('../../runtime/auth/store/open-store.js');
      const { environmentNames, loadSettings } = await import('../../runtime/settings/load-settings.js');
      const { dataDir } = await import('./serve-command.js');
      const data = dataDir(args.root);
      const settings = await loadSettings({ environmentsDir: path.join(args.root, 'environments') });
      return runTokenCommand(args.rest, {
        dataDir: data,
        storeSettings: readTokenStoreSettings(settings.server.source, data),
        // a revoke or rotate is announced on Redis (when configured) so every server refuses at once
        redis: (await import('../../runtime/traffic/redis-client.js')).readRedisSettings(settings.server.source),
        // --environments is checked against these (unknown names refused unless --force)
        knownEnvironments: environmentNames(settings),
        print: (line) => print.out(line),
      });
    },
  },
  {
    name: 'accounts',
    usage: [
      'accounts list',
      'accounts create NAME [--role administrator|viewer] [--password P]',
      'accounts password NAME [--password P]',
      'accounts promote|demote|enable|disable|delete NAME',
    ],
    summary: 'console accounts in the token store; refuses to leave no active administrator',
    options: 'own',
    run: async (args, print) => {
      const { runAccountCommand } = await import('../../runtime/admin/cli.js');
      const { readTokenStoreSettings } = await import('../../runtime/auth/store/open-store.js');
      const { loadSettings } = await import('../../runtime/settings/load-settings.js');
      const { dataDir } = await import('./serve-command.js');
      const settings = await loadSettings({ environmentsDir: path.join(args.root, 'environments') });
      return runAccountCommand(args.rest, {
        storeSettings: readTokenStoreSettings(settings.server.source, dataDir(args.root)),
        print: (line) => print.out(line),
      });
    },
  },
  {
    name: 'sync',
    usage: [
      'sync [--root DIR] [--health-port N]',
      'sync --demo [--duration S] [--health-port N]',
      'sync deadletters list [--json]',
      'sync deadletters replay ID... | --all',
      'sync deadletters purge ID... | --all',
    ],
    summary: 'the change-sync service: database changes to RabbitMQ, HTTP, files or another database (docs/sync.md); `--demo` runs on the embedded database',
    options: 'own',
    run: async (args) => (await import('../../runtime/sync/cli.js')).runSyncCommand(args.rest, { root: args.root }),
  },
  {
    name: 'docs',
    usage: [
      'docs serve [--port N] [--host H] [--base-path /prefix] [--base-url https://origin] [--theme NAME|DIR] [--strict]',
      'docs export DIR [--base-path /prefix] [--base-url https://origin] [--theme NAME|DIR] [--strict]',
      'docs build [--strict]',
    ],
    summary: 'the documentation site of `docs/` on port 5080, a static copy of it, or a build report of broken links, missing images and bad math (`--strict`: errors)',
    options: 'own',
    run: async (args) => (await import('../docs-site/cli.js')).runDocsCommand(args.rest),
  },
  {
    name: 'help',
    usage: ['help'],
    summary: 'this list (also `--help`, `-h`)',
    options: [],
    run: async (_args, print) => {
      print.out(usage());
      return 0;
    },
  },
];

/** npm scripts that are not a wharf command, listed with the commands in the README. */
export const NPM_ONLY: ReadonlyArray<{ readonly npm: string; readonly summary: string }> = [
  { npm: 'npm test', summary: 'finds (or, as root, installs) the test databases and browser; `check` + typecheck (including the generated code) + all tests' },
  { npm: 'npm run bench', summary: 'benchmarks, printing ratios against a baseline measured in the same run' },
];

export function findCommand(name: string): CliCommand | undefined {
  if (name === '--help' || name === '-h') return COMMANDS.find((c) => c.name === 'help');
  return COMMANDS.find((c) => c.name === name);
}

const plain = (text: string): string => text.replace(/`/g, '');

function optionSynopsis(name: OptionName): string {
  const o = OPTIONS[name];
  return `${o.short ? `-${o.short}, ` : ''}${o.flag}${o.value ? ` ${o.value}` : ''}`;
}

/** `wharf --help`. */
export function usage(): string {
  const lines = ['Usage: wharf <command> [options]', '', 'Commands:'];
  const width = 10;
  for (const command of COMMANDS) {
    const [first, ...more] = command.usage;
    if (first!.length < width) lines.push(`  ${first!.padEnd(width)}${plain(command.summary)}`);
    else lines.push(`  ${first}`, `  ${''.padEnd(width)}${plain(command.summary)}`);
    for (const line of more) lines.push(`  ${line}`);
    if (command.options !== 'own' && command.options.length > 0) {
      lines.push(`  ${''.padEnd(width)}options: ${command.options.map((o) => OPTIONS[o].flag).join(' ')}`);
    }
  }
  lines.push('', 'Options:');
  const names = Object.keys(OPTIONS) as OptionName[];
  const optionWidth = Math.max(...names.map((n) => optionSynopsis(n).length)) + 2;
  for (const name of names) lines.push(`  ${optionSynopsis(name).padEnd(optionWidth)}${OPTIONS[name].description}`);
  return `${lines.join('\n')}\n`;
}

/** The Commands table of README.md and docs/cli.md. */
export function commandsTable(): string {
  const rows = ['| Command | What it does |', '|---|---|'];
  for (const command of COMMANDS) {
    if (command.name === 'help') continue;
    const how = command.npm ?? `npx wharf ${command.usage[0]}`;
    const more = command.npm === undefined ? command.usage.slice(1).map((u) => `\`npx wharf ${u}\``) : [];
    rows.push(`| \`${how}\` | ${command.summary}${more.length ? `; also ${more.join(', ')}` : ''} |`);
  }
  for (const script of NPM_ONLY) rows.push(`| \`${script.npm}\` | ${script.summary} |`);
  return rows.join('\n');
}
