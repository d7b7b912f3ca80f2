/**
 * A parsed command line (compiler/cli/args.ts parses it; the commands table and the commands read
 * it). Its own module so the table and the parser do not import each other.
 */
export interface CliArgs {
  readonly command: string;
  readonly rest: string[];
  readonly root: string;
  readonly port: number | undefined;
  readonly host: string | undefined;
  readonly docs: boolean;
  /** `check --db NAME`. */
  readonly db?: string | undefined;
}
