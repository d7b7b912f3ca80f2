/**
 * A key set endpoint (Auth:Jwt:JwksUrl) that misbehaves, through the real server wiring: the issuer
 * is a real provider on loopback (test/setup/oidc.ts), the keys come from a plain HTTP server that
 * answers what a broken or hostile provider might: a key jose cannot use (an RSA modulus under 2048
 * bits), an endless body. Nothing may turn into a 500 or wait longer than it has to.
 */
import { generateKeyPairSync, createSign } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../runtime/server.js';
import { ECHO_HANDLERS } from '../../runtime/testing/echo-handlers.js';
import { createTempProject } from '../../runtime/testing/generated-fixture.js';
import type { TempProject } from '../../runtime/testing/generated-fixture.js';
import { DEFAULT_ENVIRONMENTS } from '../../runtime/testing/test-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';
import { startOidcProvider } from '../setup/oidc.js';
import type { LocalIdp } from '../setup/oidc.js';

const AUDIENCE = 'http://wharf.test/api';

type Mode = 'weak-key' | 'endless' | 'empty' | 'garbage';

describe('a key set endpoint that misbehaves', () => {
  let idp: LocalIdp;
  let fixture: TempProject;
  let keys: Server;
  let keysUrl = '';
  let mode: Mode = 'weak-key';
  let endlessBytes = 0;
  const dirs: string[] = [];
  const apps: FastifyInstance[] = [];
  // an RSA key jose refuses to verify with (modulus under 2048 bits), published by the "provider"
  const weak = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const weakJwk = { ...(weak.publicKey.export({ format: 'jwk' }) as Record<string, string>), kid: 'weak', alg: 'RS256', use: 'sig' };

  async function server(env: Record<string, string> = {}): Promise<FastifyInstance> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wharf-jwks-'));
    dirs.push(dataDir);
    const app = await buildServer({
      generatedDir: fixture.generatedDir,
      environmentsDir: fixture.environmentsDir,
      dataDir,
      env: { Auth__Jwt__Issuer: idp.issuer, Auth__Jwt__JwksUrl: keysUrl, ...env },
      logger: false,
      handlers: ECHO_HANDLERS,
    });
    apps.push(app);
    return app;
  }

  /** RS256 by hand (jose refuses to sign with a key under 2048 bits). */
  function weakToken(): string {
    const now = Math.floor(Date.now() / 1000);
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${part({ alg: 'RS256', kid: 'weak', typ: 'at+jwt' })}.${part({ iss: idp.issuer, aud: AUDIENCE, sub: 'weak', exp: now + 300, scope: 'read', wharf_envs: 'demo' })}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(weak.privateKey).toString('base64url')}`;
  }

  async function providerCheck(app: FastifyInstance, admin: string): Promise<{ status: string; data: Record<string, unknown> } | undefined> {
    const details = await app.inject({ url: '/health/details', headers: { authorization: `Bearer ${admin}` } });
    return (details.json() as { checks: { name: string; status: string; data: Record<string, unknown> }[] }).checks.find((c) => c.name === 'IdentityProvider');
  }

  beforeAll(async () => {
    idp = await startOidcProvider({ audience: AUDIENCE, scopes: ['read'], clients: [] });
    keys = createServer((_req, res) => {
      if (mode === 'garbage') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      }
      if (mode === 'empty') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
        return;
      }
      if (mode === 'weak-key') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [weakJwk] }));
        return;
      }
      // endless: a key set that never ends, as fast as the reader takes it
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":[');
      const chunk = ' '.repeat(64 * 1024);
      let open = true;
      res.on('close', () => (open = false));
      const pump = (): void => {
        while (open && res.write(chunk)) endlessBytes += chunk.length;
        if (open) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    keysUrl = `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`;
    fixture = await createTempProject({
      generated: { endpoints: [{ kind: 'sql', routePath: 'Sales/Orders', methods: ['GET'] }] },
      serverSettings: {
        Environment: { ServerName: 'test', AllowedEnvironments: ['demo'] },
        Auth: { Jwt: { Audience: AUDIENCE, EnvironmentsClaim: 'wharf_envs', KeysCooldownSeconds: 0 } },
        RateLimiting: { IpLimit: 1000, TokenLimit: 1000 },
        Caching: { Enabled: false },
      },
      environments: DEFAULT_ENVIRONMENTS,
    });
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    keys?.closeAllConnections();
    await new Promise((resolve) => keys?.close(resolve));
    await fixture?.cleanup();
    await idp?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a published key jose cannot verify with (RSA under 2048 bits): the token is refused with 401, never a 500', async () => {
    mode = 'weak-key';
    const app = await server();
    const response = await app.inject({ url: '/api/demo/Sales/Orders', headers: { authorization: `Bearer ${weakToken()}` } });
    expect([response.statusCode, response.json(), response.headers['www-authenticate']]).toEqual([
      401,
      { success: false, error: 'Invalid or expired token' },
      'Bearer error="invalid_token"',
    ]);
    // /health/details names the key
    const admin = (await gatewayOf(app).access.tokens.create({ username: 'health-weak', allowedScopes: '*', allowedEnvironments: '*' })).token;
    await gatewayOf(app).health.refresh();
    expect(await providerCheck(app, admin)).toMatchObject({ status: 'Degraded', data: { keys: 1, unusableKeys: ['weak'] } });
  });

  it('garbage instead of a key set (an HTML page): 503, never a 500, and /health/details says why', async () => {
    mode = 'garbage';
    const app = await server();
    const response = await app.inject({ url: '/api/demo/Sales/Orders', headers: { authorization: `Bearer ${weakToken()}` } });
    expect([response.statusCode, response.headers['retry-after']]).toEqual([503, '5']);
    const admin = (await gatewayOf(app).access.tokens.create({ username: 'health-garbage', allowedScopes: '*', allowedEnvironments: '*' })).token;
    await gatewayOf(app).health.refresh();
    const check = await providerCheck(app, admin);
    expect(check).toMatchObject({ status: 'Degraded', data: { keys: 0 } });
    expect(String(check?.data['error'])).toMatch(/JSON/);
  });

  it('an empty key set: tokens get 401 and /health/details says the provider publishes no keys', async () => {
    mode = 'empty';
    const app = await server();
    const response = await app.inject({ url: '/api/demo/Sales/Orders', headers: { authorization: `Bearer ${weakToken()}` } });
    expect(response.statusCode).toBe(401);
    const admin = (await gatewayOf(app).access.tokens.create({ username: 'health-empty', allowedScopes: '*', allowedEnvironments: '*' })).token;
    await gatewayOf(app).health.refresh();
    const check = await providerCheck(app, admin);
    expect(check).toMatchObject({ status: 'Degraded', data: { keys: 0 } });
    expect((check as { description?: string } | undefined)?.description).toMatch(/publishes no signing keys/);
  });

  it('an endless key set is cut at 1 MiB: 503 long before Auth:Jwt:KeysTimeoutMs, and /health/details says why', async () => {
    mode = 'endless';
    const app = await server({ Auth__Jwt__KeysTimeoutMs: '30000' });
    const token = weakToken();
    const started = Date.now();
    const response = await app.inject({ url: '/api/demo/Sales/Orders', headers: { authorization: `Bearer ${token}` } });
    expect([response.statusCode, response.json()]).toEqual([503, { success: false, error: "The identity provider's signing keys are not available. Retry shortly." }]);
    expect(Date.now() - started).toBeLessThan(15_000); // cut by size, not by the 30 s deadline
    expect(endlessBytes).toBeLessThan(64 * 1024 * 1024);

    const admin = (await gatewayOf(app).access.tokens.create({ username: 'health', allowedScopes: '*', allowedEnvironments: '*' })).token;
    await gatewayOf(app).health.refresh();
    const check = await providerCheck(app, admin);
    expect(check).toMatchObject({ status: 'Degraded', data: { keys: 0 } });
    expect(String(check?.data['error'])).toContain('more than 1048576 bytes');
  });
});
