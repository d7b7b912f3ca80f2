/**
 * A malformed or disallowed query option, thrown where the parser finds it as a registry error:
 * SQL_UNKNOWN_COLUMN for a name the endpoint does not expose, SQL_BAD_REQUEST for the rest. Always
 * a 400 whose message is the response's `error` text. Positioned messages read
 * `<option>: <what> at position <n>` (n is 1-based, counted in characters of the decoded option
 * value). Static endpoints reuse the parser and answer its errors with their own code.
 */
import { escapeUnprintable } from '../../contract/unprintable.js';
import { WharfError } from '../../errors/wharf-error.js';

type ODataCode = 'SQL_BAD_REQUEST' | 'SQL_UNKNOWN_COLUMN';

interface UnknownColumn {
  readonly option: string;
  /** The name as the message quotes it. */
  readonly column: string;
  readonly position: number;
}

export class ODataError extends WharfError<ODataCode> {
  override readonly name: string = 'ODataError';

  constructor(message: string, unknown?: UnknownColumn) {
    // one constructor for both codes: the registry formats each message
    super(...((unknown ? ['SQL_UNKNOWN_COLUMN', unknown] : ['SQL_BAD_REQUEST', { reason: message }]) as [ODataCode, never]));
  }

  static at(option: string, what: string, position: number): ODataError {
    return new ODataError(`${option}: ${what} at position ${position}`);
  }

  /** `<option>: unknown column <column> at position <n>`, `column` quoted as the message shows it. */
  static unknownColumn(option: string, column: string, position: number): ODataError {
    return new ODataError('', { option, column, position });
  }
}

/** Characters (code points) of the caller's text a message quotes at most. */
export const MAX_QUOTED = 60;

/**
 * Render a token/character for an error message: quoted, at most MAX_QUOTED code points (a pair is
 * never cut in two), control, format and separator characters escaped (unprintable.ts).
 */
export function describeText(text: string): string {
  // MAX_QUOTED code points take at most twice as many UTF-16 units
  const chars = [...text.slice(0, MAX_QUOTED * 2 + 1)];
  const short = chars.length > MAX_QUOTED ? `${chars.slice(0, MAX_QUOTED).join('')}…` : chars.join('');
  return `'${escapeUnprintable(short)}'`;
}
