/** Command-line parsing for `wharf <command> [options]` (node:util parseArgs, strict), from the commands table. */
import { parseArgs } from 'node:util';
import type { CliArgs } from './cli-args.js';
import { findCommand, OPTIONS } from './commands.js';

export function parseCli(argv: readonly string[]): CliArgs {
  const [command = 'help', ...rest] = argv;
  const known = findCommand(command);
  if (!known || known.options === 'own') {
    return { command, rest, root: process.cwd(), port: undefined, host: undefined, docs: true };
  }
  const options = Object.fromEntries(
    known.options.map((name) => {
      const o = OPTIONS[name];
      return [name, { type: o.value ? ('string' as const) : ('boolean' as const), ...(o.short ? { short: o.short } : {}) }];
    }),
  );
  const { values } = parseArgs({ args: rest, options, strict: true, allowPositionals: false });
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const port = text('port') === undefined ? undefined : Number(text('port'));
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`--port must be an integer from 0 to 65535, got '${text('port')}'`);
  }
  return { command, rest, root: text('root') ?? process.cwd(), port, host: text('host'), docs: values['no-docs'] !== true, db: text('db') };
}
