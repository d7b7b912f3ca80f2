/**
 * The raw entity.json shapes, as the schemas in schemas/ accept them: the types the build
 * generates from those schemas (generated/types/config.ts, json-schema-to-typescript), read-only.
 * One type per endpoint type, so a schema change reaches the rules and normalize through
 * `npm run build` (and `npm run check` fails while it has not).
 */
import type {
  CompositeEndpointConfig,
  FilesEndpointConfig,
  ProxyEndpointConfig,
  SqlEndpointConfig,
  StaticEndpointConfig,
  WebhookEndpointConfig,
} from '../../generated/types/config.js';

/** Read-only all the way down (arrays, tuples and nested objects). */
type Frozen<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

export type SqlConfig = Frozen<SqlEndpointConfig>;
export type ProxyConfig = Frozen<ProxyEndpointConfig>;
export type CompositeConfig = Frozen<CompositeEndpointConfig>;
export type StaticConfig = Frozen<StaticEndpointConfig>;
export type WebhookConfig = Frozen<WebhookEndpointConfig>;
export type FilesConfig = Frozen<FilesEndpointConfig>;

/** The properties every endpoint type shares (schemas/common.schema.json). */
export type CommonConfig = Pick<SqlConfig, keyof SqlConfig & keyof ProxyConfig & keyof CompositeConfig & keyof StaticConfig & keyof WebhookConfig & keyof FilesConfig>;
export type ResponseTransformsConfig = NonNullable<SqlConfig['ResponseTransforms']>;
/** Claims-based rules (schemas/common.schema.json Authorization): SQL, Static and Proxy endpoints. */
export type AuthorizationConfig = NonNullable<SqlConfig['Authorization']>;
export type AuthorizationRuleConfig = AuthorizationConfig['Rules'][number];
