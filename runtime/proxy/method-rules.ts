/**
 * CustomProperties method rules: HttpMethodTranslation (`FROM:TO`, parsed at build time into
 * `methodTranslation`) picks the method sent upstream; HttpMethodAppendHeaders adds headers for the
 * method the client sent, `{ORIGINAL_METHOD}` standing for that method. An appended header does not
 * replace one the request already carries (Portway's rule).
 */
import type { AppendHeader } from '../contract/model.js';

export function upstreamMethod(clientMethod: string, translation: Readonly<Record<string, string>>): string {
  return translation[clientMethod] ?? clientMethod;
}

export function appendMethodHeaders(
  headers: Record<string, string | string[]>,
  clientMethod: string,
  rules: readonly AppendHeader[],
): void {
  for (const rule of rules) {
    if (rule.method.toUpperCase() !== clientMethod) continue;
    const name = rule.header.toLowerCase();
    if (headers[name] !== undefined) continue;
    headers[name] = rule.value.replaceAll('{ORIGINAL_METHOD}', clientMethod);
  }
}
