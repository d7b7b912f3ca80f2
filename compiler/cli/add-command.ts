/** `wharf add sql SCHEMA.OBJECT`: print (or write with --write) an entity.json scaffolded from the database snapshot. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DB_SNAPSHOT_FILE, parseDbSnapshot } from '../../runtime/contract/db-snapshot.js';
import { scaffoldSql, type ExistingEndpoint } from '../db-snapshot/scaffold.js';
import { discover } from '../discover.js';
import { parseAndIdentify } from '../entity-contexts.js';
import type { SqlConfig } from '../model/config.js';
import { parseColumn } from '../model/column-spec.js';
import { DEFAULTS } from '../model/defaults.js';
import type { Printer } from './build-command.js';

/** The project's Table and View endpoints (Relationships targets). */
async function sqlEndpoints(root: string): Promise<ExistingEndpoint[]> {
  const found = await discover(root);
  const { contexts } = await parseAndIdentify(found.entities, async (source) => readFileSync(source.absolutePath, 'utf8'));
  return contexts.flatMap((ctx) => {
    const c = ctx.config as unknown as SqlConfig;
    if (ctx.kind !== 'sql' || typeof c.DatabaseObjectName !== 'string' || !Array.isArray(c.AllowedColumns)) return [];
    if (c.DatabaseObjectType === 'TableValuedFunction') return [];
    const columns = c.AllowedColumns.flatMap((e) => parseColumn(e)?.db ?? []);
    return [{ routePath: ctx.routePath, object: `${c.DatabaseSchema ?? DEFAULTS.sql.DatabaseSchema}.${c.DatabaseObjectName}`, columns }];
  });
}

export async function runAddCommand(argv: readonly string[], root: string, print: Printer): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { namespace: { type: 'string' }, methods: { type: 'string' }, write: { type: 'boolean' }, root: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const base = values.root ?? root;
  if (positionals[0] !== 'sql' || positionals.length !== 2) {
    print.err('Usage: wharf add sql SCHEMA.OBJECT [--namespace N] [--methods GET,POST,...] [--write] [--root DIR]');
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(path.join(base, DB_SNAPSHOT_FILE), 'utf8');
  } catch {
    print.err(`${DB_SNAPSHOT_FILE} does not exist: run \`wharf db pull --env NAME\` first.`);
    return 1;
  }
  let scaffold;
  try {
    scaffold = scaffoldSql(parseDbSnapshot(text), { object: positionals[1]!, namespace: values.namespace, methods: values.methods?.split(','), endpoints: await sqlEndpoints(base) });
  } catch (error) {
    print.err(`wharf add: ${(error as Error).message}`);
    return 1;
  }
  const json = `${JSON.stringify(scaffold.config, null, 2)}\n`;
  if (!values.write) {
    print.out(`// ${scaffold.file}\n${json}`);
    return 0;
  }
  const file = path.join(base, scaffold.file);
  if (existsSync(file)) {
    print.err(`${scaffold.file} already exists; nothing was written.`);
    return 1;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, json);
  print.out(`Wrote ${scaffold.file}. Review it (aliases, methods, relationships), then run \`npm run build\`.`);
  return 0;
}
