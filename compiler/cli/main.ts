/** The `wharf` command line: the composition root that may use both the compiler and the runtime. */
import { parseCli, USAGE } from './args.js';
import { consolePrinter, runBuild, runCheck } from './build-command.js';
import { runWatch } from './watch-command.js';
import { runDev, runStart } from './serve-command.js';

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
    case 'token': {
      const { runTokenCommand } = await import('../../runtime/auth/cli.js');
      return runTokenCommand(args.rest, { dataDir: 'data', print: (line) => print.out(line) });
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
