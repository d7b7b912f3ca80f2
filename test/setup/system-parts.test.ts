/**
 * Finding the real parts the tests run, and the one message a machine without them gets:
 * fake executables in temp dirs stand in for PATH and the Debian locations.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPart, findParts, missingMessage } from './system-parts.js';

const root = mkdtempSync(path.join(tmpdir(), 'wharf-parts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function exe(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

const bin = path.join(root, 'bin');
const debian = path.join(root, 'debian');
exe(path.join(bin, 'redis-server'));
exe(path.join(bin, 'chromium-browser'));
exe(path.join(bin, 'curl'));
exe(path.join(debian, 'postgresql/13/bin/initdb'));
exe(path.join(debian, 'postgresql/13/bin/pg_ctl'));
exe(path.join(debian, 'postgresql/16/bin/initdb'));
exe(path.join(debian, 'postgresql/16/bin/pg_ctl'));
exe(path.join(debian, 'postgresql/9/bin/initdb')); // no pg_ctl beside it: not a usable install
mkdirSync(path.join(root, 'linked'));
symlinkSync(path.join(debian, 'postgresql/13/bin/initdb'), path.join(root, 'linked/initdb'));
writeFileSync(path.join(bin, 'rabbitmq-server'), 'not executable');

describe('findPart', () => {
  const dirs = `${debian}/postgresql/*/bin:${debian}/sbin`;
  const cases: Array<[string, { env: Record<string, string>; part: Parameters<typeof findPart>[0]; want: string | undefined }]> = [
    ['on PATH', { env: { PATH: bin, WHARF_PART_DIRS: dirs }, part: 'redis', want: path.join(bin, 'redis-server') }],
    ['second executable name', { env: { PATH: bin, WHARF_PART_DIRS: dirs }, part: 'chromium', want: path.join(bin, 'chromium-browser') }],
    ['PostgreSQL: highest version in the Debian glob', { env: { PATH: bin, WHARF_PART_DIRS: dirs }, part: 'postgres', want: path.join(debian, 'postgresql/16/bin') }],
    ['PostgreSQL: a PATH symlink resolves to the real bin dir', { env: { PATH: path.join(root, 'linked'), WHARF_PART_DIRS: dirs }, part: 'postgres', want: path.join(debian, 'postgresql/13/bin') }],
    ['not executable is not found', { env: { PATH: bin, WHARF_PART_DIRS: '' }, part: 'rabbitmq', want: undefined }],
    ['env override wins', { env: { PATH: bin, WHARF_REDIS_SERVER: '/opt/redis' }, part: 'redis', want: '/opt/redis' }],
  ];
  it.each(cases)('%s', (_name, { env, part, want }) => {
    expect(findPart(part, env)).toBe(want);
  });

  it('lists what is missing', () => {
    expect(findParts({ PATH: bin, WHARF_PART_DIRS: '' }).missing).toEqual(['postgres', 'rabbitmq', 'nginx', 'haproxy']);
  });
});

describe('the message for a machine without the parts', () => {
  it('names every missing part and the exact apt-get command', () => {
    expect(missingMessage(['redis', 'chromium'], false)).toBe(
      "Wharf's tests run Redis, Chromium for real, and they are not installed (searched PATH and the usual Debian locations).\n" +
        'Install with:  sudo apt-get update && sudo apt-get install -y --no-install-recommends redis-server chromium\n' +
        'then run npm test again.',
    );
  });

  it('npm test\'s first step exits 1 with that one message when nothing is found', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'test/setup/require-parts.ts'], {
      encoding: 'utf8',
      env: { PATH: path.join(root, 'empty'), WHARF_PART_DIRS: '', WHARF_TEST_INSTALL: '0', HOME: root },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Wharf\'s tests run PostgreSQL, Redis, Chromium, RabbitMQ, nginx, HAProxy, curl for real');
    expect(result.stderr).toContain('apt-get install -y --no-install-recommends postgresql redis-server chromium rabbitmq-server nginx haproxy curl');
    expect(result.stdout).toBe('');
  });
});
