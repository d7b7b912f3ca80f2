/**
 * The VitePress baseline of the docs bench: builds the same Markdown folder with VitePress
 * (local search on, like ours) and returns the wall time. VitePress lives only in the git-ignored
 * folder bench/.vitepress-baseline/ with its own package.json, installed there by `npm install`
 * on first use; it is never a dependency of Wharf. Returns a reason instead of a time when
 * VitePress cannot be installed or fails (offline machine), so the bench still prints our figures.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VITEPRESS_VERSION = '1.6.4';
const folder = join(dirname(fileURLToPath(import.meta.url)), '.vitepress-baseline');

function run(command: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<void> {
  return new Promise((resolveRun, reject) => {
    execFile(command, [...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${String(stderr || error.message).trim().split('\n').slice(-3).join(' | ')}`)) : resolveRun(),
    );
  });
}

async function ensureInstalled(): Promise<string> {
  const bin = join(folder, 'node_modules', 'vitepress', 'bin', 'vitepress.js');
  if (existsSync(bin)) return bin;
  mkdirSync(folder, { recursive: true });
  const manifest = { name: 'wharf-bench-vitepress-baseline', private: true, description: 'Written by bench/vitepress-baseline.ts; git-ignored; never a Wharf dependency.', dependencies: { vitepress: VITEPRESS_VERSION } };
  writeFileSync(join(folder, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], folder, 600_000);
  return bin;
}

export async function vitepressBuildMs(docsDir: string): Promise<{ ms: number } | { skipped: string }> {
  let bin: string;
  try {
    bin = await ensureInstalled();
  } catch (error) {
    return { skipped: `VitePress could not be installed in ${folder}: ${(error as Error).message}` };
  }
  const site = join(folder, 'site');
  rmSync(site, { recursive: true, force: true });
  cpSync(docsDir, site, { recursive: true });
  mkdirSync(join(site, '.vitepress'), { recursive: true });
  writeFileSync(join(site, '.vitepress', 'config.mjs'), "export default { title: 'Bench', themeConfig: { search: { provider: 'local' } } };\n");
  try {
    const started = performance.now();
    await run(process.execPath, [bin, 'build', site], folder, 900_000);
    return { ms: performance.now() - started };
  } catch (error) {
    return { skipped: `VitePress build failed: ${(error as Error).message}` };
  } finally {
    rmSync(site, { recursive: true, force: true });
  }
}
