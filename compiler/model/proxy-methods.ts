/**
 * Parsers for the Proxy CustomProperties strings `HttpMethodTranslation` (`FROM:TO,...`) and
 * `HttpMethodAppendHeaders` (`METHOD:Header=Value,...`). Rules report `problems`; normalize
 * uses the parsed value of a (validated) string.
 */
import { HTTP_METHODS, type AppendHeader } from '../../runtime/contract/index.js';

export const TRANSLATION_TARGETS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'MERGE', 'HEAD', 'OPTIONS', 'QUERY'] as const;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface Parsed<T> {
  readonly value: T;
  readonly problems: string[];
}

function items(text: string): string[] {
  return text.split(',').map((s) => s.trim());
}

const isMethod = (m: string) => (HTTP_METHODS as readonly string[]).includes(m);

export function parseMethodTranslation(text: string): Parsed<Record<string, string>> {
  const value: Record<string, string> = {};
  const problems: string[] = [];
  for (const item of items(text)) {
    const match = /^([A-Za-z]+)\s*:\s*([A-Za-z]+)$/.exec(item);
    if (!match) {
      problems.push(`'${item}' is not a FROM:TO pair`);
      continue;
    }
    const from = (match[1] as string).toUpperCase();
    const to = (match[2] as string).toUpperCase();
    if (!isMethod(from)) problems.push(`'${match[1]}' is not one of ${HTTP_METHODS.join(', ')}`);
    else if (!(TRANSLATION_TARGETS as readonly string[]).includes(to))
      problems.push(`'${match[2]}' is not one of ${TRANSLATION_TARGETS.join(', ')}`);
    else if (from in value) problems.push(`${from} is translated more than once`);
    else value[from] = to;
  }
  return { value, problems };
}

export function parseAppendHeaders(text: string): Parsed<AppendHeader[]> {
  const value: AppendHeader[] = [];
  const problems: string[] = [];
  for (const item of items(text)) {
    const match = /^([A-Za-z]+)\s*:\s*([^=]*?)\s*=(.*)$/.exec(item);
    if (!match) {
      problems.push(`'${item}' is not a METHOD:Header=Value item`);
      continue;
    }
    const method = (match[1] as string).toUpperCase();
    const header = match[2] as string;
    const headerValue = (match[3] as string).trim();
    if (!isMethod(method)) problems.push(`'${match[1]}' is not one of ${HTTP_METHODS.join(', ')}`);
    else if (!HEADER_NAME.test(header)) problems.push(`'${header}' is not a valid header name`);
    else if (headerValue === '' || /[\r\n]/.test(headerValue)) problems.push(`the value for header '${header}' is empty or contains a line break`);
    else value.push({ method, header, value: headerValue });
  }
  return { value, problems };
}
