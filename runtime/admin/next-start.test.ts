import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSource } from '../settings/config-source.js';
import { nextStartProblem } from './next-start.js';

let dir: string;
const running = ConfigSource.from({}, 'environments/settings.json', {});
const none = new Map();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wharf-next-start-'));
  // several workers with their shared stores, the response cache off
  await writeFile(
    path.join(dir, 'settings.json'),
    JSON.stringify({ Server: { Workers: 2 }, Redis: { Url: 'redis://127.0.0.1:1' }, Auth: { Store: { Provider: 'Postgres' } }, Caching: { Enabled: false } }),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('nextStartProblem', () => {
  it('null when the next start would start', () => {
    expect(nextStartProblem(dir, { RateLimiting: { IpLimit: 5 } }, {}, running, none)).toBeNull();
  });

  it('names Server:Workers when Caching:Enabled would give each worker its own Memory cache', () => {
    expect(nextStartProblem(dir, { Caching: { Enabled: true } }, {}, running, none)).toEqual({
      key: 'Server:Workers',
      message: expect.stringMatching(/^Setting 'Server:Workers' \(from .*settings.json\) is 2: Caching:Provider must be Redis/),
    });
  });

  it('names the pool size when the saved maximum is below the new minimum', () => {
    expect(nextStartProblem(dir, { SqlConnectionPooling: { MaxPoolSize: 10, MinPoolSize: 50 } }, { SqlConnectionPooling: { MaxPoolSize: 10 } }, running, none)).toMatchObject({
      key: 'SqlConnectionPooling:MinPoolSize',
    });
  });

  it('null when the saved overrides already stop the start the same way (not this change)', () => {
    const broken = { Caching: { Enabled: true } };
    expect(nextStartProblem(dir, { ...broken, RateLimiting: { IpLimit: 5 } }, broken, running, none)).toBeNull();
  });

  it('reads the variables the instance started with: Server__Workers=1 there makes it start', () => {
    const withOne = ConfigSource.from({}, 'environments/settings.json', { Server__Workers: '1' });
    expect(nextStartProblem(dir, { Caching: { Enabled: true } }, {}, withOne, none)).toBeNull();
  });
});
