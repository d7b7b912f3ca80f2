/**
 * `npm run bench`: every benchmark, each printing its figures and its ratio against a baseline
 * measured in the same run. Not part of `npm test`. `npm run bench -- sql` runs one.
 */
import { runDevReloadBench } from './dev-reload.js';
import { runDocsBench } from './docs-site.js';
import { runSqlBench } from './sql.js';
import { runSyncBench } from './sync.js';

const BENCHES: Record<string, () => Promise<void>> = {
  sql: runSqlBench,
  docs: runDocsBench,
  'dev-reload': runDevReloadBench,
  sync: runSyncBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  process.stdout.write(`\n== bench: ${name} ==\n`);
  await run();
}
