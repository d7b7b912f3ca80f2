/**
 * Every default the compiler fills in, in one table. normalize.ts reads these; the schemas'
 * `default` annotations must equal them (checked by defaults.test.ts).
 */
export const DEFAULTS = {
  common: { Enabled: true, Hidden: false, Deprecated: false },
  responseTransforms: { Remove: [] as string[], Rename: {} as Record<string, string>, Mask: [] as string[] },
  sql: {
    DatabaseSchema: 'dbo',
    DatabaseObjectType: 'Table',
    PrimaryKey: 'Id',
    AllowedMethods: ['GET'],
    WriteMode: 'Procedure',
    Paging: 'Skip' as 'Skip' | 'Keyset',
    FunctionParameterRequired: false,
    RelationshipMultiplicity: 'ToOne',
  },
  proxy: {
    FallbackUrls: [] as string[],
    RetryAttempts: 1,
    RetryDelayMs: 200,
    SupportsOData: false,
    RewriteUrls: true,
    ForwardCookies: false,
    ContentType: 'application/json',
    DeletePatterns: [{ Style: 'PathParameter' }],
    DeletePatternStyle: 'PathParameter',
  },
  composite: { StepIsArray: false, TemplateTransformations: {} as Record<string, string> },
  static: { EnableFiltering: false, ContentType: 'application/octet-stream' },
  webhook: { DatabaseSchema: 'dbo' },
  files: { AllowedExtensions: [] as string[] },
} as const;
