/**
 * `npm run bench`: every benchmark, each printing its figures and its ratio against a baseline
 * measured in the same run. Not part of `npm test`. `npm run bench -- sql` runs one.
 */
import { runBuildBench } from './build.js';
import { runDevReloadBench } from './dev-reload.js';
import { runDocsBench } from './docs-site.js';
import { runLoggingBench } from './logging.js';
import { runSqlBench } from './sql.js';
import { runSqlWriteBench } from './sql-write.js';
import { runSqlPagingBench } from './sql-paging.js';
import { runFilesBench, runStaticBench } from './static-files.js';
import { runProxyBench } from './proxy.js';
import { runDutyBreakdown } from './duty-breakdown.js';
import { runSyncBench } from './sync.js';
import { targetSummary } from './targets.js';

const BENCHES: Record<string, () => Promise<void>> = {
  sql: runSqlBench,
  'sql-write': runSqlWriteBench,
  'sql-paging': runSqlPagingBench,
  docs: runDocsBench,
  'dev-reload': runDevReloadBench,
  logging: runLoggingBench,
  build: runBuildBench,
  static: runStaticBench,
  files: runFilesBench,
  proxy: runProxyBench,
  duties: runDutyBreakdown,
  sync: runSyncBench,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  process.stdout.write(`\n== bench: ${name} ==\n`);
  await run();
}
const summary = targetSummary();
if (summary.length > 0) process.stdout.write(`\n${summary.join('\n')}\n`);
