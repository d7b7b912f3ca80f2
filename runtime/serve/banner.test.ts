import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../server.js';
import type { StartedServer } from '../start.js';
import { createTestServer, type TestServer } from '../testing/test-server.js';
import { banner } from './banner.js';
import { gatewayOf } from '../gateway-handle.js';

const URL = 'http://127.0.0.1:1';
const consoleLine = (app: StartedServer['app']): string | undefined =>
  banner({ url: URL, app, close: async () => {} } as unknown as StartedServer).find((line) => line.startsWith('  Console'));

describe('the banner', () => {
  let first: TestServer;
  beforeAll(async () => {
    first = await createTestServer({ generated: { endpoints: [] } });
  });
  afterAll(() => first.close());

  it('points to the one-time password only on the instance that created the administrator and logged it', async () => {
    const created = gatewayOf(first.app).console.firstAdmin!;
    expect(created.oneTimePassword).toBeTruthy();
    expect(consoleLine(first.app)).toBe(`  Console        ${URL}/ui/ (sign in as ${created.username} with the one-time password shown below; API: ${URL}/ui/api, docs/console-api.md)`);
    expect(first.logs.lines().some((line) => String(line['msg']).includes(created.oneTimePassword!))).toBe(true);

    // another instance on the same store (or a restart): no administrator created, no such log line
    const second = await buildServer({
      generatedDir: first.project.generatedDir,
      environmentsDir: first.project.environmentsDir,
      dataDir: path.join(first.project.root, 'data'),
      env: {},
      logger: false,
    });
    try {
      expect(gatewayOf(second).console.firstAdmin).toBeNull();
      expect(consoleLine(second)).toBe(`  Console        ${URL}/ui/ (sign in with an existing console account; npx wharf accounts manages them; API: ${URL}/ui/api, docs/console-api.md)`);
    } finally {
      await second.close();
    }
  });

  it('lists the readiness probe beside liveness', () => {
    const lines = banner({ url: URL, app: first.app, close: async () => {} } as unknown as StartedServer);
    expect(lines).toContain(`  Readiness      ${URL}/health/ready`);
  });
});
