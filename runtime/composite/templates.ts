/**
 * TemplateTransformations values. A value that is exactly one template is replaced by what it
 * names; any other value is a literal string:
 *   $guid                one GUID per request (every step and array element sees the same one)
 *   $requestid           the request id (also sent upstream as X-Request-Id)
 *   $prev.<step>.<path>  a value from an earlier step's result; path segments by dots, array
 *                        elements by index (`$prev.Create.items.0.id`); `$prev.<step>` = the whole result
 *   $context.<variable>  environment, requestId, clientIp, username (the token's user name)
 * A `$prev` path that resolves to nothing, or an unknown `$context` variable, is a 422.
 */
import type { ErrorDetail } from '../errors/wharf-error.js';

export interface TemplateContext {
  readonly guid: string;
  readonly requestId: string;
  readonly variables: Readonly<Record<string, string | null>>;
  /** Results of the steps completed so far, by step name. */
  readonly results: ReadonlyMap<string, unknown>;
}

export const CONTEXT_VARIABLES = ['environment', 'requestId', 'clientIp', 'username'] as const;

/** undefined when the path leads nowhere. */
export function resolvePath(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

export type Resolved = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

export function resolveTemplate(template: string, context: TemplateContext): Resolved {
  if (template === '$guid') return { ok: true, value: context.guid };
  if (template === '$requestid') return { ok: true, value: context.requestId };
  if (template.startsWith('$context.')) {
    const name = template.slice('$context.'.length);
    if (!Object.hasOwn(context.variables, name)) {
      return { ok: false, message: `${template}: unknown context variable (known: ${CONTEXT_VARIABLES.join(', ')})` };
    }
    return { ok: true, value: context.variables[name] };
  }
  if (template.startsWith('$prev.')) {
    const [step = '', ...path] = template.slice('$prev.'.length).split('.');
    if (!context.results.has(step)) return { ok: false, message: `${template}: step '${step}' has no result yet` };
    const value = resolvePath(context.results.get(step), path);
    if (value === undefined) return { ok: false, message: `${template} resolved to nothing` };
    return { ok: true, value };
  }
  return { ok: true, value: template };
}

/** The item with each templated field set; problems as 422 details (field = `<step>.<field>`). */
export function applyTemplates(
  item: Record<string, unknown>,
  templates: Readonly<Record<string, string>>,
  context: TemplateContext,
  stepName: string,
  problems: ErrorDetail[],
): Record<string, unknown> {
  const out = { ...item };
  for (const [field, template] of Object.entries(templates)) {
    const resolved = resolveTemplate(template, context);
    if (resolved.ok) out[field] = resolved.value;
    else problems.push({ field: `${stepName}.${field}`, message: resolved.message });
  }
  return out;
}
