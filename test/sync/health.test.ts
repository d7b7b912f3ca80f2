/**
 * The sync health routes (spec 3 part B) on a real listening port, field by field: the index,
 * /health (real probes, `ok (all)` / `degraded (n/m)` / `failed (all)`, a database that stops
 * answering hits the 5 s timeout, caching), /health/connections (background prober, database and
 * RabbitMQ keys), /health/state and /health/state/{environment} (404), /health/deadletters
 * (zeros while sinkhole.db does not exist).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { freePort } from '../setup/free-port.js';
import { installOutbox, pgEnvironment, projectWith, sql, until } from './sync-fixture.js';

let primary: TestPostgres;
let secondary: TestPostgres;
let sync: RunningSync;
let root: string;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function get(route: string, on: RunningSync = sync): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const response = await fetch(`${on.healthUrl}${route}`);
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

async function postmasterPid(db: TestPostgres): Promise<number> {
  const dir = (await sql(db.url, 'SHOW data_directory')).rows[0].data_directory as string;
  const { readFile } = await import('node:fs/promises');
  return Number((await readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
}

beforeAll(async () => {
  [primary, secondary] = await Promise.all([startPostgres(), startPostgres()]);
  await Promise.all([installOutbox(primary.url), installOutbox(secondary.url)]);
  const closedPort = await freePort();
  root = await projectWith(
    {
      staging: pgEnvironment(primary.url, [{ Type: 'File', Key: 'files', Path: 'out/{object}/{version}.json' }]),
      backup: pgEnvironment(secondary.url, [{ Type: 'RabbitMQ', Key: 'events', Url: `amqp://guest:guest@127.0.0.1:${closedPort}`, Exchange: 'x' }]),
    },
    { Health: { Port: 0, CacheDurationSeconds: 0, FirstProbeDelaySeconds: 0.2 } },
  );
  sync = await startSync({ root, logLevel: 'silent' });
  await until('both objects have state', () => sync.service.state.all().length === 2);
});

afterAll(async () => {
  await sync?.close();
  await Promise.all([primary?.stop(), secondary?.stop()]);
});

describe('sync health routes', () => {
  it('binds to 127.0.0.1 and answers / with the JSON index', async () => {
    expect(sync.healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await get('/')).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: {
        service: 'wharf-sync',
        routes: { health: '/health', connections: '/health/connections', state: '/health/state', environment_state: '/health/state/{environment}', deadletters: '/health/deadletters' },
      },
    });
  });

  it('/health: healthy while every database answers', async () => {
    const { status, body } = await get('/health');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['checks', 'service', 'status', 'timestamp', 'uptime', 'version']);
    expect(body).toMatchObject({ status: 'healthy', service: 'wharf-sync', version: '0.1.0', checks: { database: { status: 'ok (all)' } } });
    expect(body['uptime']).toMatch(/^\d+d \d+h \d+m \d+s$/);
    expect(body['timestamp']).toMatch(ISO);
    expect(Object.keys((body['checks'] as { database: object }).database).sort()).toEqual(['response_time_ms', 'status']);
    expect(typeof (body['checks'] as { database: { response_time_ms: unknown } }).database.response_time_ms).toBe('number');
  });

  it('/health/connections: databases healthy, the unreachable broker not', async () => {
    const { body } = await until('first probe round', async () => {
      const r = await get('/health/connections');
      return Object.keys(r.body).length === 3 ? r : null;
    });
    expect(Object.keys(body)).toEqual(['rabbitmq:events', 'sql:backup/main', 'sql:staging/main']);
    expect(body['sql:staging/main']).toEqual({ is_healthy: true, last_error: null });
    expect(body['sql:backup/main']).toEqual({ is_healthy: true, last_error: null });
    expect(body['rabbitmq:events']).toMatchObject({ is_healthy: false });
    expect((body['rabbitmq:events'] as { last_error: string }).last_error).toMatch(/^1 consecutive failure\(s\): .*ECONNREFUSED/);
  });

  it('/health/state and /health/state/{environment}', async () => {
    const { status, body } = await get('/health/state');
    expect(status).toBe(200);
    expect(body['timestamp']).toMatch(ISO);
    expect(body['total_environments']).toBe(2);
    const envs = body['environments'] as { name: string; object_count: number; objects: Record<string, unknown>[] }[];
    expect(envs.map((e) => [e.name, e.object_count])).toEqual([['backup', 1], ['staging', 1]]);
    expect(envs[1]?.objects).toEqual([{ object_name: 'Products', stored_procedure_name: 'sync.ProductChanges', last_version: 0, last_updated: expect.stringMatching(ISO) }]);
    const one = await get('/health/state/staging');
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(['environment', 'object_count', 'objects', 'timestamp']);
    expect(one.body).toMatchObject({ environment: 'staging', object_count: 1, objects: envs[1]?.objects });
    expect(await get('/health/state/nowhere')).toEqual({
      status: 404,
      type: 'application/json; charset=utf-8',
      body: { success: false, error: "No sync state is stored for environment 'nowhere'" },
    });
  });

  it('/health/deadletters: zeros while sinkhole.db does not exist', async () => {
    expect(existsSync(path.join(root, 'data', 'sync', 'sinkhole.db'))).toBe(false);
    expect(await get('/health/deadletters')).toEqual({
      status: 200,
      type: 'application/json; charset=utf-8',
      body: { TotalCount: 0, LastHourCount: 0, Last24HoursCount: 0, Last7DaysCount: 0, MostCommonError: '', MostCommonErrorCount: 0 },
    });
  });

  it('/health: a database that stops answering -> degraded (1/2); both gone -> failed (all); still HTTP 200', async () => {
    const pid = await postmasterPid(secondary);
    process.kill(pid, 'SIGSTOP');
    try {
      const { status, body } = await get('/health');
      expect(status).toBe(200);
      expect(body).toMatchObject({ status: 'degraded', checks: { database: { status: 'degraded (1/2)' } } });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await get('/health')).body).toMatchObject({ status: 'healthy', checks: { database: { status: 'ok (all)' } } });
    await Promise.all([primary.stop(), secondary.stop()]);
    const { status, body } = await get('/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'degraded', checks: { database: { status: 'failed (all)' } } });
  }, 30_000);

  it('/health is cached for Health:CacheDurationSeconds', async () => {
    const cachedRoot = await projectWith({ staging: pgEnvironment('postgres://postgres@127.0.0.1:1/none', [{ Type: 'File', Key: 'f', Path: 'o/{version}.json' }]) }, { Health: { Port: 0, CacheDurationSeconds: 300 } });
    const other = await startSync({ root: cachedRoot, logLevel: 'silent' });
    try {
      const first = await get('/health', other);
      const second = await get('/health', other);
      expect(first.body).toMatchObject({ status: 'degraded', checks: { database: { status: 'failed (all)' } } });
      expect(second.body['timestamp']).toBe(first.body['timestamp']);
    } finally {
      await other.close();
    }
  });
});
