import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointModel } from '../testing/generated-fixture.js';
import type { ProxyEndpoint } from '../contract/model.js';
import { startUpstream } from '../../test/proxy/upstream-server.js';
import type { Upstream } from '../../test/proxy/upstream-server.js';
import { freePort } from '../../test/setup/free-port.js';
import { checkReachability } from './reachability.js';
import { createUpstreamAgent } from './upstream-agent.js';
import { NetworkPolicy, DEFAULT_BLOCKED_RANGES } from './network-policy.js';
import { readProxySettings } from './proxy-settings.js';
import { ConfigSource } from '../settings/config-source.js';
import { UpstreamClient } from './upstream-client.js';

let upstream: Upstream;
let client: UpstreamClient;

beforeAll(async () => {
  upstream = await startUpstream();
  const settings = readProxySettings(ConfigSource.from({}, 'test', {}));
  const policy = new NetworkPolicy({ allowedHosts: [], blockedIpRanges: DEFAULT_BLOCKED_RANGES });
  client = new UpstreamClient(createUpstreamAgent(settings, policy), policy, settings);
});

afterAll(async () => {
  await client.agent.destroy();
  await upstream.close();
});

const endpoint = (url: string) => endpointModel({ kind: 'proxy', routePath: 'R', overrides: { url } }) as ProxyEndpoint;

describe('checkReachability', () => {
  it.each([
    ['a 2xx answer', '/echo/health', { reachable: true, status: 200, failure: null }],
    ['a 404 answer (the service is up)', '/nowhere', { reachable: true, status: 404, failure: null }],
    ['a 503 answer', '/status/503', { reachable: false, status: 503, failure: null }],
    ['no answer in time', '/hang', { reachable: false, status: null, failure: 'timeout' }],
  ])('%s', async (_name, path, want) => {
    const got = await checkReachability(client, endpoint(`${upstream.origin}${path}`), { timeoutMs: 300 });
    expect({ reachable: got.reachable, status: got.status, failure: got.failure }).toEqual(want);
  });

  it('reports refused connections and blocked targets', async () => {
    const refused = await checkReachability(client, endpoint(`http://127.0.0.1:${await freePort()}/`), { timeoutMs: 1000 });
    expect(refused.failure).toBe('connection');
    const blocked = await checkReachability(client, endpoint('http://169.254.169.254/'), { timeoutMs: 1000 });
    expect(blocked).toMatchObject({ reachable: false, failure: 'blocked' });
  });
});
