/**
 * `npm test`'s first step (the pretest script): the same check as the vitest globalSetup, run before
 * the drift check and the typecheck so a machine without the system packages stops in seconds with
 * one message naming the install command.
 */
import { ensureSystemParts } from './system-parts.js';

try {
  ensureSystemParts();
} catch (error) {
  process.stderr.write(`\n${(error as Error).message}\n\n`);
  process.exit(1);
}
