/**
 * SQL endpoint models for tests, read from the sample endpoints/SQL/**\/entity.json (the files
 * the demo database matches). A small stand-in for the compiler's normalize so these tests do not
 * depend on the build; http.test.ts checks the real compiled models against the same database.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlEndpoint } from '../../runtime/contract/model.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SQL_DIR = path.join(ROOT, 'endpoints', 'SQL');

interface EntityJson {
  DatabaseSchema?: string;
  DatabaseObjectName: string;
  DatabaseObjectType?: 'Table' | 'View' | 'TableValuedFunction';
  PrimaryKey?: string;
  AllowedColumns: string[];
  AllowedMethods?: string[];
  Relationships?: { Name: string; Target: string; LocalColumn: string; TargetColumn: string; Multiplicity?: 'ToOne' | 'ToMany' }[];
  MaxBatchRows?: number;
  Paging?: 'Skip' | 'Keyset';
  FunctionParameters?: { Name: string; SqlType: string; Source: 'Path' | 'Query'; Position?: number; Required?: boolean; DefaultValue?: string; ValidationPattern?: string }[];
  ResponseTransforms?: { Remove?: string[]; Rename?: Record<string, string>; Mask?: string[] };
  Procedure?: string;
  WriteMode?: 'Procedure' | 'Table';
  RequiredColumns?: string[];
  ColumnValidation?: Record<string, { Regex: string; ValidationMessage?: string }>;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : name === 'entity.json' ? [p] : [];
  });
}

function dbOf(e: EntityJson, name: string): string {
  const entry = e.AllowedColumns.map((c) => c.split(';')).find(([db, alias]) => db === name || alias === name);
  return entry ? (entry[0] as string) : name;
}

function model(file: string): SqlEndpoint {
  const e = JSON.parse(readFileSync(file, 'utf8')) as EntityJson;
  const routePath = path.relative(SQL_DIR, path.dirname(file)).split(path.sep).join('/');
  const segments = routePath.split('/');
  const objectType = e.DatabaseObjectType ?? 'Table';
  return {
    id: `sql:${routePath}`,
    kind: 'sql',
    name: segments.at(-1) as string,
    namespace: segments.length > 1 ? segments.slice(0, -1).join('/') : null,
    namespaceSource: segments.length > 1 ? 'directory' : 'none',
    routePath,
    routeAliases: [],
    sourceFile: path.relative(ROOT, file),
    displayName: segments.at(-1) as string,
    namespaceDisplayName: null,
    allowedEnvironments: null,
    enabled: true,
    hidden: false,
    deprecated: false,
    documentation: { tagDescription: null, methodDescriptions: {} },
    methods: (e.AllowedMethods ?? ['GET']) as SqlEndpoint['methods'],
    schema: e.DatabaseSchema ?? 'dbo',
    objectName: e.DatabaseObjectName,
    objectType,
    primaryKey: objectType === 'TableValuedFunction' ? null : (e.PrimaryKey ?? 'Id'),
    columns: e.AllowedColumns.map((c) => {
      const [db, alias] = c.split(';') as [string, string | undefined];
      return { db, name: alias ?? db };
    }),
    functionParameters: (e.FunctionParameters ?? []).map((p) => ({
      name: p.Name, sqlType: p.SqlType, source: p.Source, position: p.Position ?? null,
      required: p.Required ?? false, defaultValue: p.DefaultValue ?? null, validationPattern: p.ValidationPattern ?? null,
    })),
    procedure: e.Procedure ?? null,
    writeMode: e.WriteMode ?? 'Procedure',
    requiredColumns: (e.RequiredColumns ?? []).map((n) => dbOf(e, n)),
    columnValidation: Object.entries(e.ColumnValidation ?? {}).map(([n, v]) => ({ column: dbOf(e, n), regex: v.Regex, message: v.ValidationMessage ?? null })),
    responseTransforms: { remove: e.ResponseTransforms?.Remove ?? [], rename: e.ResponseTransforms?.Rename ?? {}, mask: e.ResponseTransforms?.Mask ?? [] },
    relationships: (e.Relationships ?? []).map((r) => ({
      name: r.Name, targetId: `sql:${r.Target}`, localColumn: r.LocalColumn, targetColumn: r.TargetColumn, multiplicity: r.Multiplicity ?? 'ToOne',
    })),
    cacheDurationSeconds: null,
    maxBatchRows: e.MaxBatchRows ?? null,
    paging: e.Paging ?? 'Skip',
  };
}

export const SQL_ENDPOINTS: ReadonlyMap<string, SqlEndpoint> = new Map(walk(SQL_DIR).map((f) => {
  const m = model(f);
  return [m.id, m];
}));

export function endpoint(id: string): SqlEndpoint {
  const e = SQL_ENDPOINTS.get(id);
  if (!e) throw new Error(`no fixture endpoint ${id}`);
  return e;
}
