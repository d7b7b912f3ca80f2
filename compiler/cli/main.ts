/** The `wharf` command line: the composition root that may use both the compiler and the runtime. */
import { parseCli } from './args.js';
import { consolePrinter } from './build-command.js';
import { findCommand, usage } from './commands.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCli(argv);
  const command = findCommand(args.command);
  if (!command) {
    consolePrinter.err(`Unknown command '${args.command}'.\n`);
    consolePrinter.err(usage());
    return 2;
  }
  return command.run(args, consolePrinter);
}

/** Settles when the command is done (process.exitCode set); scripts/wharf.mjs waits for it. */
export const finished = main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wharf: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
