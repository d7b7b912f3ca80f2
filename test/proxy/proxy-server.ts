/** A Wharf test server with Proxy endpoints pointing at a loopback upstream (see upstream-server.ts). */
import type { EndpointSpec } from '../../runtime/testing/generated-fixture.js';
import { createTestServer } from '../../runtime/testing/test-server.js';
import type { TestServer } from '../../runtime/testing/test-server.js';

export function proxy(routePath: string, model: Record<string, unknown>, methods?: EndpointSpec['methods']): EndpointSpec {
  return { kind: 'proxy', routePath, overrides: model, ...(methods ? { methods } : {}) };
}

export async function proxyServer(
  endpoints: readonly EndpointSpec[],
  proxySettings: Record<string, unknown> = {},
  extra: { caching?: boolean; environments?: Record<string, unknown> } = {},
): Promise<TestServer> {
  return createTestServer({
    generated: { endpoints },
    serverSettings: {
      Environment: { ServerName: 'test', AllowedEnvironments: ['demo', 'prod'] },
      RateLimiting: { Enabled: false },
      Caching: { Enabled: extra.caching ?? false },
      Proxy: { ConnectTimeoutMs: 1000, HeadersTimeoutMs: 400, BodyTimeoutMs: 400, ...proxySettings },
    },
    ...(extra.environments ? { environments: extra.environments } : {}),
  });
}
