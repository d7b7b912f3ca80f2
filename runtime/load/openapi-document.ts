/**
 * generated/openapi.json of the loaded build, kept as bytes and served as is. At load only its shape
 * is checked (one JSON object: `{` first and `}` last, which catches a truncated or foreign file);
 * the full JSON parse (about 30 ms for 1,000 endpoints, on every cold start otherwise) runs once,
 * the first time the document is served, and a file that fails it answers LOAD_OPENAPI_INVALID.
 * `wharf check` in CI compares the file with a fresh build byte for byte.
 */
import { WharfError } from '../errors/wharf-error.js';

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

function edge(bytes: Buffer, from: number, step: 1 | -1): number | undefined {
  for (let i = from; i >= 0 && i < bytes.length; i += step) if (!WHITESPACE.has(bytes[i]!)) return bytes[i];
  return undefined;
}

export class OpenApiDocument {
  /** undefined: not parsed yet; null: valid JSON; string: why it is not. */
  #problem: string | null | undefined;

  private constructor(
    readonly bytes: Buffer,
    readonly file: string,
  ) {}

  /** Throws LOAD_OPENAPI_INVALID when the bytes are not one JSON object. */
  static of(bytes: Buffer, file: string): OpenApiDocument {
    if (edge(bytes, 0, 1) !== 0x7b || edge(bytes, bytes.length - 1, -1) !== 0x7d) {
      throw new WharfError('LOAD_OPENAPI_INVALID', { file, reason: 'it does not hold one JSON object (truncated?)' });
    }
    return new OpenApiDocument(bytes, file);
  }

  /** The bytes, once they parsed as JSON (checked on the first call); else LOAD_OPENAPI_INVALID. */
  checked(): Buffer {
    if (this.#problem === undefined) {
      try {
        JSON.parse(this.bytes.toString('utf8'));
        this.#problem = null;
      } catch (error) {
        this.#problem = (error as Error).message;
      }
    }
    if (this.#problem !== null) throw new WharfError('LOAD_OPENAPI_INVALID', { file: this.file, reason: this.#problem });
    return this.bytes;
  }
}
