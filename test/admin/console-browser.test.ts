/**
 * The web console in headless Chromium (Debian's chromium via playwright-core) against a real,
 * listening gateway built from the sample endpoints (embedded demo database): first sign-in with the
 * forced password change, a token created in the UI used against /api and revoked, a setting
 * changed and applied, a broken entity.json validated, an endpoint_reload arriving live, a viewer
 * who cannot write, no console error and no failed request anywhere (the session check before
 * sign-in answers 200), the traffic charts moving live as requests arrive, every writable setting
 * round-tripped through the Settings page without touching any other, screenshots of every page at
 * desktop and 360 px (test-results/console-*.png) with no horizontal overflow, and axe-core on
 * every page with no serious or critical violation.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { startSqlTestServer, type SqlTestServer } from '../sql/http-server.js';
import { gatewayOf } from '../../runtime/gateway-handle.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PAGES = ['overview', 'endpoints', 'validator', 'environments', 'settings', 'tokens', 'logs', 'health', 'account'] as const;
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
  await gatewayOf(server.app).console.accounts.create('viewer1', 'viewer-password-123', 'viewer', false);
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  // bounded: a browser that does not close must not hold the server (and the run) open
  await closeChromium(browser);
  await server?.close();
}, 120_000);

/** Every console error, script error, failed request and answer of 400 or more on the page. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`script: ${e.message}`));
  page.on('requestfailed', (r) => {
    // an event stream closed by a page change is not a failure, nor a GET the browser dropped
    // because the test navigated while it was in flight (net::ERR_ABORTED: the sign-in page's
    // /ui/api/auth/oidc when signIn() loads /ui/ again on a slow machine); refused or broken
    // answers still count (an `answer:` line, or any other network error)
    const dropped = r.method() === 'GET' && r.failure()?.errorText === 'net::ERR_ABORTED';
    if (!r.url().endsWith('/ui/api/events') && !dropped) errors.push(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`answer: ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return errors;
}

/** A refusal the test asked for (and the browser logged): exactly that one, then forgotten. */
async function takeDeliberate401(errors: string[], request: string): Promise<void> {
  await expect.poll(() => errors.filter((e) => e.startsWith('answer:'))).toEqual([`answer: 401 ${request}`]);
  expect(errors.filter((e) => !e.startsWith('answer:') && !/^console: Failed to load resource: .*401/.test(e))).toEqual([]);
  errors.length = 0;
}

/** The page is no wider than the window (nothing to scroll sideways). */
async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${origin}/ui/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('web console in Chromium', { timeout: 90_000 }, () => {
  let page: Page;
  let errors: string[];

  it('first sign-in forces a password change, then shows the overview', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
    await page.goto(`${origin}/ui/`);
    await page.getByLabel('Username').waitFor();
    // opening the console signed out logs nothing (the session check answers 200)
    expect(errors).toEqual([]);
    await signIn(page, adminUser, 'wrong-password-xyz');
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/Unauthorized|Invalid/i);
    // the one deliberate refusal: the wrong password, answered 401 (and logged by the browser)
    await takeDeliberate401(errors, 'POST /ui/api/auth');
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
    await takeDeliberate401(errors, 'GET /api/demo/Inventory/Products/7');
  }, 90_000);

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
    const result = await gatewayOf(server.app).reload();
    expect(result.ok).toBe(true);
    await expect.poll(() => page.locator('dl.card').textContent(), { timeout: 10_000 }).toMatch(/Last reload\d{4}-\d{2}-\d{2} /);
  });

  it('draws the traffic charts and moves them live as requests arrive', async () => {
    const { token } = await gatewayOf(server.app).access.tokens.create({ username: 'chart-traffic' });
    const call = (path: string) => fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
    await page.goto(`${origin}/ui/#/overview`);
    await page.locator('#chart-rps canvas').first().waitFor();
    for (const id of ['chart-rps', 'chart-errors', 'chart-latency', 'chart-limits', 'chart-cache']) {
      expect(await page.locator(`#${id} canvas`).count(), id).toBeGreaterThan(0);
    }
    const sample = () => page.locator('#chart-rps').getAttribute('data-points');
    const first = await sample();
    expect(first?.split(',')).toHaveLength(360);
    for (let i = 0; i < 20; i += 1) expect(await call('/api/demo/Inventory/Products/7?$select=Name')).toBe(200);
    expect(await call('/api/demo/Inventory/Nothing')).toBe(404);
    // no reload: the `traffic` event on the open stream redraws the chart (every 5 s)
    await expect.poll(sample, { timeout: 15_000, interval: 500 }).not.toBe(first);
    const second = (await sample())!.split(',').map((v) => (v === '' ? 0 : Number(v)));
    expect(second.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#chart-errors').getAttribute('data-points'), { timeout: 15_000 }).toMatch(/\d/);
    const top = page.getByRole('table', { name: 'Top endpoints by traffic' });
    await expect.poll(() => top.textContent(), { timeout: 15_000 }).toContain('sql:Inventory/Products');
    // one endpoint's charts
    await page.getByLabel('Show').selectOption('sql:Inventory/Products');
    await expect.poll(() => page.locator('#chart-latency').getAttribute('data-points'), { timeout: 10_000 }).toMatch(/\d/);
    expect(errors).toEqual([]);
  }, 60_000);

  it('round-trips every writable setting through the Settings page, changing nothing else', async () => {
    type Effective = Record<string, { value: unknown; source: string; pending?: unknown }>;
    interface Dump { writable: { key: string; kind: string; min?: number; max?: number; choices?: string[] }[]; effective: Effective }
    const dump = () => page.evaluate(async () => (await (await fetch('/ui/api/settings')).json()) as Dump);
    const sent: unknown[] = [];
    const onRequest = (r: import('playwright-core').Request) => {
      if (r.method() === 'PUT' && r.url().endsWith('/ui/api/settings')) sent.push(JSON.parse(r.postData() ?? 'null'));
    };
    page.on('request', onRequest);
    await page.goto(`${origin}/ui/#/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    const start = await dump();
    // the form shows the values in force (not blanks) before anything is touched
    expect(await page.getByLabel('Environment:ServerName').inputValue()).toBe(String(start.effective['Environment:ServerName']!.value));
    expect(await page.getByLabel('HealthChecks:Enabled').isChecked()).toBe(start.effective['HealthChecks:Enabled']!.value);
    expect(await page.getByLabel('HealthChecks:CacheTimeSeconds').inputValue()).toBe(String(start.effective['HealthChecks:CacheTimeSeconds']!.value));
    expect(await page.getByRole('button', { name: /Save/ }).isDisabled()).toBe(true);
    const expected: Effective = JSON.parse(JSON.stringify(start.effective)) as Effective;
    const original: Record<string, unknown> = {};
    for (const w of start.writable) {
      const before = start.effective[w.key]!.value;
      original[w.key] = before;
      const field = page.getByLabel(w.key, { exact: true });
      let next: unknown;
      if (w.kind === 'bool') {
        next = before !== true;
        await field.click();
      } else if (w.kind === 'int') {
        next = (before as number) + 1 <= (w.max ?? Infinity) ? (before as number) + 1 : (before as number) - 1;
        await field.fill(String(next));
      } else if (w.kind === 'choice') {
        next = w.choices!.find((c) => c !== before && c !== 'silent');
        await field.selectOption(String(next));
      } else if (w.kind === 'text') {
        next = `${String(before ?? '')}-renamed`;
        await field.fill(String(next));
      } else {
        next = { iplist: ['10.9.8.7'], cidrlist: ['10.9.0.0/16'], originlist: ['https://console.example.com'] }[w.kind];
        await field.fill((next as string[]).join('\n'));
      }
      await page.getByRole('button', { name: 'Save 1 change' }).click();
      await page.getByText(/^Saved/).waitFor();
      expect(sent.at(-1), w.key).toEqual({ [w.key]: next });
      const now = (await dump()).effective;
      const live = now[w.key]!.value === next || JSON.stringify(now[w.key]!.value) === JSON.stringify(next);
      expect(live || JSON.stringify(now[w.key]!.pending) === JSON.stringify(next), w.key).toBe(true);
      expected[w.key] = now[w.key]!;
      expect(now[w.key]!.source, w.key).toBe('console');
      // every other key as it was (or as this loop left it)
      expect(now).toEqual(expected);
    }
    expect(sent).toHaveLength(start.writable.length);
    page.off('request', onRequest);
    // back to the values in force at the start (the later tests sign in with these cookies settings)
    const restored = await page.evaluate(async (body) => {
      const csrf = /gateway_csrf=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      return (await fetch('/ui/api/settings', { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': decodeURIComponent(csrf) }, body: JSON.stringify(body) })).status;
    }, original);
    expect(restored).toBe(200);
    expect(errors).toEqual([]);
  }, 120_000);

  it('screenshots every page at desktop and 360 px: no horizontal overflow, tables as cards, no console errors', async () => {
    await gatewayOf(server.app).access.tokens.create({ username: 'narrow-screen-user', description: 'a token listed at 360 px' });
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      for (const name of PAGES) {
        await page.goto(`${origin}/ui/#/${name}`);
        await page.locator('#page-title').waitFor();
        await page.waitForLoadState('networkidle').catch(() => undefined);
        // the page's data has arrived (no "Loading …" left)
        await page.waitForFunction(() => ![...document.querySelectorAll('main [role=status]')].some((e) => e.textContent?.startsWith('Loading')));
        if (name === 'overview') await page.locator('#chart-rps canvas').first().waitFor();
        if (name === 'tokens' || name === 'logs') await page.locator('table.stack').first().waitFor();
        await page.screenshot({ path: `test-results/console-${name}-${width}.png`, fullPage: true });
        expect(await overflow(page), `${name} at ${width} px`).toBeLessThanOrEqual(0);
        if (width === 360 && (name === 'tokens' || name === 'logs')) {
          // every cell of a table is on screen, each labelled by its column
          const outside = await page.evaluate(() => [...document.querySelectorAll('table.stack td, table.stack th')].filter((c) => {
            const box = c.getBoundingClientRect();
            return box.width > 0 && (box.right > window.innerWidth + 0.5 || box.left < -0.5);
          }).length);
          expect(outside, name).toBe(0);
        }
        if (width === 360 && name === 'logs') {
          const widths = await page.locator('td.message').evaluateAll((cells) => cells.map((c) => c.getBoundingClientRect().width));
          expect(Math.min(...widths)).toBeGreaterThan(150);
          await page.getByLabel('Search').waitFor();
          const gap = await page.evaluate(() => {
            const label = document.querySelector('label[for="log-search"]')!.getBoundingClientRect();
            const input = document.getElementById('log-search')!.getBoundingClientRect();
            return Math.max(input.top - label.bottom, input.left - label.right);
          });
          expect(gap).toBeGreaterThan(0);
        }
      }
    }
    expect(errors).toEqual([]);
  }, 180_000);

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
