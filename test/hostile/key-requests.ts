/** Requests of the record-key tests (write-key-range.test.ts, key-kind.test.ts) and the SQL they ran. */
import { vi } from 'vitest';
import type { SqlTestServer } from '../sql/http-server.js';

export type KeyMethod = 'GET' | 'HEAD' | 'PUT' | 'PATCH' | 'MERGE' | 'DELETE';

/** One request with the server's all-access token; a payload is sent as JSON. */
export async function sendAs(server: SqlTestServer, method: KeyMethod, url: string, payload?: unknown) {
  return server.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: server.authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** The SQL statements the request ran on the environment's driver that name `object` (catalogue reads name it only as a parameter). */
export async function sqlNaming(server: SqlTestServer, env: string, object: string, request: () => Promise<unknown>): Promise<string[]> {
  const driver = server.drivers.ready(env);
  if (driver === undefined) throw new Error(`driver ${env} not started`);
  const spy = vi.spyOn(driver, 'query');
  try {
    await request();
    return spy.mock.calls.map(([sql]) => sql).filter((sql) => sql.includes(object));
  } finally {
    spy.mockRestore();
  }
}
