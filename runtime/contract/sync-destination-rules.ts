/**
 * Destination values the JSON Schema lets through but `wharf sync` could never deliver with (each
 * batch would fail, be retried and end as a dead letter) or would lose batches with (a File path
 * every batch overwrites). Shared by `wharf check`/`wharf build` and the sync config loader through
 * checkSyncEnvironment. Messages name the field, never a secret value (tokens, keys, URLs' user info).
 */
import { containedPath } from './contained-path.js';

export interface DestinationProblem {
  readonly pointer: string;
  readonly message: string;
}

type Json = Record<string, unknown>;
const asObject = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

/** RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Bytes a header value may not hold (CR, LF, NUL and the other controls but tab; beyond Latin-1). */
const HEADER_VALUE_BAD = /[^\t\x20-\x7e\x80-\xff]/;
/** Headers the HTTP client refuses, or that frame the request the destination builds itself. */
const RESERVED_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'host', 'te', 'trailer', 'content-type', 'content-encoding', 'x-wharf-batch-id']);
const FILE_PLACEHOLDERS = new Set(['environment', 'object', 'version', 'fromVersion']);
const ROUTING_PLACEHOLDERS = new Set(['environment', 'object', 'operation']);
/** AMQP short strings (exchange, queue, routing key) hold at most 255 bytes. */
const SHORT_STRING_BYTES = 255;
/** Pre-declared exchanges: the only `amq.` names a declare may use (with their own type). */
const BUILT_IN_EXCHANGES: Readonly<Record<string, string>> = { 'amq.direct': 'direct', 'amq.fanout': 'fanout', 'amq.topic': 'topic' };

function unknownPlaceholders(template: string, known: ReadonlySet<string>): string[] {
  return [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1] as string).filter((name) => !known.has(name));
}

/** An http(s) URL with a host, or the reason it is not (never quoting it: it may hold user info). */
function urlProblem(text: string, schemes: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a valid URL';
  }
  if (!schemes.includes(url.protocol)) return `must use ${schemes.map((s) => s.slice(0, -1)).join(' or ')}`;
  if (url.hostname === '') return 'has no host';
  return null;
}

function headerProblems(pointer: string, name: string, value: unknown, reservedToo: boolean): DestinationProblem[] {
  const out: DestinationProblem[] = [];
  if (!HEADER_NAME.test(name)) out.push({ pointer, message: `header name '${name}' is not a valid HTTP header name` });
  else if (reservedToo && RESERVED_HEADERS.has(name.toLowerCase())) out.push({ pointer, message: `header '${name}' is set by the destination itself and cannot be configured` });
  if (typeof value === 'string' && HEADER_VALUE_BAD.test(value)) out.push({ pointer, message: `the value of header '${name}' holds a line break or control character` });
  return out;
}

function fileProblems(d: Json, base: string, objectCount: number): DestinationProblem[] {
  const template = d['Path'];
  if (typeof template !== 'string') return [];
  const pointer = `${base}/Path`;
  const out: DestinationProblem[] = [];
  const unknown = unknownPlaceholders(template, FILE_PLACEHOLDERS);
  if (unknown.length > 0) out.push({ pointer, message: `unknown placeholder {${unknown.join('}, {')}} (known: {environment}, {object}, {version}, {fromVersion})` });
  if (!template.includes('{version}')) out.push({ pointer, message: 'Path must contain {version}: without it every batch overwrites the file of the one before' });
  else if (objectCount > 1 && !template.includes('{object}')) out.push({ pointer, message: 'Path must contain {object} when the environment tracks more than one object: their batches would overwrite each other' });
  if (containedPath(template.replace(/\{[A-Za-z]+\}/g, 'x')) === null) out.push({ pointer, message: 'Path must be relative to the project folder and stay inside it' });
  return out;
}

function httpProblems(d: Json, base: string): DestinationProblem[] {
  const out: DestinationProblem[] = [];
  if (typeof d['Url'] === 'string') {
    const problem = urlProblem(d['Url'], ['http:', 'https:']);
    if (problem) out.push({ pointer: `${base}/Url`, message: `Url ${problem}` });
  }
  for (const [name, value] of Object.entries(asObject(d['CustomHeaders']) ?? {})) {
    out.push(...headerProblems(`${base}/CustomHeaders/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, name, value, true));
  }
  const auth = asObject(d['Auth']);
  if (auth) {
    if (auth['Type'] === 'ApiKey') {
      const name = typeof auth['HeaderName'] === 'string' ? auth['HeaderName'] : 'X-API-Key';
      out.push(...headerProblems(`${base}/Auth/HeaderName`, name, auth['ApiKey'], true));
    }
    for (const field of ['Token', 'Username', 'Password', 'ClientId', 'ClientSecret'] as const) {
      const value = auth[field];
      if (typeof value === 'string' && HEADER_VALUE_BAD.test(value)) out.push({ pointer: `${base}/Auth/${field}`, message: `Auth ${field} holds a line break or control character` });
    }
    if (auth['Type'] === 'OAuth2ClientCredentials' && typeof auth['TokenUrl'] === 'string') {
      const problem = urlProblem(auth['TokenUrl'], ['http:', 'https:']);
      if (problem) out.push({ pointer: `${base}/Auth/TokenUrl`, message: `TokenUrl ${problem}` });
    }
  }
  return out;
}

function rabbitProblems(d: Json, base: string): DestinationProblem[] {
  const out: DestinationProblem[] = [];
  if (typeof d['Url'] === 'string') {
    const problem = urlProblem(d['Url'], ['amqp:', 'amqps:']);
    if (problem) out.push({ pointer: `${base}/Url`, message: `Url ${problem}` });
  }
  const type = typeof d['ExchangeType'] === 'string' ? d['ExchangeType'] : 'topic';
  for (const field of ['Exchange', 'Queue'] as const) {
    const name = d[field];
    if (typeof name !== 'string') continue;
    if (Buffer.byteLength(name) > SHORT_STRING_BYTES) out.push({ pointer: `${base}/${field}`, message: `${field} is longer than ${SHORT_STRING_BYTES} bytes (AMQP limit)` });
    else if (name.startsWith('amq.') && !(field === 'Exchange' && BUILT_IN_EXCHANGES[name] === type)) {
      out.push({ pointer: `${base}/${field}`, message: `${field} '${name}': the amq. prefix is reserved by the broker${field === 'Exchange' ? ' (only amq.direct, amq.fanout, amq.topic with their own ExchangeType)' : ''}` });
    }
  }
  if (typeof d['RoutingKey'] === 'string') {
    const unknown = unknownPlaceholders(d['RoutingKey'], ROUTING_PLACEHOLDERS);
    if (unknown.length > 0) out.push({ pointer: `${base}/RoutingKey`, message: `unknown placeholder {${unknown.join('}, {')}} (known: {environment}, {object}, {operation})` });
  }
  return out;
}

/** Problems of the destinations of one schema-valid environment document. */
export function destinationProblems(destinations: readonly unknown[], objectCount: number): DestinationProblem[] {
  return destinations.flatMap((item, i) => {
    const d = asObject(item);
    const base = `/Destinations/${i}`;
    switch (d?.['Type']) {
      case 'File':
        return fileProblems(d, base, objectCount);
      case 'Http':
        return httpProblems(d, base);
      case 'RabbitMQ':
        return rabbitProblems(d, base);
      default:
        return [];
    }
  });
}

export interface EnvironmentDocument {
  /** Folder name under environments/. */
  readonly name: string;
  readonly doc: unknown;
}

/**
 * File destinations of different environments whose Path, with {environment} filled in, is the
 * same and whose environments share a tracked object name (or the Path has no {object}): their
 * batches of one version would overwrite each other. Reported at the later environment.
 */
export function sharedFilePathProblems(environments: readonly EnvironmentDocument[]): { environment: string; problem: DestinationProblem }[] {
  const out: { environment: string; problem: DestinationProblem }[] = [];
  const seen = new Map<string, { environment: string; index: number; objects: ReadonlySet<string> }[]>();
  for (const { name, doc } of environments) {
    const root = asObject(doc);
    if (!root) continue;
    const objects = new Set((Array.isArray(root['TrackedObjects']) ? root['TrackedObjects'] : []).map((o) => String(asObject(o)?.['Name'] ?? '').toLowerCase()));
    const destinations = Array.isArray(root['Destinations']) ? root['Destinations'] : [];
    destinations.forEach((item, index) => {
      const d = asObject(item);
      if (d?.['Type'] !== 'File' || typeof d['Path'] !== 'string') return;
      const template = d['Path'];
      const filled = template.split('{environment}').join(name);
      const key = containedPath(filled) ?? filled;
      const earlier = seen.get(key) ?? [];
      const clash = earlier.find((e) => e.environment !== name && (!template.includes('{object}') || [...objects].some((o) => e.objects.has(o))));
      if (clash) {
        out.push({
          environment: name,
          problem: { pointer: `/Destinations/${index}/Path`, message: `Path writes the same files as environments/${clash.environment}/sync.json Destinations[${clash.index}]: put {environment} in it` },
        });
      }
      earlier.push({ environment: name, index, objects });
      seen.set(key, earlier);
    });
  }
  return out;
}
