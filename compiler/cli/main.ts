/** The `wharf` command line: the composition root that may use both the compiler and the runtime. */
import path from 'node:path';
import { parseCli, USAGE } from './args.js';
import { consolePrinter, runBuild, runCheck } from './build-command.js';
import { runWatch } from './watch-command.js';
import { dataDir, runDev, runStart } from './serve-command.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCli(argv);
  const print = consolePrinter;
  switch (args.command) {
    case 'build':
      return (await runBuild(args.root, print, args.docs)).outputs ? 0 : 1;
    case 'check':
      return runCheck(args.root, print, args.docs);
    case 'watch':
      return runWatch(args.root, print, args.docs);
    case 'start':
      return runStart(args, print);
    case 'dev':
      return runDev(args, print);
    case 'docs': {
      const { runDocsCommand } = await import('../docs-site/cli.js');
      return runDocsCommand(args.rest);
    }
    case 'sync':
      return (await import('../../runtime/sync/cli.js')).runSyncCommand(args.rest, { root: args.root });
    case 'token': {
      // The same store the server opens: <root>/data/auth.db unless Auth:Store:* says otherwise.
      const { runTokenCommand } = await import('../../runtime/auth/cli.js');
      const { readTokenStoreSettings } = await import('../../runtime/auth/store/open-store.js');
      const { loadSettings } = await import('../../runtime/settings/load-settings.js');
      const data = dataDir(args.root);
      const settings = await loadSettings({ environmentsDir: path.join(args.root, 'environments') });
      return runTokenCommand(args.rest, {
        dataDir: data,
        storeSettings: readTokenStoreSettings(settings.server.source, data),
        print: (line) => print.out(line),
      });
    }
    case 'help':
    case '--help':
    case '-h':
      print.out(USAGE);
      return 0;
    default:
      print.err(`Unknown command '${args.command}'.\n`);
      print.err(USAGE);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wharf: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
