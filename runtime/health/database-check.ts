/**
 * Database: every allowed environment's database answers `SELECT 1` within the timeout (5 s).
 * Uses the server's SQL drivers when it has them (shared pools), else a driver opened for the probe.
 * data: connectionString "Configured", responseTime (slowest), and per environment its responseTime
 * or error. Connection strings never appear (an error message quoting one is cut).
 */
import type { SqlDriver } from '../sql/drivers/driver.js';
import { createSqlDriver } from '../sql/drivers/factory.js';
import type { SqlDrivers } from '../sql/drivers/factory.js';
import type { EnvironmentConfig } from '../settings/environments.js';
import type { HealthCheck } from './health-check.js';
import { formatDuration } from './health-check.js';

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`No answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Response time in ms; null for an embedded database not started yet (probing would start it). */
async function probe(env: EnvironmentConfig, drivers: () => SqlDrivers | null, timeoutMs: number): Promise<number | null> {
  const started = performance.now();
  const shared = drivers();
  if (env.provider === 'embedded' && !shared?.has(env.name)) return null;
  const run = async (): Promise<void> => {
    let driver: SqlDriver | null = null;
    try {
      driver = shared ? await shared.get(env.name, env) : await createSqlDriver(env, { requestTimeoutMs: timeoutMs, pool: { min: 0, max: 1 } });
      await driver.query('SELECT 1', []);
    } finally {
      if (!shared) await driver?.close();
    }
  };
  await withTimeout(run(), timeoutMs);
  return performance.now() - started;
}

function safeMessage(error: unknown, env: EnvironmentConfig): string {
  const message = error instanceof Error ? error.message : String(error);
  return env.connectionString && message.includes(env.connectionString) ? 'connection failed' : message;
}

/** `envs`: the allowed environments (the health area's slice). */
export function databaseCheck(envs: readonly EnvironmentConfig[], drivers: () => SqlDrivers | null, timeoutMs: number): HealthCheck {
  return {
    name: 'Database',
    tags: ['database', 'sql'],
    async run() {
      if (envs.length === 0) return { status: 'Healthy', description: 'No database environments are configured', data: { connectionString: 'Not configured' } };
      const results = await Promise.all(
        envs.map(async (env) => {
          try {
            return { env, ms: await probe(env, drivers, timeoutMs), error: null as string | null };
          } catch (error) {
            return { env, ms: null as number | null, error: safeMessage(error, env) };
          }
        }),
      );
      const environments: Record<string, unknown> = {};
      for (const result of results) {
        environments[result.env.name] =
          result.error !== null
            ? { status: 'Unhealthy', error: result.error }
            : result.ms === null
              ? { status: 'Healthy', note: 'embedded database starts with its first request' }
              : { status: 'Healthy', responseTime: formatDuration(result.ms) };
      }
      const slowest = Math.max(0, ...results.map((result) => result.ms ?? 0));
      const failed = results.filter((result) => result.error !== null);
      const data = { connectionString: 'Configured', responseTime: formatDuration(slowest), environments };
      if (failed.length === 0) return { status: 'Healthy', description: 'All database connections are working', data };
      return {
        status: 'Unhealthy',
        description: `Database connection failed for: ${failed.map((result) => result.env.name).join(', ')}`,
        data: { ...data, error: failed.map((result) => `${result.env.name}: ${result.error}`).join('; ') },
      };
    },
  };
}
