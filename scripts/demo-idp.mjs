#!/usr/bin/env node
/**
 * The optional OpenID Connect demo: a local provider (oidc-provider) on 127.0.0.1:9400 issuing JWT
 * access tokens for the sample gateway (docs/security.md, "Try it: JWTs from a local provider").
 *   npm run demo:idp          (DEMO_IDP_PORT=... for another port)
 * Clients (client credentials grant, secret = id + "-secret"):
 *   customer-7      scope orders.read, claim customer_id 7   -> Sales/MyOrders shows customer 7's orders only
 *   customer-42     scope orders.read, claim customer_id 42
 *   no-customer     scope orders.read, no customer_id claim  -> no rows
 *   orders-admin    scope orders.admin                        -> every order
 * The gateway accepts them with:
 *   Auth__Jwt__Issuer=http://127.0.0.1:9400 Auth__Jwt__Audience=http://127.0.0.1:8080/api npm start
 * Console single sign-on (docs/console.md#single-sign-on): client `wharf-console` (secret
 * `wharf-console-secret`, redirect http://127.0.0.1:8080/ui/api/auth/oidc/callback); the login page
 * accepts any login, `admin` carries roles [wharf-admin], anyone else none (a viewer).
 */
import { startLocalIdp } from './idp/local-idp.mjs';

const port = Number(process.env.DEMO_IDP_PORT ?? 9400);
const audience = process.env.DEMO_IDP_AUDIENCE ?? 'http://127.0.0.1:8080/api';
const client = (id, scope, claims) => ({ client_id: id, client_secret: `${id}-secret`, scope, ...(claims ? { claims } : {}) });

const idp = await startLocalIdp({
  port,
  audience,
  scopes: ['orders.read', 'orders.admin', 'read', 'write'],
  clients: [
    client('customer-7', 'orders.read', { customer_id: 7 }),
    client('customer-42', 'orders.read', { customer_id: 42 }),
    client('no-customer', 'orders.read'),
    client('orders-admin', 'orders.admin'),
    { ...client('wharf-console', 'openid profile'), redirect_uris: [`http://127.0.0.1:8080/ui/api/auth/oidc/callback`, `http://localhost:8080/ui/api/auth/oidc/callback`] },
  ],
  users: { admin: { roles: ['wharf-admin'] } },
});

console.log(`Demo OpenID provider: ${idp.issuer} (audience ${audience})
Start the gateway with:
  Auth__Jwt__Issuer=${idp.issuer} Auth__Jwt__Audience=${audience} npm start
Console single sign-on: add
  WebUi__Oidc__Enabled=true WebUi__Oidc__ClientId=wharf-console WebUi__Oidc__ClientSecret=wharf-console-secret WebUi__Oidc__CreateAccounts=true
Get a token:
  curl -s -u customer-7:customer-7-secret -d grant_type=client_credentials -d scope=orders.read ${idp.issuer}/token
Ctrl+C stops it.`);

const stop = () => idp.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
