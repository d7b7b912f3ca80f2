/**
 * vitest globalSetup: find (or, as root with apt, install once) the real parts the tests run,
 * and hand their paths to the test workers (WHARF_PARTS, read by partPath()); and bring the
 * console's validator (.wharf/dist/validator/, scripts/runtime-dist.mjs) up to date, as `wharf build`
 * does, for the tests that call the console's validate route.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureSystemParts } from './system-parts.js';

const RUNTIME_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../scripts/runtime-dist.mjs');

export default async function setup(): Promise<void> {
  ensureSystemParts();
  const dist = (await import(pathToFileURL(RUNTIME_DIST).href)) as { buildValidator(): Promise<unknown> };
  await dist.buildValidator();
}
