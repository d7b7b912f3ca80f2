/** Turns one ajv error into a Diagnostic with a message a user can act on. */
import type { ErrorObject } from 'ajv';
import { HTTP_METHODS } from '../../runtime/contract/index.js';
import type { Diagnostic } from '../diagnostics.js';
import type { EntityContext } from '../stages.js';
import { KIND_LABEL } from './kind-label.js';
import { labelOf, pointer, segmentsOf } from './pointer.js';
import { error } from './report.js';
import { descriptionOf, type JsonSchema } from './schema-store.js';
import { closest } from '../../runtime/contract/suggest.js';

/** Every code schema validation can emit. */
export const SCHEMA_CODES = [
  'schema-required',
  'schema-type',
  'schema-enum',
  'allowed-methods',
  'schema-range',
  'schema-format',
  'schema-invalid',
  'unknown-property',
] as const;

const TYPE_TEXT: Readonly<Record<string, string>> = {
  string: 'a string',
  boolean: 'true or false',
  integer: 'an integer',
  number: 'a number',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

function propertyNames(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

/** Label of the property an array item belongs to: `/AllowedMethods/2` -> `AllowedMethods`. */
function ownerLabel(ptr: string): string {
  const segs = segmentsOf(ptr);
  const last = segs[segs.length - 1];
  return last !== undefined && /^\d+$/.test(last) ? labelOf(pointer('', ...segs.slice(0, -1))) : labelOf(ptr);
}

function isMethodEnum(values: unknown): boolean {
  return Array.isArray(values) && values.length === HTTP_METHODS.length && HTTP_METHODS.every((m) => values.includes(m));
}

function required(ctx: EntityContext, err: ErrorObject): Diagnostic {
  const missing = String((err.params as { missingProperty: string }).missingProperty);
  const ptr = pointer(err.instancePath, missing);
  const where = err.instancePath === '' ? `for ${KIND_LABEL[ctx.kind]} endpoints` : `in ${labelOf(err.instancePath)}`;
  const description = descriptionOf((err.parentSchema as { properties?: Record<string, JsonSchema> } | undefined)?.properties?.[missing]);
  return error(ctx, 'schema-required', ptr, `${missing} is required ${where}`, { hint: description });
}

/** Keys for comments, accepted anywhere in an entity.json: `x-...` and `$comment` (docs/diagnostics.md). */
export function isCommentKey(name: string): boolean {
  return name.startsWith('x-') || name === '$comment';
}

const ESCAPE = "For a comment, use a key starting with 'x-' or '$comment'.";

function unknownProperty(ctx: EntityContext, err: ErrorObject): Diagnostic | null {
  const name = String((err.params as { additionalProperty: string }).additionalProperty);
  if (isCommentKey(name)) return null;
  const ptr = pointer(err.instancePath, name);
  const known = propertyNames(err.parentSchema);
  const near = closest(name, known);
  const owner = err.instancePath === '' ? `${KIND_LABEL[ctx.kind]} endpoints` : labelOf(err.instancePath);
  const hint = near
    ? `Did you mean '${near}'? ${ESCAPE}`
    : known.length <= 8
      ? `Known properties: ${known.join(', ')}. ${ESCAPE}`
      : `See docs/configuration.md for the properties of this type. ${ESCAPE}`;
  return error(ctx, 'unknown-property', ptr, `'${name}' is not a known property of ${owner}`, { hint, atKey: true });
}

function enumError(ctx: EntityContext, err: ErrorObject): Diagnostic {
  const allowed = (err.params as { allowedValues: unknown[] }).allowedValues;
  const text = allowed.map(String).join(', ');
  const near = typeof err.data === 'string' ? closest(err.data, allowed.map(String)) : null;
  const methods = isMethodEnum(allowed);
  const sameIgnoringCase = near !== null && near.toLowerCase() === String(err.data).toLowerCase();
  const hint = sameIgnoringCase
    ? methods
      ? `Methods are upper case: use '${near}'.`
      : `Values are case-sensitive: use '${near}'.`
    : near && !methods
      ? `Did you mean '${near}'?`
      : undefined;
  const code = methods ? 'allowed-methods' : 'schema-enum';
  const label = methods ? ownerLabel(err.instancePath) : labelOf(err.instancePath);
  return error(ctx, code, err.instancePath, `${label} value ${show(err.data)} is not one of ${text}`, { hint });
}

function rangeMessage(err: ErrorObject, label: string): string {
  const limit = (err.params as { limit: number }).limit;
  switch (err.keyword) {
    case 'minimum':
      return `${label} must be at least ${limit}`;
    case 'maximum':
      return `${label} must be at most ${limit}`;
    case 'minLength':
      return limit === 1 ? `${label} must not be empty` : `${label} must be at least ${limit} characters long`;
    case 'maxLength':
      return `${label} must be at most ${limit} characters long`;
    case 'minItems':
      if (/(^|\.)(Methods|AllowedMethods)$/.test(label)) return `${label} must contain at least one HTTP method`;
      return limit === 1 ? `${label} must contain at least one item` : `${label} must contain at least ${limit} items`;
    default:
      return `${label} must contain at most ${limit} items`;
  }
}

/** null for a comment key, which is allowed wherever an unknown property would be reported. */
export function schemaErrorToDiagnostic(ctx: EntityContext, err: ErrorObject): Diagnostic | null {
  const label = labelOf(err.instancePath);
  switch (err.keyword) {
    case 'required':
      return required(ctx, err);
    case 'additionalProperties':
      return unknownProperty(ctx, err);
    case 'enum':
      return enumError(ctx, err);
    case 'const':
      return error(ctx, 'schema-enum', err.instancePath, `${label} must be ${show((err.params as { allowedValue: unknown }).allowedValue)}`);
    case 'type': {
      const types = String((err.params as { type: string | string[] }).type).split(',');
      const text = types.map((t) => TYPE_TEXT[t] ?? t).join(' or ');
      return error(ctx, 'schema-type', err.instancePath, `${label} must be ${text}`);
    }
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return error(ctx, 'schema-range', err.instancePath, rangeMessage(err, label));
    case 'pattern': {
      const hint = /^AllowedExtensions\[/.test(label) ? "Write extensions with a leading dot, e.g. '.pdf'." : undefined;
      return error(ctx, 'schema-format', err.instancePath, `${label} value ${show(err.data)} does not match ${String((err.params as { pattern: string }).pattern)}`, { hint });
    }
    default:
      return error(ctx, 'schema-invalid', err.instancePath, `${label} ${err.message ?? 'is invalid'}`);
  }
}
