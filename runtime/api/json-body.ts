/**
 * JSON body parsing for /api: errors say what is wrong and where (line, column), never 500.
 * An empty body is an error, except on QUERY (no criteria) and DELETE (clients often send the
 * header without a body), where the body is undefined. `__proto__` and `constructor.prototype`
 * keys are refused (prototype poisoning). Nesting deeper than MAX_JSON_DEPTH is refused before
 * anything parses or recurses over the text (hashing, error positions, handlers).
 */
import { jsonTooDeepAt } from '../contract/json-depth.js';
import { jsonErrorOffset, lineColumnAt, withoutJsonExcerpt } from '../contract/json-error-position.js';
import { WharfError } from '../errors/wharf-error.js';

const METHODS_WITH_OPTIONAL_BODY = new Set(['QUERY', 'DELETE']);

/** Deepest nesting of arrays and objects a request body may have (docs/security.md). */
export const MAX_JSON_DEPTH = 64;

/** Whether a JSON text nests arrays and objects deeper than `limit` (scanned only, valid or not). */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  return jsonTooDeepAt(text, limit) !== undefined;
}

function location(text: string, position: number): string {
  const { line, column } = lineColumnAt(text, position);
  return `line ${line}, column ${column}`;
}

/** Turns V8's JSON.parse message into `<what> at line L, column C`. */
export function describeJsonError(text: string, error: Error): string {
  const what = withoutJsonExcerpt(error.message)
    .replace(/\s+(?:in JSON )?at position \d+.*$/s, '')
    .replace(/^Unexpected end of JSON input$/, 'Unexpected end of input');
  const offset = what === 'Unexpected end of input' ? text.length : jsonErrorOffset(text, error.message);
  return offset === null ? what : `${what} at ${location(text, offset)}`;
}

class PoisonedKeyError extends SyntaxError {}

function refusePoisoning(key: string, value: unknown): unknown {
  if (key === '__proto__') throw new PoisonedKeyError("the key '__proto__' is not allowed");
  if (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value) {
    throw new PoisonedKeyError("the key 'constructor.prototype' is not allowed");
  }
  return value;
}

export function parseJsonBody(text: string, method: string): unknown {
  if (text.trim() === '') {
    if (METHODS_WITH_OPTIONAL_BODY.has(method)) return undefined;
    throw new WharfError('REQUEST_EMPTY_JSON');
  }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
    throw new WharfError('REQUEST_INVALID_JSON', { reason: `JSON is nested deeper than ${MAX_JSON_DEPTH} levels.` });
  }
  const suspicious = text.includes('__proto__') || text.includes('constructor');
  try {
    return suspicious ? JSON.parse(text, refusePoisoning) : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof PoisonedKeyError
      ? (error as Error).message
      : describeJsonError(text, error as Error);
    throw new WharfError('REQUEST_INVALID_JSON', { reason: `${reason}.` }, { cause: error });
  }
}
