/**
 * A malformed or disallowed query option, thrown where the parser finds it as a registry error:
 * SQL_UNKNOWN_COLUMN for a name the endpoint does not expose, SQL_BAD_REQUEST for the rest. Always
 * a 400 whose message is the response's `error` text. Positioned messages read
 * `<option>: <what> at position <n>` (n is 1-based, counted in characters of the decoded option
 * value). Static endpoints reuse the parser and answer its errors with their own code.
 */
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

/** Render a token/character for an error message: quoted, shortened, control chars escaped. */
export function describeText(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return `'${short.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}
