/** The esbuild options both generated bundles share: byte-deterministic ESM for Node 20, no source map. */
import type { BuildOptions } from 'esbuild';

export const BUNDLE_OPTIONS = {
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  charset: 'utf8',
  logLevel: 'silent',
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
} as const satisfies BuildOptions;
