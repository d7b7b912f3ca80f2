/**
 * What `wharf start` and `wharf dev` print once the server listens, and the work before it: opening
 * the embedded databases, creating the demo token on an empty token store.
 */
import { demoTokenLines, ensureDemoToken } from '../auth/cli.js';
import { WharfError } from '../errors/wharf-error.js';
import { gatewayOf } from '../gateway-handle.js';
import { demoSeedProgress } from '../sql/drivers/demo-seed-progress.js';
import { collectGarbage } from './collect-garbage.js';
import type { StartedServer } from '../start.js';
import type { Printer } from '../contract/printer.js';

export { consolePrinter, type Printer } from '../contract/printer.js';

export const CREATE_TOKEN_HINT = 'npx wharf token create --username you';

export interface FirstAdmin {
  readonly username: string;
  readonly oneTimePassword: string;
}

/**
 * `demoToken`: the token just created on an empty store (printed this once, with a curl line using
 * it); otherwise a line saying how to create one. `admin`: the first console administrator created by
 * this start, printed as a plain block like the token (the JSON log line alone is easy to miss when
 * the output goes to a file or a process manager).
 */
export function banner(server: StartedServer, demoToken: string | null = null, admin: FirstAdmin | null = null): string[] {
  const { url, app } = server;
  const table = gatewayOf(app).routes.current;
  const env = gatewayOf(app).settings.server.environment.allowedEnvironments?.[0] ?? '<env>';
  const example = `'${url}/api/${env}/Inventory/Products?$top=5'`;
  const lines = [
    `Wharf is serving ${table.size} endpoints on ${url}`,
    `  API reference  ${url}/docs`,
    `  OpenAPI        ${url}/openapi.json`,
    `  Liveness       ${url}/health/live`,
    `  Readiness      ${url}/health/ready`,
    `  Console        ${url}/ui/ (${consoleSignIn(server)}; API: ${url}/ui/api, docs/console-api.md)`,
  ];
  if (admin !== null) lines.push(...firstAdminLines(admin, `${url}/ui/`));
  if (demoToken !== null) return [...lines, ...demoTokenLines(demoToken, example)];
  return [
    ...lines,
    `  Every /api call needs a token: create one with ${CREATE_TOKEN_HINT}`,
    `  Try            curl -H "Authorization: Bearer <token>" ${example}`,
  ];
}

/**
 * How to sign in to the console: only the instance that created the first administrator points to
 * the one-time password it logged; every other start (another instance on a shared store, a
 * restart) has accounts already.
 */
function consoleSignIn(server: StartedServer): string {
  const first = gatewayOf(server.app).console.firstAdmin;
  if (first?.oneTimePassword) return `sign in as ${first.username} with the one-time password shown below`;
  if (first) return `sign in as ${first.username} with the WebUi:SeedPassword password`;
  return 'sign in with an existing console account; npx wharf accounts manages them';
}

export function firstAdminLines(admin: FirstAdmin, signInUrl: string): string[] {
  return [
    'Created the first console administrator (shown once; the password must be changed at the first sign-in):',
    `  user       ${admin.username}`,
    `  password   ${admin.oneTimePassword}`,
    `  sign in    ${signInUrl}`,
    `  forgotten  npx wharf accounts password ${admin.username}`,
  ];
}

/** The first administrator this start created with a one-time password (printed as a block), else null. */
export function takeFirstAdmin(server: StartedServer): FirstAdmin | null {
  const first = gatewayOf(server.app).console.firstAdmin;
  return first?.oneTimePassword ? { username: first.username, oneTimePassword: first.oneTimePassword } : null;
}

/**
 * Creates the demo token when the store has none at all; its value is returned only then. A token
 * store that is not reachable (PostgreSQL down at start) creates none: the server serves anyway.
 */
export async function demoToken(server: StartedServer): Promise<string | null> {
  try {
    return await ensureDemoToken(gatewayOf(server.app).access.tokens);
  } catch (error) {
    if (error instanceof WharfError && error.code === 'AUTH_STORE_UNAVAILABLE') return null;
    throw error;
  }
}

/**
 * Opens the embedded databases before the first request instead of during it (PGlite takes
 * seconds: the very first start seeds the demo and caches a data directory under .wharf/).
 */
export async function warmEmbeddedDatabases(server: StartedServer, print: Printer): Promise<void> {
  const { sql, settings } = gatewayOf(server.app);
  if (!sql) return;
  const onStart = (): void => print.out('Seeding the demo database… (first start only; later starts load it from .wharf/)');
  const onStep = (line: string): void => print.out(`  ${line}`);
  demoSeedProgress.on('start', onStart).on('step', onStep);
  let opened = false;
  try {
    for (const [name, env] of settings.environments) {
      if (env.provider !== 'embedded') continue;
      opened = true;
      const started = performance.now();
      try {
        await sql.get(name, env);
        print.out(`Embedded database for '${name}' ready in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      } catch (error) {
        print.err(`Embedded database for '${name}' failed to start: ${(error as Error).message}`);
      }
    }
  } finally {
    demoSeedProgress.off('start', onStart).off('step', onStep);
  }
  if (opened) collectGarbage();
}
