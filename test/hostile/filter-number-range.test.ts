/**
 * Seeded property test of `$filter` number literals against integer and decimal columns, on the
 * embedded database (PGlite) and a real PostgreSQL: whole numbers around every width boundary
 * (2^15, 2^31, 2^32, 2^53, 2^63, 10^20), signed, with each comparison operator and in `in` lists.
 * A literal out of the column's range is a legal comparison: the answer (X-Total-Records with
 * `$count=true`) must equal the same filter evaluated in memory over every row, never a 400 (an
 * uncast parameter took the integer column's type: `CategoryId lt 3000000000` was "a value does not
 * match the type of its column"). On PostgreSQL also a smallint column (Inventory/Bins, a table and
 * endpoint of this test's own, beside the sample ones): `Slot eq 40000`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { copyProject, type TempProject } from '../support/project.js';
import { rng } from './odata-generator.js';

let db: TestPostgres;
let project: TempProject;
let server: SqlTestServer;

beforeAll(async () => {
  db = await startPostgres();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(`CREATE TABLE inventory."Bins" ("BinId" integer PRIMARY KEY, "Slot" smallint NOT NULL);
    INSERT INTO inventory."Bins" SELECT n, (n * 2731) % 32768 - 16384 FROM generate_series(1, 40) AS n`);
  await client.end();
  project = await copyProject();
  const bins = path.join(project.root, 'endpoints', 'SQL', 'Inventory', 'Bins');
  await mkdir(bins, { recursive: true });
  await writeFile(path.join(bins, 'entity.json'), JSON.stringify({ DatabaseSchema: 'inventory', DatabaseObjectName: 'Bins', PrimaryKey: 'BinId', AllowedColumns: ['BinId', 'Slot'] }));
  // the build checks endpoints against the database snapshot: the table is added to the copy's
  const snapshotFile = path.join(project.root, 'endpoints', 'database.snapshot.json');
  const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as { objects: Record<string, unknown> };
  snapshot.objects['inventory.Bins'] = {
    columns: [{ name: 'BinId', nullable: false, type: 'integer' }, { name: 'Slot', nullable: false, type: 'smallint' }],
    primaryKey: ['BinId'],
    type: 'Table',
  };
  await writeFile(snapshotFile, JSON.stringify(snapshot));
  server = await startSqlTestServer(db.url, db.port + 1, { logger: false, environments: ['pg', 'demo'], root: project.root });
}, 180_000);
afterAll(async () => {
  await server?.close();
  await project?.remove();
  await db?.stop();
});

const BOUNDARIES = ['0', '1', '16384', '32767', '32768', '40000', '2147483647', '2147483648', '4294967296', '9007199254740991', '9007199254740993', '9223372036854775807', '9223372036854775808', '100000000000000000000'];
const OPS: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b, ne: (a, b) => a !== b, gt: (a, b) => a > b, ge: (a, b) => a >= b, lt: (a, b) => a < b, le: (a, b) => a <= b,
};
/** Categories: an integer key; Products: an integer stock and a numeric(10,2) price (exposed names); Bins: a smallint. */
const TARGETS = [
  { path: 'Inventory/Categories', columns: ['CategoryId'], envs: ['demo', 'pg'] },
  { path: 'Inventory/Products', columns: ['Stock', 'Price', 'CategoryId'], envs: ['demo', 'pg'] },
  { path: 'Inventory/Bins', columns: ['Slot'], envs: ['pg'] },
];

async function get(env: string, url: string) {
  return server.app.inject({ method: 'GET', url: `/api/${env}/${url}`, headers: { authorization: server.authorization } });
}

async function allRows(env: string, path: string): Promise<Record<string, number>[]> {
  const rows: Record<string, number>[] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = (await get(env, `${path}?$top=1000&$skip=${skip}`)).json() as { value: Record<string, number>[] };
    rows.push(...page.value);
    if (page.value.length < 1000) return rows;
  }
}

describe.each(['demo', 'pg'])('number literals beyond the column type on %s', (env) => {
  it('answer like the same filter in memory, never a 4xx', async () => {
    const next = rng(env === 'pg' ? 31 : 17);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const literal = () => `${next() < 0.4 ? '-' : ''}${pick(BOUNDARIES)}`;
    const failures: string[] = [];
    for (const target of TARGETS.filter((t) => t.envs.includes(env))) {
      const rows = await allRows(env, target.path);
      for (let i = 0; i < 40; i++) {
        const column = pick(target.columns);
        const list = next() < 0.25 ? [literal(), literal(), String(rows[0]![column])] : null;
        const op = pick(Object.keys(OPS));
        const value = literal();
        const filter = list ? `${column} in (${list.join(',')})` : `${column} ${op} ${value}`;
        const want = rows.filter((r) => (list ? list.some((v) => Number(v) === r[column]) : OPS[op]!(r[column]!, Number(value)))).length;
        const res = await get(env, `${target.path}?$count=true&$top=0&$filter=${encodeURIComponent(filter)}`);
        const got = res.statusCode === 200 ? Number(res.headers['x-total-records']) : `${res.statusCode} ${res.body}`;
        if (got !== want) failures.push(`${target.path} ${filter}: ${got}, want ${want}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
