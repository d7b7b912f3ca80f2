/**
 * The raw entity.json shapes, as the schemas in schemas/ accept them (every optional property
 * optional). Rules and normalize read schema-valid configs through these types.
 */
import type { HttpMethod } from '../../runtime/contract/index.js';

export interface CommonConfig {
  readonly $schema?: string;
  readonly Namespace?: string;
  readonly NamespaceDisplayName?: string;
  readonly DisplayName?: string;
  readonly AllowedEnvironments?: readonly string[];
  readonly Enabled?: boolean;
  readonly Hidden?: boolean;
  readonly Deprecated?: boolean;
  readonly Authorization?: AuthorizationConfig;
  readonly Documentation?: {
    readonly TagDescription?: string;
    readonly MethodDescriptions?: Readonly<Partial<Record<HttpMethod, string>>>;
  };
}

export interface AuthorizationRuleConfig {
  readonly Scopes: readonly string[];
  readonly Methods?: readonly HttpMethod[];
  readonly RowFilter?: string;
  readonly Columns?: readonly string[];
  readonly ForwardClaims?: Readonly<Record<string, string>>;
}

/** SQL, Static and Proxy endpoints. */
export interface AuthorizationConfig {
  readonly Rules: readonly AuthorizationRuleConfig[];
}

export interface ResponseTransformsConfig {
  readonly Remove?: readonly string[];
  readonly Rename?: Readonly<Record<string, string>>;
  readonly Mask?: readonly string[];
}

export interface FunctionParameterConfig {
  readonly Name: string;
  readonly SqlType: string;
  readonly Source: 'Path' | 'Query';
  readonly Position?: number;
  readonly Required?: boolean;
  readonly DefaultValue?: string;
  readonly ValidationPattern?: string;
}

export interface RelationshipConfig {
  readonly Name: string;
  readonly Target: string;
  readonly LocalColumn: string;
  readonly TargetColumn: string;
  readonly Multiplicity?: 'ToOne' | 'ToMany';
}

export interface SqlConfig extends CommonConfig {
  readonly DatabaseObjectName: string;
  readonly DatabaseSchema?: string;
  readonly DatabaseObjectType?: 'Table' | 'View' | 'TableValuedFunction';
  readonly PrimaryKey?: string;
  readonly FunctionParameters?: readonly FunctionParameterConfig[];
  readonly AllowedColumns: readonly string[];
  readonly ResponseTransforms?: ResponseTransformsConfig;
  readonly Procedure?: string;
  readonly AllowedMethods?: readonly HttpMethod[];
  readonly WriteMode?: 'Procedure' | 'Table';
  readonly RequiredColumns?: readonly string[];
  readonly ColumnValidation?: Readonly<Record<string, { readonly Regex: string; readonly ValidationMessage?: string }>>;
  readonly Relationships?: readonly RelationshipConfig[];
  readonly CacheDurationSeconds?: number | null;
  readonly MaxBatchRows?: number;
  readonly Paging?: 'Skip' | 'Keyset';
}

export interface DeletePatternConfig {
  readonly Style?: 'PathParameter' | 'QueryParameter' | 'ODataGuid' | 'ODataKey';
  readonly Parameter?: string;
}

export interface ProxyConfig extends CommonConfig {
  readonly Url: string;
  readonly Methods: readonly HttpMethod[];
  readonly FallbackUrls?: readonly string[];
  readonly Retry?: { readonly Attempts?: number; readonly DelayMs?: number };
  readonly ResponseTransforms?: ResponseTransformsConfig;
  readonly SupportsOData?: boolean;
  readonly RewriteUrls?: boolean;
  readonly ForwardCookies?: boolean;
  readonly TimeoutMs?: number | null;
  readonly CustomProperties?: {
    readonly ContentType?: string;
    readonly HttpMethodTranslation?: string;
    readonly HttpMethodAppendHeaders?: string;
  };
  readonly DeletePatterns?: readonly DeletePatternConfig[];
  readonly CacheDurationSeconds?: number | null;
}

export interface CompositeStepConfig {
  readonly Name: string;
  readonly Endpoint: string;
  readonly Method: HttpMethod;
  readonly IsArray?: boolean;
  readonly ArrayProperty?: string;
  readonly SourceProperty?: string;
  readonly DependsOn?: string;
  readonly TemplateTransformations?: Readonly<Record<string, string>>;
}

export interface CompositeConfig extends CommonConfig {
  readonly Type: 'Composite';
  readonly Url: string;
  readonly Methods: readonly HttpMethod[];
  readonly CompositeConfig: {
    readonly Name: string;
    readonly Description?: string;
    readonly Steps: readonly CompositeStepConfig[];
  };
}

export interface StaticConfig extends CommonConfig {
  readonly ContentFile: string;
  readonly ContentType?: string;
  readonly EnableFiltering?: boolean;
  readonly ResponseTransforms?: ResponseTransformsConfig;
}

export interface WebhookConfig extends CommonConfig {
  readonly DatabaseObjectName: string;
  readonly DatabaseSchema?: string;
  readonly AllowedColumns: readonly string[];
}

export interface FilesConfig extends CommonConfig {
  readonly StorageType: 'Local';
  readonly BaseDirectory?: string;
  readonly AllowedExtensions?: readonly string[];
  readonly StorageDirectory?: string;
  readonly MaxFileSizeBytes?: number;
}
