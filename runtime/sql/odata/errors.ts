/**
 * A malformed or disallowed query option. Always a 400; the message is the response's `error`
 * text. Positioned messages read `<option>: <what> at position <n>` (n is 1-based, counted in
 * characters of the decoded option value).
 */
export class ODataError extends Error {
  readonly status = 400;
  constructor(message: string) {
    super(message);
    this.name = 'ODataError';
  }

  static at(option: string, what: string, position: number): ODataError {
    return new ODataError(`${option}: ${what} at position ${position}`);
  }
}

/** Render a token/character for an error message: quoted, shortened, control chars escaped. */
export function describeText(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 60)}…` : text;
  return `'${short.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}'`;
}
