/**
 * The normalized endpoint model: the only shape the emitters and the runtime see.
 * Produced by compiler/model/normalize.ts (the only place defaults are filled in),
 * serialized into generated/manifest.json, read back by the runtime. Every field is
 * present (no optional fields): absent config becomes null, [] or the spec default.
 */
import type { EndpointKind, HttpMethod } from './methods.js';

export interface Documentation {
  readonly tagDescription: string | null;
  /** method name (upper case) -> Markdown description */
  readonly methodDescriptions: Readonly<Record<string, string>>;
}

export interface ResponseTransforms {
  readonly remove: readonly string[];
  readonly rename: Readonly<Record<string, string>>;
  readonly mask: readonly string[];
}

/**
 * One claims-based rule of an endpoint's `Authorization.Rules` (SQL, Static, Proxy), compiled at build time.
 * The first rule whose scopes the token holds and whose methods include the request's applies.
 */
export interface AuthorizationRule {
  /** Scopes the token must all hold (`*` holds every scope). */
  readonly scopes: readonly string[];
  /** null = every method of the endpoint. */
  readonly methods: readonly HttpMethod[] | null;
  /** The RowFilter as written (messages); null = none. */
  readonly rowFilter: string | null;
  /**
   * The RowFilter parsed at build time: the OData filter AST of runtime/sql/odata/ast.ts (members
   * resolved to database columns) where a value may also be `{kind: 'claim', name}` (`@claims.name`).
   * Opaque here; runtime/auth/rules binds the claims per request.
   */
  readonly rowFilterAst: unknown;
  /** Exposed column names this rule narrows AllowedColumns to; null = no narrowing. */
  readonly columns: readonly string[] | null;
  /** Proxy: upstream header -> claim name. */
  readonly forwardClaims: Readonly<Record<string, string>>;
}

export interface EndpointAuthorization {
  readonly rules: readonly AuthorizationRule[];
}

interface EndpointBase {
  /** Stable unique id: `${kind}:${routePath}`, e.g. `sql:Inventory/Products`. */
  readonly id: string;
  readonly kind: EndpointKind;
  /** Endpoint folder name (EntityName). */
  readonly name: string;
  /** Effective namespace (explicit > directory > null for legacy), segments joined by `/`. */
  readonly namespace: string | null;
  readonly namespaceSource: 'explicit' | 'directory' | 'none';
  /** Path below `/api/{env}/`, original case: `Inventory/Products`, `Products`, `files/Docs/Reports`. */
  readonly routePath: string;
  /** Extra paths that reach the same endpoint (legacy `composite/{name}`), original case. */
  readonly routeAliases: readonly string[];
  /** Location of the entity.json, relative to the project root, posix separators. */
  readonly sourceFile: string;
  readonly displayName: string;
  readonly namespaceDisplayName: string | null;
  /** null = every environment. */
  readonly allowedEnvironments: readonly string[] | null;
  readonly enabled: boolean;
  readonly hidden: boolean;
  readonly deprecated: boolean;
  readonly documentation: Documentation;
  /** Effective methods: configured methods within the kind's column of the method matrix. */
  readonly methods: readonly HttpMethod[];
  /**
   * Claims-based rules (SQL, Static, Proxy). The one optional field of the model, left out when an
   * endpoint has no rules so that projects without rules keep byte-identical generated/ output.
   */
  readonly authorization?: EndpointAuthorization;
}

export interface SqlColumn {
  /** Column name in the database. */
  readonly db: string;
  /** Name exposed over HTTP (the alias, or the db name when no alias is given). */
  readonly name: string;
}

export interface FunctionParameter {
  readonly name: string;
  readonly sqlType: string;
  readonly source: 'Path' | 'Query';
  /** Path position as configured (1 = first path segment after the endpoint path); null for Query. */
  readonly position: number | null;
  readonly required: boolean;
  /** null = none; the literal `DEFAULT` = the function's own default. */
  readonly defaultValue: string | null;
  readonly validationPattern: string | null;
}

export interface SqlRelationship {
  /** Navigation name used in `$expand` and as the output property. */
  readonly name: string;
  /** Target SQL endpoint id (`sql:...`). */
  readonly targetId: string;
  readonly localColumn: string;
  readonly targetColumn: string;
  readonly multiplicity: 'ToOne' | 'ToMany';
}

/** A regular expression a written string value must match (ColumnValidation). */
export interface ColumnValidation {
  /** Database column. */
  readonly column: string;
  /** JavaScript RegExp source (compiled by the compiler, so it is known to be valid). */
  readonly regex: string;
  /** Custom 422 detail text; null = `<Col> does not match the required format`. */
  readonly message: string | null;
}

export interface SqlEndpoint extends EndpointBase {
  readonly kind: 'sql';
  readonly schema: string;
  readonly objectName: string;
  readonly objectType: 'Table' | 'View' | 'TableValuedFunction';
  /** null for table-valued functions. */
  readonly primaryKey: string | null;
  readonly columns: readonly SqlColumn[];
  readonly functionParameters: readonly FunctionParameter[];
  readonly procedure: string | null;
  readonly writeMode: 'Procedure' | 'Table';
  /** Database columns a POST must carry (missing, null or blank is a 422). */
  readonly requiredColumns: readonly string[];
  readonly columnValidation: readonly ColumnValidation[];
  readonly responseTransforms: ResponseTransforms;
  readonly relationships: readonly SqlRelationship[];
  /** Per-endpoint cache duration override in seconds; null = server default. */
  readonly cacheDurationSeconds: number | null;
  /** Rows one batch write (a JSON array body, Table mode) may hold; null = the server's Sql:MaxBatchRows. */
  readonly maxBatchRows: number | null;
  /** How nextLink pages: `Skip` ($skip, the spec's default) or `Keyset` (an opaque $skiptoken). */
  readonly paging: 'Skip' | 'Keyset';
}

export interface DeletePattern {
  readonly style: 'PathParameter' | 'QueryParameter' | 'ODataGuid' | 'ODataKey';
  readonly parameter: string | null;
}

export interface AppendHeader {
  readonly method: string;
  readonly header: string;
  readonly value: string;
}

export interface ProxyEndpoint extends EndpointBase {
  readonly kind: 'proxy';
  readonly url: string;
  readonly fallbackUrls: readonly string[];
  readonly retry: { readonly attempts: number; readonly delayMs: number };
  readonly responseTransforms: ResponseTransforms;
  readonly supportsOData: boolean;
  /** Rewrite absolute upstream URLs in JSON/XML bodies and Location to the gateway route. */
  readonly rewriteUrls: boolean;
  /** Forward the client's cookies (never the gateway's own) and the upstream's Set-Cookie. */
  readonly forwardCookies: boolean;
  /** Headers and body (idle) timeout per attempt; null = the Proxy:* settings. */
  readonly timeoutMs: number | null;
  /** Content-Type for requests / Accept for responses (default application/json). */
  readonly contentType: string;
  /** FROM method -> TO method. */
  readonly methodTranslation: Readonly<Record<string, string>>;
  readonly appendHeaders: readonly AppendHeader[];
  readonly deletePatterns: readonly DeletePattern[];
  readonly cacheDurationSeconds: number | null;
}

export interface CompositeStep {
  readonly name: string;
  /** As written: `{namespace}/{endpoint}` or `{endpoint}`. */
  readonly endpoint: string;
  /** Resolved target Proxy endpoint id. */
  readonly targetId: string;
  readonly method: string;
  readonly isArray: boolean;
  readonly arrayProperty: string | null;
  readonly sourceProperty: string | null;
  readonly dependsOn: string | null;
  readonly templateTransformations: Readonly<Record<string, string>>;
}

export interface CompositeEndpoint extends EndpointBase {
  readonly kind: 'composite';
  readonly url: string;
  readonly compositeName: string;
  readonly description: string | null;
  readonly steps: readonly CompositeStep[];
}

export interface StaticEndpoint extends EndpointBase {
  readonly kind: 'static';
  /** Content file, relative to the project root, posix separators. */
  readonly contentFile: string;
  readonly contentType: string;
  readonly enableFiltering: boolean;
  /** Applied to the records of JSON, XML and CSV content (raw and filtered answers). */
  readonly responseTransforms: ResponseTransforms;
}

export interface WebhookEndpoint extends EndpointBase {
  readonly kind: 'webhook';
  readonly schema: string;
  readonly objectName: string;
  /** Allowed webhook ids (AllowedColumns); empty = none configured. */
  readonly webhookIds: readonly string[];
}

export interface FilesEndpoint extends EndpointBase {
  readonly kind: 'files';
  readonly storageType: 'Local';
  /** Relative to the storage root; may contain `{env}`. */
  readonly baseDirectory: string;
  readonly storageDirectory: string | null;
  /** Lower-case, with leading dot; empty = all. */
  readonly allowedExtensions: readonly string[];
  readonly maxFileSizeBytes: number | null;
}

export type EndpointModel =
  | SqlEndpoint
  | ProxyEndpoint
  | CompositeEndpoint
  | StaticEndpoint
  | WebhookEndpoint
  | FilesEndpoint;
