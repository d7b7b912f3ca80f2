#!/usr/bin/env node
// The `wharf` command.
// - `wharf start` runs the compiled server (.wharf/dist/runtime/main.js, written by `wharf build`)
//   with no TypeScript loader, in this very process, so SIGTERM reaches the server. `--build` first
//   runs `wharf build` as a child process (what `npm start` does: one process builds, then serves).
//   When the compiled runtime is missing or older than runtime/, it says so and runs the sources.
//   `--demo-upstream` (npm start passes it) first starts the sample upstream of endpoints/Proxy
//   (scripts/demo-upstream.mjs) in this process, so it ends with the server; a port already taken is
//   reported and the server starts anyway.
// - `wharf build` and `wharf check` run the command line compiled by esbuild into .wharf/dist/cli
//   (scripts/cli-dist.mjs: bundled again whenever a source it holds changed), with no TypeScript
//   loader; WHARF_CLI_SOURCES=1 runs the sources instead. Every other command registers tsx and runs
//   the CLI from the TypeScript sources (the generated route modules are not loaded through tsx:
//   esbuild bundles them). `wharf build` then also
//   compiles runtime/ into .wharf/dist (scripts/runtime-dist.mjs), with the console's validator
//   (.wharf/dist/validator/), which `wharf dev` and a start from the sources also bring up to date.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRuntime, buildValidator, DIST_MAIN, isDistCurrent } from './runtime-dist.mjs';

const argv = process.argv.slice(2);
const [command, ...rest] = argv;

/** The build commands run the compiled command line (scripts/cli-dist.mjs); the others the sources through tsx. */
const COMPILED_COMMANDS = new Set(['build', 'check']);

async function runCli() {
  const compiled = COMPILED_COMMANDS.has(command) && process.env.WHARF_CLI_SOURCES !== '1' ? await (await import('./cli-dist.mjs')).compiledCli() : null;
  if (compiled) {
    await (await import(compiled)).finished;
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  const { finished } = await import('../compiler/cli/main.ts');
  await finished;
}

if (command === 'start') {
  const { values } = parseArgs({ args: rest, options: { build: { type: 'boolean' }, root: { type: 'string' }, 'no-docs': { type: 'boolean' }, 'demo-upstream': { type: 'boolean' } }, strict: false });
  if (values.build) {
    const build = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'build', ...(values.root ? ['--root', String(values.root)] : []), ...(values['no-docs'] ? ['--no-docs'] : [])], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const serverArgs = rest.filter((a) => a !== '--build' && a !== '--demo-upstream');
  if (values['demo-upstream']) {
    const { startDemoUpstream } = await import('./demo-upstream.mjs');
    await startDemoUpstream({ unref: true });
  }
  if (await isDistCurrent()) {
    process.setSourceMapsEnabled(true);
    const { main } = await import(DIST_MAIN);
    await main(serverArgs).catch((error) => {
      process.stderr.write(`wharf: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    });
  } else {
    process.stderr.write('The compiled runtime (.wharf/dist) is missing or stale: run `wharf build`. Running the TypeScript sources.\n');
    process.argv.splice(3, process.argv.length - 3, ...serverArgs);
    await buildValidator();
    await runCli();
  }
} else {
  if (command === 'dev') await buildValidator();
  await runCli();
  if (command === 'build' && !process.exitCode) {
    const result = await buildRuntime();
    const validator = await buildValidator();
    process.stdout.write(
      result.upToDate && validator.upToDate
        ? `Compiled runtime in .wharf/dist is up to date (${result.files} files).\n`
        : `Compiled runtime into .wharf/dist in ${result.ms + validator.ms} ms (${result.written + validator.written} file(s) written).\n`,
    );
  }
}
