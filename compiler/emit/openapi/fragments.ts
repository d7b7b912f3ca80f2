/**
 * openapi.json and openapi-3.1.json from per-endpoint fragments, for the incremental build: each
 * visible endpoint's path items (member by member) and component schemas, as canonical JSON text
 * at the depth they take in the documents, remembered under a key over what they are made from
 * (the model, its tag, its database snapshot object). A build after one entity changed makes that
 * endpoint's fragments again and splices the others' remembered text into the document frame.
 * Whenever endpoints would interact (a shared path, a shared schema name, an operationId taken
 * twice) or the frame's text holds the placeholder by chance, both documents are built whole
 * (buildOpenApi): the bytes are always those of a fresh build (fragments.test.ts compares them).
 */
import { createHash } from 'node:crypto';
import type { OpenAPIObject } from 'openapi3-ts/oas32';
import { findObject, type DbSnapshot } from '../../../runtime/contract/db-snapshot.js';
import { GENERATED_FILES, type EndpointModel } from '../../../runtime/contract/index.js';
import type { OutputFile } from '../../stages.js';
import { canonicalJson, compareCodeUnits } from '../canonical-json.js';
import { OPENAPI_31_FILE, toOpenApi31 } from '../openapi-31/document.js';
import { sortById } from '../sort.js';
import { buildOpenApi, documentFrame, endpointParts } from './document.js';
import { planTags } from './tags.js';

/** One endpoint's parts as text: `[path, [[member, text]]]` and `[schema name, text]`, texts at depth 3. */
export interface OpenApiFragment {
  readonly key: string;
  readonly operationIds: readonly string[];
  readonly paths: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]>;
  readonly schemas: ReadonlyArray<readonly [string, string]>;
}

/** Fragments by endpoint id: those of the last build in, this build's out. */
export interface OpenApiFragments {
  readonly previous: ReadonlyMap<string, OpenApiFragment>;
  /** Filled by emitOpenApiFiles with every visible endpoint's fragment (empty when the documents were built whole). */
  readonly next: Map<string, OpenApiFragment>;
  /** How many endpoints' fragments were made in this build (the others were reused). */
  made: number;
}

/** Path Item members of 3.2 renamed in 3.1 (as toOpenApi31 does). */
const MEMBERS_31: Readonly<Record<string, string>> = { query: 'x-query', additionalOperations: 'x-additional-operations' };
const PLACEHOLDER = '\u0000wharf-fragment:';
/** A placeholder as canonicalJson writes it: `s` marks a schema, else a path item. */
const PLACEHOLDER_TEXT = /"\\u0000wharf-fragment:(s?)(\d+)"/g;
/** Path items are values at depth 2 of the document, their members and the component schemas at depth 3. */
const DEPTH_3 = '\n      ';

/** openapi.json and openapi-3.1.json; with `fragments`, from the remembered ones where their keys still match. */
export function emitOpenApiFiles(models: readonly EndpointModel[], snapshot: DbSnapshot | null, fragments?: OpenApiFragments): OutputFile[] {
  const spliced = fragments === undefined ? null : fromFragments(models, snapshot, fragments);
  if (spliced !== null) return spliced;
  fragments?.next.clear();
  const doc = buildOpenApi(models, snapshot);
  return [
    { path: GENERATED_FILES.openapi, content: canonicalJson(doc) },
    { path: OPENAPI_31_FILE, content: canonicalJson(toOpenApi31(doc)) },
  ];
}

function fromFragments(models: readonly EndpointModel[], snapshot: DbSnapshot | null, fragments: OpenApiFragments): OutputFile[] | null {
  const visible = sortById(models).filter((m) => !m.hidden);
  const tags = planTags(visible);
  const frame = documentFrame(tags.tags);
  const paths = new Set<string>();
  const schemas = new Set(Object.keys(frame.components?.schemas ?? {}));
  const operationIds = new Set<string>();
  fragments.next.clear();
  for (const model of visible) {
    const tag = tags.tagOf(model);
    const key = fragmentKey(model, snapshot, tag);
    let fragment = fragments.previous.get(model.id) ?? null;
    if (fragment?.key !== key) {
      fragment = makeFragment(model, snapshot, tag, key);
      if (fragment === null) return null; // an error of its own: buildOpenApi reports it
      fragments.made += 1;
    }
    if (!addAll(paths, fragment.paths.map(([path]) => path))) return null;
    if (!addAll(schemas, fragment.schemas.map(([name]) => name))) return null;
    if (!addAll(operationIds, fragment.operationIds)) return null;
    fragments.next.set(model.id, fragment);
  }
  const items = [...fragments.next.values()].flatMap((f) => f.paths.map(([, members]) => members));
  const schemaTexts = [...fragments.next.values()].flatMap((f) => f.schemas.map(([, text]) => text));
  const frame32 = frameWith(frame, fragments.next);
  const doc32 = splice(canonicalJson(frame32), items, (m) => m, schemaTexts);
  const doc31 = splice(canonicalJson(toOpenApi31(frame32)), items, (m) => MEMBERS_31[m] ?? m, schemaTexts);
  if (doc32 === null || doc31 === null) return null;
  return [
    { path: GENERATED_FILES.openapi, content: doc32 },
    { path: OPENAPI_31_FILE, content: doc31 },
  ];
}

/** SHA-256 over what an endpoint's fragment is made from (the code is the tool's: the cache holding them is kept per tool). */
function fragmentKey(model: EndpointModel, snapshot: DbSnapshot | null, tag: string): string {
  const object = model.kind === 'sql' && snapshot ? (findObject(snapshot, model.schema, model.objectName) ?? null) : null;
  return createHash('sha256').update(JSON.stringify([model, tag, object])).digest('hex');
}

/** Adds `names` to `taken`; false when one was taken already (endpoints interact: no fragments). */
function addAll(taken: Set<string>, names: readonly string[]): boolean {
  for (const name of names) {
    if (taken.has(name)) return false;
    taken.add(name);
  }
  return true;
}

function makeFragment(model: EndpointModel, snapshot: DbSnapshot | null, tag: string, key: string): OpenApiFragment | null {
  const used = new Set<string>();
  let parts: ReturnType<typeof endpointParts>;
  try {
    parts = endpointParts(model, snapshot, tag, used);
  } catch {
    return null;
  }
  return {
    key,
    operationIds: [...used],
    paths: Object.entries(parts.paths).map(([path, item]) => [path, members(item)] as const),
    schemas: Object.entries(parts.schemas).map(([name, schema]) => [name, atDepth3(schema)] as const),
  };
}

/** A path item's members in code unit order, each value's text at depth 3. */
function members(item: object): [string, string][] {
  return Object.entries(item)
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([member, value]) => [member, atDepth3(value)]);
}

function atDepth3(value: unknown): string {
  return canonicalJson(value).slice(0, -1).replace(/\n/g, DEPTH_3);
}

/** The frame with each endpoint's path items and schemas as numbered placeholders (in fragment order). */
function frameWith(frame: OpenAPIObject, fragments: ReadonlyMap<string, OpenApiFragment>): OpenAPIObject {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = { ...frame.components?.schemas };
  let item = 0;
  let schema = 0;
  for (const fragment of fragments.values()) {
    for (const [path] of fragment.paths) paths[path] = `${PLACEHOLDER}${item++}`;
    for (const [name] of fragment.schemas) schemas[name] = `${PLACEHOLDER}s${schema++}`;
  }
  return { ...frame, paths: paths as OpenAPIObject['paths'], components: { ...frame.components, schemas: schemas as never } };
}

type Members = OpenApiFragment['paths'][number][1];

/**
 * The frame's text with every placeholder replaced: a path item written from its members' texts
 * (named by `name`, in code unit order), a schema by its text; built as one list of pieces joined
 * once. Null when the count is off (a value of the frame held the marker).
 */
function splice(text: string, items: readonly Members[], name: (member: string) => string, schemas: readonly string[]): string | null {
  const pieces: string[] = [];
  let count = 0;
  let last = 0;
  for (const match of text.matchAll(PLACEHOLDER_TEXT)) {
    pieces.push(text.slice(last, match.index));
    last = match.index + match[0].length;
    count += 1;
    const index = Number(match[2]);
    if (match[1] === 's') {
      pieces.push(schemas[index] ?? '');
      continue;
    }
    const members = items[index] ?? [];
    const named = members.some(([member]) => name(member) !== member)
      ? members.map(([member, value]) => [name(member), value] as const).sort(([a], [b]) => compareCodeUnits(a, b))
      : members;
    pieces.push('{');
    named.forEach(([member, value], i) => pieces.push(i === 0 ? DEPTH_3 : `,${DEPTH_3}`, JSON.stringify(member), ': ', value));
    pieces.push('\n    }');
  }
  pieces.push(text.slice(last));
  return count === items.length + schemas.length ? pieces.join('') : null;
}
