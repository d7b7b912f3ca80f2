/**
 * Uploads against a real server process: a 200 MB upload streams to disk with the server's RSS
 * staying flat (no buffering of the file), and a server killed with SIGKILL in the middle of an
 * upload leaves nothing that a restarted server lists (its temp file is removed at startup).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { BOUNDARY, rawRequest } from './http-client.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MB = 1024 * 1024;
const SIZE = 200 * MB;

interface Child {
  readonly process: ChildProcess;
  readonly port: number;
  readonly token: string;
  readonly pid: number;
}

let project: TempProject;
const children: ChildProcess[] = [];

function startChild(): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'serve-project.ts'), project.root], {
    cwd: path.join(HERE, '..', '..'),
    env: { ...process.env, FileStorage__MaxFileSizeBytes: String(300 * MB) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ process: child, ...(JSON.parse(line) as { port: number; token: string; pid: number }) });
    });
    child.once('exit', (code) => reject(new Error(`server exited early (${code})`)));
  });
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** A multipart body of `size` bytes of file content, produced 1 MB at a time (never held whole). */
function multipartStream(name: string, size: number, stopAfter = Infinity): { stream: Readable; length: number } {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const chunk = Buffer.alloc(MB, 0x61);
  async function* generate() {
    yield head;
    for (let sent = 0; sent < size; sent += MB) {
      if (sent >= stopAfter) await new Promise(() => undefined); // hang: the caller kills the server
      yield chunk.subarray(0, Math.min(MB, size - sent));
    }
    yield tail;
  }
  return { stream: Readable.from(generate(), { objectMode: false }), length: head.length + size + tail.length };
}

/** `count` ignored text fields of 1 MB each, then a small file part (the body never held whole). */
function fieldsThenFile(name: string, count: number): { stream: Readable; length: number } {
  const field = (i: number) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note${i}"\r\n\r\n`);
  const value = Buffer.alloc(MB, 0x62);
  const crlf = Buffer.from('\r\n');
  const file = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\nsmall\r\n--${BOUNDARY}--\r\n`);
  async function* generate() {
    for (let i = 0; i < count; i++) yield Buffer.concat([field(i), value, crlf]);
    yield file;
  }
  let length = file.length;
  for (let i = 0; i < count; i++) length += field(i).length + value.length + crlf.length;
  return { stream: Readable.from(generate(), { objectMode: false }), length };
}

function upload(child: Child, name: string, size: number, stopAfter?: number, body = multipartStream(name, size, stopAfter)): { done: Promise<number>; request: http.ClientRequest } {
  const { stream, length } = body;
  let request!: http.ClientRequest;
  const done = new Promise<number>((resolve, reject) => {
    request = http.request(
      {
        host: '127.0.0.1',
        port: child.port,
        method: 'POST',
        path: '/api/demo/files/Open',
        agent: false,
        headers: { authorization: `Bearer ${child.token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    stream.pipe(request);
  });
  return { done, request };
}

/** Peak RSS growth of the server while `work` runs, over its RSS after a 1 MB warm-up upload. */
async function rssGrowthDuring<T>(child: Child, work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  expect(await upload(child, `warm-${child.pid}.dat`, MB).done).toBe(201);
  const baseline = rssBytes(child.pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(child.pid));
  }, 20);
  try {
    const result = await work();
    return { result, growth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

beforeAll(async () => {
  project = await createTempProject({
    generated: { endpoints: [{ kind: 'files', routePath: 'files/Open' }] },
    serverSettings: { Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] }, RateLimiting: { Enabled: false } },
    environments: { demo: { Provider: 'embedded', ConnectionString: 'embedded://demo' } },
  });
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await project.cleanup();
});

describe('upload through a real server process', () => {
  it('a 200 MB upload is streamed: the server RSS stays flat', async () => {
    const child = await startChild();
    const { result: status, growth } = await rssGrowthDuring(child, () => upload(child, 'big.dat', SIZE).done);
    expect(status).toBe(201);
    const stored = await fs.stat(path.join(project.root, 'data', 'files', 'demo', 'Open', 'big.dat'));
    expect(stored.size).toBe(SIZE);
    // buffering the file would add at least 200 MB; streaming stays within a few buffers
    expect(growth).toBeLessThan(64 * MB);
    child.process.kill('SIGKILL');
  }, 180_000);

  it('ignored text fields before the file are not kept in memory: four uploads with 45 fields of 1 MB each (was: all 180 MB held until the requests ended)', async () => {
    const child = await startChild();
    // four at once: kept, their fields would add 4 x 45 MB; read and dropped, only garbage the GC takes back
    const { result: statuses, growth } = await rssGrowthDuring(child, () =>
      Promise.all([0, 1, 2, 3].map((i) => upload(child, `after-fields-${i}.txt`, 0, undefined, fieldsThenFile(`after-fields-${i}.txt`, 45)).done)),
    );
    expect(statuses).toEqual([201, 201, 201, 201]);
    expect(growth).toBeLessThan(100 * MB);
    child.process.kill('SIGKILL');
  }, 120_000);

  it('SIGKILL mid-upload, restart: no partial file is listed and the temp file is gone', async () => {
    const dir = path.join(project.root, 'data', 'files', 'demo', 'Open');
    const child = await startChild();
    const partial = upload(child, 'partial.dat', 50 * MB, 10 * MB);
    partial.done.catch(() => undefined);
    const temps = async () => (await fs.readdir(dir)).filter((name) => name.startsWith('.wharf-upload-'));
    await waitFor(async () => {
      const names = await temps();
      return names.length > 0 && (await fs.stat(path.join(dir, names[0]!))).size > 5 * MB;
    });
    child.process.kill('SIGKILL');
    await new Promise((resolve) => child.process.once('exit', resolve));
    partial.request.destroy();
    expect((await temps()).length).toBe(1); // the crash left its temp file behind

    const restarted = await startChild();
    const list = await rawRequest(restarted.port, '/api/demo/files/Open/list', { headers: { authorization: `Bearer ${restarted.token}` } });
    const names = (list.json() as { value: { fileName: string }[] }).value.map((item) => item.fileName);
    expect(names).not.toContain('partial.dat');
    expect(await temps()).toEqual([]);
    expect((await fs.readdir(dir)).includes('partial.dat')).toBe(false);
    restarted.process.kill('SIGKILL');
  }, 120_000);
});
