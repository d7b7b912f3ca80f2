/**
 * `wharf sync` reads the `Section__Key` variables over environments/sync.json through the settings
 * registry, like the gateway: Health__Port moves the health routes; a malformed or unknown variable
 * stops the start with its name. (Before, the sync service ignored every such variable.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSync, type RunningSync } from '../../runtime/sync/run.js';
import { freePort } from '../setup/free-port.js';
import { projectWith } from './sync-fixture.js';

let running: RunningSync | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('sync settings overrides', () => {
  it('Health__Enabled and Health__Port override environments/sync.json', async () => {
    const root = await projectWith({}, { Health: { Enabled: false, Port: 1 } });
    const port = await freePort();
    running = await startSync({ root, logLevel: 'silent', env: { Health__Enabled: 'true', Health__Port: String(port) } });
    expect(running.healthUrl).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${running.healthUrl}/`)).status).toBe(200);
  });

  it.each([
    ['a malformed value', { Health__Port: 'abc' }, "Setting 'Health:Port' (from environment variable Health__Port) must be a whole number"],
    ['a value out of range', { Health__Port: '70000' }, "Setting 'Health:Port' (from environment variable Health__Port) must be 65535 or less"],
    ['an unknown key', { DeadLetters__RetentionDay: '3' }, "Setting 'DeadLetters:RetentionDay' (from environment variable DeadLetters__RetentionDay) is not a known setting. Did you mean 'DeadLetters:RetentionDays'?"],
  ] as const)('%s stops the start naming the variable', async (_name, env, message) => {
    const root = await projectWith({});
    await expect(startSync({ root, logLevel: 'silent', env })).rejects.toThrow(message);
  });
});
