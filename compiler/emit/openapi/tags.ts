/**
 * One tag per namespace (spec: Namespaces rule 5): named by NamespaceDisplayName when an endpoint
 * of the namespace sets it, else by the namespace; description from Documentation.TagDescription.
 * The first endpoint in id order that sets a value wins. A nested namespace's tag names its
 * parent's tag (OpenAPI 3.2 `parent`), and a parent without endpoints of its own still gets a
 * tag. Endpoints without a namespace (legacy layout) share the tag `Default`.
 */
import type { TagObject } from 'openapi3-ts/oas32';
import type { EndpointModel } from '../../../runtime/contract/index.js';
import { compareCodeUnits } from '../canonical-json.js';

export const DEFAULT_TAG = 'Default';
/** OpenAPI 3.2 tag `kind` for namespace tags (the registry's value for navigation tags). */
export const TAG_KIND = 'nav';

export interface TagPlan {
  readonly tags: TagObject[];
  /** Tag name of an endpoint's operations. */
  readonly tagOf: (model: EndpointModel) => string;
}

/** `models` must be the visible endpoints in id order. */
export function planTags(models: readonly EndpointModel[]): TagPlan {
  const namespaces = new Set<string>();
  const displayNames = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const model of models) {
    if (model.namespace === null) continue;
    namespaces.add(model.namespace);
    const { namespaceDisplayName: displayName } = model;
    if (displayName !== null && !displayNames.has(model.namespace)) displayNames.set(model.namespace, displayName);
    const description = model.documentation.tagDescription;
    if (description !== null && !descriptions.has(model.namespace)) descriptions.set(model.namespace, description);
  }
  // Parents of nested namespaces, up to the top, even without endpoints of their own.
  for (const namespace of [...namespaces]) {
    for (let parent = parentOf(namespace); parent !== null; parent = parentOf(parent)) namespaces.add(parent);
  }
  const nameOf = (namespace: string): string => displayNames.get(namespace) ?? namespace;
  const tags = new Map<string, TagObject>();
  for (const namespace of [...namespaces].sort(compareCodeUnits)) {
    const name = nameOf(namespace);
    if (tags.has(name)) continue; // two namespaces with one display name share the tag
    const parent = parentOf(namespace);
    const tag: TagObject = { name, kind: TAG_KIND };
    const description = descriptions.get(namespace);
    if (description !== undefined) tag.description = description;
    if (parent !== null && nameOf(parent) !== name) tag.parent = nameOf(parent);
    tags.set(name, tag);
  }
  if (models.some((m) => m.namespace === null) && !tags.has(DEFAULT_TAG)) {
    tags.set(DEFAULT_TAG, { name: DEFAULT_TAG, kind: TAG_KIND, description: 'Endpoints without a namespace (legacy layout).' });
  }
  return {
    tags: [...tags.values()].sort((a, b) => compareCodeUnits(a.name, b.name)),
    tagOf: (model) => (model.namespace === null ? DEFAULT_TAG : nameOf(model.namespace)),
  };
}

function parentOf(namespace: string): string | null {
  const cut = namespace.lastIndexOf('/');
  return cut < 0 ? null : namespace.slice(0, cut);
}
