/**
 * vitest globalSetup: find (or, as root with apt, install once) the real parts the tests run,
 * and hand their paths to the test workers (WHARF_PARTS, read by partPath()).
 */
import { ensureSystemParts } from './system-parts.js';

export default function setup(): void {
  ensureSystemParts();
}
