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
    ['a 2xx answer', '/echo/health', { reachable: true, status: 200, reasonPhrase: 'OK', failure: null, error: null }],
    ['a 401 answer (up, wants credentials; spec 2)', '/status/401', { reachable: true, status: 401, reasonPhrase: 'Unauthorized', failure: null, error: null }],
    ['a 404 answer', '/nowhere', { reachable: false, status: 404, reasonPhrase: 'Not Found', failure: null, error: null }],
    ['a 503 answer', '/status/503', { reachable: false, status: 503, reasonPhrase: 'Service Unavailable', failure: null, error: null }],
    ['no answer in time', '/hang', { reachable: false, status: null, reasonPhrase: null, failure: 'timeout', error: 'No answer within 300 ms' }],
  ])('%s', async (_name, path, want) => {
    // 300 ms only where no answer is the case; an answer may be late on a loaded machine (a cold first request)
    const timeoutMs = path === '/hang' ? 300 : 5000;
    expect(await checkReachability(client, endpoint(`${upstream.origin}${path}`), { timeoutMs })).toEqual(want);
  });

  it('reports refused connections and blocked targets', async () => {
    const refused = await checkReachability(client, endpoint(`http://127.0.0.1:${await freePort()}/`), { timeoutMs: 1000 });
    expect(refused).toMatchObject({ reachable: false, failure: 'connection', error: 'ECONNREFUSED' });
    const blocked = await checkReachability(client, endpoint('http://169.254.169.254/'), { timeoutMs: 1000 });
    expect(blocked).toMatchObject({ reachable: false, failure: 'blocked', error: 'Blocked by the network access policy' });
  });
});
