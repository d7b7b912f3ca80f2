/**
 * Build time of a large tree: 1,000 SQL endpoints (50 namespaces x 20), `wharf build --no-docs`
 * as a user runs it (a child process, wall time including Node start): a full build (no .wharf/
 * cache at all), then the unchanged tree again (the whole-tree no-op path), then an incremental
 * build after one entity changed (only that entity is validated, normalized and printed again;
 * the aggregated outputs are rebuilt from all models). Run alone with `node --import tsx bench/build.ts`.
 */
import { execFile as execFileCb } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COUNT = 1000;

function entity(i: number): string {
  return `${JSON.stringify({
    DatabaseSchema: 'inventory',
    DatabaseObjectName: `Table${i}`,
    PrimaryKey: 'Id',
    AllowedColumns: ['Id', 'Name', 'Price;UnitPrice', 'CreatedAt'],
    AllowedMethods: ['GET', 'QUERY'],
  }, null, 2)}\n`;
}

async function timed(root: string): Promise<{ ms: number; line: string }> {
  const started = performance.now();
  const { stdout } = await execFile(process.execPath, [path.join(REPO, 'scripts/wharf.mjs'), 'build', '--root', root, '--no-docs'], { maxBuffer: 1 << 24 });
  const line = stdout.split('\n').find((l) => l.startsWith('Compiled ') && l.includes(' endpoints ')) ?? '';
  return { ms: Math.round(performance.now() - started), line: line.replace(/ in \d+ ms/, '') };
}

export async function runBuildBench(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'wharf-bench-build-'));
  try {
    await cp(path.join(REPO, 'schemas'), path.join(root, 'schemas'), { recursive: true });
    for (let i = 0; i < COUNT; i++) {
      const dir = path.join(root, 'endpoints/SQL', `Area${Math.floor(i / 20)}`, `Items${i}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'entity.json'), entity(i));
    }
    const full = await timed(root);
    const unchanged = await timed(root);
    const file = path.join(root, 'endpoints/SQL/Area0/Items0/entity.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"Name"', '"Name;Title"'));
    const oneChanged = await timed(root);
    console.log(`wharf build --no-docs, ${COUNT} SQL endpoints, wall time of the process (Node start included)`);
    console.log(`  full build          ${String(full.ms).padStart(6)} ms   ${full.line}`);
    console.log(`  unchanged tree      ${String(unchanged.ms).padStart(6)} ms   ${unchanged.line}`);
    console.log(`  one entity changed  ${String(oneChanged.ms).padStart(6)} ms   ${oneChanged.line}`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runBuildBench();
}
