/** A real gateway process (`wharf start --port 0`) for multi-process tests; resolves with its URL. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './project.js';

export const WHARF_CLI = path.join(REPO_ROOT, 'scripts/wharf.mjs');

export interface GatewayProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything the process wrote so far (standard output and standard error). */
  output(): string;
}

/** `port` 0 (default) = a free one; a fixed port lets a test restart an instance where a load balancer expects it. */
export function startGatewayProcess(root: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000, port = 0): Promise<GatewayProcess> {
  const child = spawn(process.execPath, [WHARF_CLI, 'start', '--root', root, '--port', String(port), ...(port ? ['--host', '127.0.0.1'] : [])], { cwd: root, env });
  return new Promise((resolve, reject) => {
    let out = '';
    // a process that did not start is killed: the caller never gets it, so nothing else would
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gateway did not start:\n${out}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Wharf is serving \d+ endpoints on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] as string, output: () => out });
      }
    });
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${out}${err}`)));
  });
}
