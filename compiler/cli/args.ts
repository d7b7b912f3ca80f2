/** Command-line parsing for `wharf <command> [options]` (node:util parseArgs, strict). */
import { parseArgs } from 'node:util';

export interface CliArgs {
  readonly command: string;
  readonly rest: string[];
  readonly root: string;
  readonly port: number | undefined;
  readonly host: string | undefined;
  readonly docs: boolean;
}

export function parseCli(argv: readonly string[]): CliArgs {
  const [command = 'help', ...rest] = argv;
  if (command === 'docs' || command === 'token' || command === 'sync') {
    return { command, rest, root: process.cwd(), port: undefined, host: undefined, docs: true };
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      root: { type: 'string' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      'no-docs': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`--port must be an integer from 0 to 65535, got '${values.port}'`);
  }
  return {
    command,
    rest,
    root: values.root ?? process.cwd(),
    port,
    host: values.host,
    docs: !values['no-docs'],
  };
}

export const USAGE = `Usage: wharf <command> [options]

Commands:
  build            compile endpoints/ into generated/ (fails, writing nothing, on any error)
  check            compile in memory; fail on errors or when generated/ is stale (CI gate)
  watch            rebuild generated/ on every change
  start            serve generated/ (PORT/--port, default 8080; HOST/--host, default 127.0.0.1)
  dev              build, serve and rebuild on change; the server swaps in each good build
  docs serve|export  the documentation-site server (see docs/docs-site.md)
  sync [--demo]    change sync: database changes -> HTTP, RabbitMQ, files, databases (docs/sync.md)

Options:
  --root DIR       project folder (default: current directory)
  --port N, --host H
  --no-docs        build/watch without the docs pages
`;
