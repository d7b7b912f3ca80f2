/**
 * `Section__Key` environment variables over environments/sync.json, the same ASP.NET-style
 * override the gateway's settings take (runtime/settings/config-source.ts): a variable whose first
 * segment names a section of the sync service schema (`WebHost__Enabled`, `Health__Port`,
 * `DeadLetters__MaxReplayAttempts`; top-level values such as `StateDirectory` have no section and
 * stay file-only) is laid over the service document before it is validated. Names match
 * case-insensitively and are written in the schema's spelling; text becomes the schema's type
 * (`true`/`false`, numbers), anything else stays text so the schema reports it. Variables of
 * other sections (the gateway's, the docs site's) are not the sync process's and are ignored.
 */

type Json = Record<string, unknown>;

interface SchemaNode {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function types(node: SchemaNode | undefined): readonly string[] {
  if (!node?.type) return [];
  return typeof node.type === 'string' ? [node.type] : node.type;
}

function coerce(text: string, node: SchemaNode | undefined): unknown {
  const allowed = types(node);
  const trimmed = text.trim();
  if (allowed.includes('boolean') && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if ((allowed.includes('number') || allowed.includes('integer')) && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return text;
}

function schemaName(node: SchemaNode | undefined, name: string): string {
  return Object.keys(node?.properties ?? {}).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
}

export interface Overridden {
  readonly document: unknown;
  /** Names of the variables that were applied (never their values: some are secrets). */
  readonly variables: readonly string[];
}

/** The service document with every matching variable of `env` applied (the input is not changed). */
export function applyEnvOverrides(document: unknown, schema: SchemaNode, env: Readonly<Record<string, string | undefined>>): Overridden {
  const root: Json = isObject(document) ? structuredClone(document) : {};
  const variables: string[] = [];
  for (const [name, value] of Object.entries(env).sort(([a], [b]) => a.localeCompare(b))) {
    const parts = name.split('__');
    if (value === undefined || parts.length < 2 || parts.some((p) => p === '')) continue;
    const section = schemaName(schema, parts[0] as string);
    const sectionNode = schema.properties?.[section];
    if (!types(sectionNode).includes('object')) continue;
    let target = root;
    let node: SchemaNode | undefined = schema;
    for (const part of parts.slice(0, -1)) {
      const key = schemaName(node, part);
      node = node?.properties?.[key];
      const existing = Object.keys(target).find((k) => k.toLowerCase() === key.toLowerCase());
      if (existing !== undefined && existing !== key) {
        target[key] = target[existing];
        delete target[existing];
      }
      if (!isObject(target[key])) target[key] = {};
      target = target[key] as Json;
    }
    const leaf = schemaName(node, parts[parts.length - 1] as string);
    const written = Object.keys(target).find((k) => k.toLowerCase() === leaf.toLowerCase());
    if (written !== undefined) delete target[written];
    target[leaf] = coerce(value, node?.properties?.[leaf]);
    variables.push(name);
  }
  return { document: root, variables };
}
