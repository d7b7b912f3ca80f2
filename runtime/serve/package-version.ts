/**
 * The gateway's version (package.json `version`), found by walking up from this module: the same
 * code runs from runtime/ (sources) and from .wharf/dist/runtime/ (compiled), which sit at
 * different depths below the package root.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wharf' && typeof pkg.version === 'string') return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

export const PACKAGE_VERSION = findVersion();

/** `0.1.0+<first 12 of the generated/ source hash>`. */
export function versionWithBuild(sourceHash: string): string {
  return `${PACKAGE_VERSION}+${sourceHash.slice(0, 12)}`;
}
