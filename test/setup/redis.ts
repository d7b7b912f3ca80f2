/**
 * A real, throw-away redis-server for tests: loopback only, a free port, no persistence.
 *   const redis = await startRedis();  ...  await redis.stop();
 * The redis-server binary comes from test/setup/system-parts.ts (found, or installed by npm test).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';
import { partPath } from './system-parts.js';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing until thaw(). */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
}



function waitForReady(child: ChildProcess, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`redis-server exited with ${code}:\n${output}`));
    function cleanup(): void {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    }
    function fail(error: Error): void {
      cleanup();
      child.kill('SIGKILL');
      reject(error);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** `port`: start on this port (e.g. again after stop(), to test reconnection); default a free one. */
export async function startRedis(options: { port?: number } = {}): Promise<TestRedis> {
  const port = options.port ?? (await freePort());
  const child = spawn(
    partPath('redis'),
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await waitForReady(child, 10_000);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGCONT'); // a frozen server cannot handle SIGTERM
        child.kill('SIGTERM');
      }),
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
  };
}
