/**
 * The web console in headless Chromium (Debian's chromium via playwright-core) against a real,
 * listening gateway built from the sample endpoints (embedded demo database): first sign-in with the
 * forced password change, a token created in the UI used against /api and revoked, a setting
 * changed and applied, a broken entity.json validated, an endpoint_reload arriving live, a viewer
 * who cannot write, no CSP violation anywhere, screenshots of every page at desktop and 360 px
 * (test-results/console-*.png), and axe-core on every page with no serious or critical violation.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { partPath } from '../setup/system-parts.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PAGES = ['overview', 'endpoints', 'validator', 'environments', 'settings', 'tokens', 'logs', 'health'] as const;
const NEW_PASSWORD = 'a-new-and-long-password-1';

let server: SqlTestServer;
let browser: Browser;
let origin: string;
let adminUser: string;
let oneTimePassword: string;

beforeAll(async () => {
  // `pg` points at a closed port: only the embedded `demo` environment is used here
  server = await startSqlTestServer('postgres://postgres@127.0.0.1:9/none', 9);
  origin = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const line = server.logs.lines().find((l) => typeof l['msg'] === 'string' && (l['msg'] as string).includes('one-time password'));
  const match = /administrator '([^']+)' with the one-time password (\S+)/.exec(String(line?.['msg'] ?? ''));
  if (!match) throw new Error('no first administrator in the log');
  adminUser = match[1] as string;
  oneTimePassword = match[2] as string;
  await server.app.wharfConsole.accounts.create('viewer1', 'viewer-password-123', 'viewer', false);
  mkdirSync('test-results', { recursive: true });
  browser = await chromium.launch({ executablePath: partPath('chromium'), args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
}, 180_000);

afterAll(async () => {
  // bounded: a browser that does not close must not hold the server (and the run) open
  await Promise.race([browser?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await server?.close();
}, 120_000);

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    // 401s while signed out are expected answers, not page errors
    if (m.type() === 'error' && !/401 \(Unauthorized\)/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${origin}/ui/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('web console in Chromium', () => {
  let page: Page;
  let errors: string[];

  it('first sign-in forces a password change, then shows the overview', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
    await signIn(page, adminUser, 'wrong-password-xyz');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Unauthorized|Invalid/i);
    await page.getByLabel('Password', { exact: true }).fill(oneTimePassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('This account must choose its own password').waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password and sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect.poll(() => page.locator('dl.card').textContent()).toContain('test');
    expect(await page.locator('.counts').textContent()).toMatch(/\d+ sql/);
  });

  it('creates a token, uses it against /api, revokes it and sees 401', async () => {
    await page.goto(`${origin}/ui/#/tokens`);
    await page.getByLabel('Username').fill('browser-user');
    await page.getByLabel('Scopes').first().fill('read');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('#new-token').textContent()) ?? '';
    expect(token).toMatch(/^whf_/);
    const call = () => page.evaluate(async (t) => (await fetch('/api/demo/Inventory/Products/7?$select=Name', { headers: { authorization: `Bearer ${t}` } })).status, token);
    expect(await call()).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('row', { name: /browser-user/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row', { name: /browser-user/ }).waitFor({ state: 'detached' });
    expect(await call()).toBe(401);
  });

  it('changes a setting and sees it applied', async () => {
    await page.goto(`${origin}/ui/#/settings`);
    await page.getByLabel('Logging:MinLevel').selectOption('debug');
    await page.getByRole('button', { name: /Save 1 change/ }).click();
    await page.getByText('Saved and applied.').waitFor();
    const level = await page.evaluate(async () => ((await (await fetch('/ui/api/settings')).json()) as { logging: { min_level: string } }).logging.min_level);
    expect(level).toBe('debug');
  });

  it('validates a broken entity.json and shows the message', async () => {
    await page.goto(`${origin}/ui/#/validator`);
    await page.getByLabel('entity.json').fill('{ "AllowedColumns": [] }');
    await expect.poll(() => page.locator('#validate-result').textContent(), { timeout: 10_000 }).toContain('DatabaseObjectName is required');
    await page.getByLabel('entity.json').fill('{ "DatabaseObjectName": "X", ');
    await expect.poll(() => page.locator('#validate-result').textContent(), { timeout: 10_000 }).toMatch(/problem/);
  });

  it('shows an endpoint_reload live', async () => {
    await page.goto(`${origin}/ui/#/overview`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await expect.poll(() => page.locator('dl.card').textContent()).toContain('none since the page opened');
    // what `wharf dev` does after an entity.json changes on disk: rebuild, then reload
    await page.waitForTimeout(500);
    const result = await server.app.wharf.reload();
    expect(result.ok).toBe(true);
    await expect.poll(() => page.locator('dl.card').textContent(), { timeout: 10_000 }).toMatch(/Last reload\d{4}-\d{2}-\d{2} /);
  });

  it('screenshots every page at desktop and 360 px, with no CSP or script errors', async () => {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      for (const name of PAGES) {
        await page.goto(`${origin}/ui/#/${name}`);
        await page.locator('#page-title').waitFor();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.screenshot({ path: `test-results/console-${name}-${width}.png`, fullPage: true });
      }
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('has no serious or critical accessibility violation on any page (axe-core), in both themes', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const a11y = await context.newPage();
    await signIn(a11y, adminUser, NEW_PASSWORD);
    await a11y.getByRole('heading', { name: 'Overview' }).waitFor();
    const found: string[] = [];
    for (const theme of ['light', 'dark']) {
      await a11y.evaluate((t) => localStorage.setItem('wharf-theme', t), theme);
      for (const name of PAGES) {
        await a11y.goto(`${origin}/ui/#/${name}`);
        await a11y.reload();
        await a11y.locator('#page-title').waitFor();
        await a11y.waitForLoadState('networkidle').catch(() => undefined);
        await a11y.addScriptTag({ path: AXE });
        const violations = await a11y.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
          const r = await axe.run(document);
          return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
        });
        for (const v of violations) found.push(`${theme} ${name}: ${v}`);
      }
    }
    await context.close();
    expect(found).toEqual([]);
  }, 180_000);

  it('a viewer sees disabled controls and the API refuses its writes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const viewer = await context.newPage();
    await signIn(viewer, 'viewer1', 'viewer-password-123');
    await viewer.getByRole('heading', { name: 'Overview' }).waitFor();
    await viewer.goto(`${origin}/ui/#/tokens`);
    await viewer.getByText('Viewers can list tokens but not change them.').waitFor();
    expect(await viewer.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    await viewer.goto(`${origin}/ui/#/settings`);
    expect(await viewer.getByLabel('Logging:MinLevel').isDisabled()).toBe(true);
    const status = await viewer.evaluate(async () => {
      const csrf = /gateway_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      return (await fetch('/ui/api/settings', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ 'Logging:MinLevel': 'info' }) })).status;
    });
    expect(status).toBe(403);
    await context.close();
  });

  it('serves the HTML uncached and the hashed assets for a year, under a strict CSP', async () => {
    const html = await fetch(`${origin}/ui/`);
    expect(html.headers.get('cache-control')).toBe('no-cache');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    const text = await html.text();
    expect(text).not.toMatch(/<script>(?!<\/script>)/);
    const asset = /\/ui\/assets\/(app\.[0-9a-f]{12}\.js)/.exec(text)?.[1];
    const res = await fetch(`${origin}/ui/assets/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${origin}/ui/assets/..%2Fmanifest.json`)).status).toBe(404);
  });
});
