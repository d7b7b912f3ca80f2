/**
 * writeFileAtomic under kill -9: a child process rewrites an environment file in a loop and is
 * killed with SIGKILL at arbitrary moments; the file is always exactly the old or the new content
 * (valid JSON), never torn, and `.bak` holds a complete earlier version.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './atomic-file.js';

const dir = mkdtempSync(path.join(tmpdir(), 'wharf-atomic-'));
const writer = fileURLToPath(new URL('../../test/admin/fixtures/atomic-writer.ts', import.meta.url));
const content = (tag: string) => `${JSON.stringify({ Provider: 'postgres', ConnectionString: `Host=${tag}`, Padding: tag.repeat(200_000) }, null, 2)}\n`;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('keeps a .bak of the previous version', async () => {
    const file = path.join(dir, 'plain.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe('one');
  });

  it('leaves the old or the new file after kill -9, never a torn one', async () => {
    const a = content('a');
    const b = content('b');
    const file = path.join(dir, 'settings.json');
    writeFileSync(file, a);
    writeFileSync(path.join(dir, 'a.src'), a);
    writeFileSync(path.join(dir, 'b.src'), b);
    for (let run = 0; run < 5; run++) {
      const child = spawn(process.execPath, ['--import', 'tsx', writer, file, path.join(dir, 'a.src'), path.join(dir, 'b.src')], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20 + run * 37)); // somewhere inside a later write
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      const now = readFileSync(file, 'utf8');
      expect(now === a || now === b, `run ${run}: torn file of ${now.length} bytes`).toBe(true);
      const backup = readFileSync(`${file}.bak`, 'utf8');
      expect(backup === a || backup === b, `run ${run}: torn backup`).toBe(true);
    }
  }, 120_000);
});
