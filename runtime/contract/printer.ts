/** Where the command line's lines go: stdout and stderr, one line each (its own module: loads nothing). Shared by the compiler's CLI and the runtime's banner. */
export interface Printer {
  out(line: string): void;
  err(line: string): void;
}

export const consolePrinter: Printer = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
