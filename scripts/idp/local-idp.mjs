/**
 * A local OpenID Connect provider (the certified `oidc-provider` package) on loopback, for the
 * optional OIDC demo (`npm run demo:idp`, scripts/demo-idp.mjs) and the JWT tests (test/setup/oidc.ts).
 * It issues real signed JWT access tokens with the client credentials grant:
 *   POST {issuer}/token  grant_type=client_credentials  scope=...  (client id/secret in Basic auth)
 * Each client carries its claims (`claims`), added to its tokens (e.g. `customer_id`).
 * A client with `redirect_uris` is a sign-in client instead (authorization code flow with PKCE, the
 * console's single sign-on): the provider's development login page accepts any login (password
 * ignored), the user's claims come from `users` ({login: {preferred_username?, roles?}}) and land
 * in the ID token; consent is granted without asking (a first-party client).
 * rotate() swaps in a new signing key (the old key stays published for `keepOld`).
 */
import { createServer } from 'node:http';
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';

export async function newSigningKey(alg = 'RS256', kid = `key-${Math.random().toString(36).slice(2, 10)}`) {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  return { ...(await exportJWK(privateKey)), kid, alg, use: 'sig' };
}

function makeProvider({ issuer, audience, clients, keys, scopes, accessTokenTTL, users }) {
  const byId = new Map(clients.map((client) => [client.client_id, client]));
  const signIn = clients.some((client) => client.redirect_uris);
  const provider = new Provider(issuer, {
    clients: clients.map(({ client_id, client_secret, scope, redirect_uris }) =>
      redirect_uris
        ? { client_id, client_secret, grant_types: ['authorization_code'], response_types: ['code'], redirect_uris, scope }
        : { client_id, client_secret, grant_types: ['client_credentials'], response_types: [], redirect_uris: [], scope },
    ),
    jwks: { keys },
    scopes: signIn ? [...new Set([...scopes, 'openid', 'profile'])] : scopes,
    claims: { openid: ['sub'], profile: ['preferred_username', 'roles'] },
    conformIdTokenClaims: false,
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({ sub: id, preferred_username: users?.[id]?.preferred_username ?? id, ...(users?.[id]?.roles ? { roles: users[id].roles } : {}) }),
    }),
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid profile');
      grant.addOIDCClaims(['preferred_username', 'roles']);
      await grant.save();
      return grant;
    },
    ttl: { ClientCredentials: accessTokenTTL, AccessToken: accessTokenTTL },
    features: {
      devInteractions: { enabled: signIn },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, client) => (client.grantTypes.includes('client_credentials') ? audience : undefined),
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: scopes.join(' '),
          audience,
          accessTokenFormat: 'jwt',
          accessTokenTTL,
          jwt: { sign: { alg: keys[0].alg } },
        }),
      },
    },
    extraTokenClaims: (_ctx, token) => byId.get(token.clientId)?.claims ?? undefined,
  });
  provider.on('server_error', (_ctx, error) => console.error('local-idp:', error));
  return provider;
}

/**
 * Starts the provider. options: port (0 = any), audience, clients [{client_id, client_secret, scope, claims}],
 * or sign-in clients [{client_id, client_secret, scope, redirect_uris}], users (claims of sign-in users),
 * scopes (every scope a client may ask), accessTokenTTL (seconds), alg ('RS256' | 'ES256' | 'EdDSA').
 */
export async function startLocalIdp(options) {
  const host = '127.0.0.1';
  const served = [];
  const server = createServer((req, res) => {
    served.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const issuer = `http://${host}:${server.address().port}`;
  const config = {
    issuer,
    audience: options.audience,
    clients: options.clients,
    scopes: options.scopes,
    accessTokenTTL: options.accessTokenTTL ?? 600,
    users: options.users,
  };
  let keys = [await newSigningKey(options.alg ?? 'RS256')];
  let handler = makeProvider({ ...config, keys }).callback();
  let reachable = true;
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  return {
    issuer,
    get keys() {
      return keys;
    },
    /** `METHOD /path` of every request received, oldest first. */
    served,
    /** A client credentials token: the provider's own JWT access token. */
    async token(clientId, scope) {
      const client = options.clients.find((item) => item.client_id === clientId);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${client.client_secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
      });
      const body = await response.json();
      if (response.status !== 200) throw new Error(`token endpoint: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    /** A new signing key; the previous ones stay published when keepOld. */
    async rotate(keepOld = false) {
      keys = [await newSigningKey(options.alg ?? 'RS256'), ...(keepOld ? keys : [])];
      handler = makeProvider({ ...config, keys }).callback();
      return keys[0];
    },
    /** Outage: every connection dropped (false), every request left unanswered ('hang'), or served again (true). */
    setReachable(value) {
      reachable = value === true;
      handler = value === true ? makeProvider({ ...config, keys }).callback() : value === 'hang' ? () => undefined : (req) => req.socket.destroy();
    },
    get reachable() {
      return reachable;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
