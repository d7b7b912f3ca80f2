/**
 * ResponseTransforms on a Proxy body, failing closed. With transforms the upstream is asked for
 * `Accept: application/json`; whatever comes back is read whole and:
 *  - parses as JSON (a UTF-8 BOM is ignored; strict JSON, so `NaN` does not parse): transformed;
 *    a body not declared as JSON counts only when it is an object or an array;
 *  - is declared JSON (`application/json`, `text/json`, `+json`) and does not parse: refused;
 *  - is anything else: passed untouched (the spec's "non-JSON responses pass through"), unless it
 *    names a `Remove` or `Mask` field (any case): then it may carry the value, and is refused.
 * A refusal is 502 PROXY_RESPONSE_NOT_TRANSFORMABLE (proxy-response.ts).
 */
import type { ResponseTransforms } from '../contract/model.js';
import { hasTransforms, transformBody } from '../transforms/response-transforms.js';
import { memoByText } from '../lifecycle/text-memo.js';

const BOM = '\uFEFF';

const jsonMedia = memoByText((contentType) => {
  const media = contentType.split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media === 'text/json' || media.endsWith('+json');
}, 64);

/** A JSON media type (remembered per header text: upstreams send the same few). */
export function isJson(contentType: string | undefined): boolean {
  return jsonMedia(contentType ?? '');
}

function hidesFields(t: ResponseTransforms): boolean {
  return t.remove.length > 0 || t.mask.length > 0;
}

/** Whether the body must be read whole and go through inspectedBody. */
export function mustInspect(t: ResponseTransforms, declaredJson: boolean): boolean {
  return hidesFields(t) || (declaredJson && hasTransforms(t));
}

/** A body's JSON, strict, a UTF-8 byte order mark ignored (Proxy transforms, Composite step answers). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text.startsWith(BOM) ? text.slice(BOM.length) : text) };
  } catch {
    return { ok: false };
  }
}

/** Whether the parsed JSON is transformed (else the text is judged by refusedText). */
function transformable(json: { ok: true; value: unknown } | { ok: false }, declaredJson: boolean): json is { ok: true; value: unknown } {
  return json.ok && (declaredJson || (typeof json.value === 'object' && json.value !== null));
}

/** A body that is not transformed: refused when declared JSON, or when it names a hidden field (any case). */
function refusedText(text: string, t: ResponseTransforms, declaredJson: boolean): boolean {
  if (declaredJson) return true;
  const lower = text.toLowerCase();
  return [...t.remove, ...t.mask].some((name) => lower.includes(name.toLowerCase()));
}

/**
 * Whether inspectedBody refuses the text, without transforming it (a Composite step's answer is
 * kept whole between steps and transformed only in the final answer).
 */
export function refusesBody(text: string, t: ResponseTransforms, declaredJson: boolean): boolean {
  if (text.length === 0 || !mustInspect(t, declaredJson)) return false;
  return !transformable(parseJsonText(text), declaredJson) && refusedText(text, t, declaredJson);
}

/** The body to send: the transformed JSON text, null to send it as it is, or 'refuse'. */
export function inspectedBody(text: string, t: ResponseTransforms, declaredJson: boolean): string | null | 'refuse' {
  if (text.length === 0) return null;
  const json = parseJsonText(text);
  if (transformable(json, declaredJson)) return JSON.stringify(transformBody(json.value, t));
  return refusedText(text, t, declaredJson) ? 'refuse' : null;
}
