import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BatchedOutput } from './batched-output.js';

function recorder(): { writes: string[]; out: NodeJS.WritableStream } {
  const writes: string[] = [];
  return { writes, out: { write: (chunk: string) => writes.push(chunk) > 0 } as unknown as NodeJS.WritableStream };
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('BatchedOutput', () => {
  it('writes the lines of one event-loop turn in one write, in order, after the turn', async () => {
    const { writes, out } = recorder();
    const output = new BatchedOutput(out);
    output.write('{"a":1}\n');
    output.write(Buffer.from('{"b":2}\n'));
    output.write('{"c":3}\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n']);
    output.write('{"d":4}\n');
    await nextTurn();
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n', '{"d":4}\n']);
    await nextTurn();
    expect(writes).toHaveLength(2); // nothing pending: no empty write
  });

  it('writes at once when the batch reaches its size bound', () => {
    const { writes, out } = recorder();
    const output = new BatchedOutput(out, 16);
    output.write('0123456789\n');
    expect(writes).toEqual([]);
    output.write('abcdefghij\n');
    expect(writes).toEqual(['0123456789\nabcdefghij\n']);
  });

  it('writes every pending line when the process exits in the same turn', () => {
    const module = fileURLToPath(new URL('./batched-output.ts', import.meta.url));
    const script = `
      const { batchedStdout } = await import(${JSON.stringify(module)});
      for (let i = 0; i < 1000; i++) batchedStdout().write('{"line":' + i + '}\\n');
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.status).toBe(3);
    const lines = child.stdout.trim().split('\n');
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toBe('{"line":999}');
  });
});
