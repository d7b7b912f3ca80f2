// Preloaded with `node --import` by production-server.test.ts: records the URL of every ES module
// and CommonJS file the process loads into the file named by WHARF_RECORD_MODULES.
import { register } from 'node:module';
import Module from 'node:module';
import { appendFileSync } from 'node:fs';

const file = process.env.WHARF_RECORD_MODULES;
register('./record-modules-hooks.mjs', import.meta.url, { data: { file } });
const load = Module._load;
Module._load = function recordRequire(request, parent, isMain) {
  try {
    appendFileSync(file, `${Module._resolveFilename(request, parent, isMain)}\n`);
  } catch {
    // builtins and unresolvable names are not files
  }
  return load.apply(this, arguments);
};
