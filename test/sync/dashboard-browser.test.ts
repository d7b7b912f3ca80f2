/**
 * The sync dashboard as a user runs it: `wharf sync` as a real process with the dashboard turned
 * on by environment variables only (WebHost__Enabled, WebHost__AdminKey, Health__Port), real
 * PostgreSQL, an HTTP destination that refuses and later accepts, and headless Chromium (Debian's
 * chromium via playwright-core, as the console's browser test): / redirects to /ui, the page shows
 * the tracked object's version and the dead letter with its error, updates live, signs in with the
 * key and replays the dead letter; no CSP or script error, screenshots at desktop and 360 px
 * (test-results/sync-dashboard-*.png), and axe-core finds no serious or critical violation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { closeChromium, launchChromium } from '../setup/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../setup/free-port.js';
import { startPostgres, type TestPostgres } from '../setup/postgres.js';
import { insertProducts, installOutbox, pgEnvironment, projectWith, startReceiver, until, type Receiver } from './sync-fixture.js';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'browser-admin-key-0123456789';

let db: TestPostgres;
let receiver: Receiver;
let child: ChildProcess;
let exited: Promise<unknown>;
let origin: string;
let browser: Browser;

interface Overview {
  environments: { name: string; objects: { name: string; last_version: number | null }[] }[];
  dead_letters: { items: { id: number; to_version: number; error: string }[] };
}
const overview = async (): Promise<Overview> => (await (await fetch(`${origin}/ui/api/overview`)).json()) as Overview;

beforeAll(async () => {
  db = await startPostgres();
  await installOutbox(db.url);
  receiver = await startReceiver();
  const hook = receiver.url;
  // environments/sync.json says nothing about WebHost or the port: the variables turn it on
  const root = await projectWith({ prod: pgEnvironment(db.url, [{ Type: 'Http', Key: 'hook', Url: hook }]) }, { DeadLetters: { ReplayIntervalSeconds: 0.2, BackoffBaseSeconds: 3600 } });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [path.join(repo, 'scripts', 'wharf.mjs'), 'sync', '--root', root], {
    cwd: repo,
    stdio: 'ignore',
    env: { ...process.env, WebHost__Enabled: 'true', WebHost__AdminKey: KEY, Health__Port: String(port) },
  });
  exited = new Promise((resolve) => child.once('exit', resolve));
  await until('the dashboard answers with stored state', async () => {
    const body = await overview().catch(() => null);
    return body?.environments[0]?.objects[0]?.last_version !== null && body?.environments.length === 1;
  });
  await insertProducts(db.url, 2, 'UI-');
  await until('a dead letter', async () => (await overview()).dead_letters.items.length === 1);
  mkdirSync('test-results', { recursive: true });
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await closeChromium(browser);
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  await receiver?.close();
  await db?.stop();
}, 120_000);

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    // the 401 of the deliberately wrong key is an expected answer, not a page error
    if (m.type() === 'error' && !/401 \(Unauthorized\)/.test(m.text())) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
    const r = await axe.run(document);
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
  });
}

describe('sync dashboard in Chromium', () => {
  let page: Page;
  let errors: string[];

  it('/ redirects to the dashboard, which shows the object, its version and the dead letter with its error', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    errors = watchErrors(page);
    await page.goto(`${origin}/`);
    expect(page.url()).toBe(`${origin}/ui/`);
    await page.getByRole('heading', { name: 'Sync dashboard' }).waitFor();
    const state = await overview();
    const version = state.environments[0]!.objects[0]!.last_version;
    const objects = page.locator('#objects-prod');
    await expect.poll(() => objects.textContent()).toContain('Products');
    const row = page.locator('#objects-prod').getByRole('row', { name: /Products/ });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(String(version));
    expect(await row.textContent()).toContain('blocked by dead letters');
    const letter = state.dead_letters.items[0]!;
    const letters = page.locator('#dead-letters');
    await expect.poll(() => letters.textContent()).toContain(`#${letter.id}`);
    expect(await letters.textContent()).toContain(letter.error);
    expect(letter.error).toMatch(/503/);
    expect(await page.locator('#most-common-error').textContent()).toBe(`${letter.error} (1×)`);
    // with the key configured but not signed in: the sign-in form, no replay buttons
    await page.getByLabel('Administrator key').waitFor();
    expect(await page.getByRole('button', { name: /Replay/ }).count()).toBe(0);
  });

  it('signs in with the administrator key and replays the dead letter; the page updates live', async () => {
    await page.getByLabel('Administrator key').fill('not-the-key-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('The administrator key is not correct.');
    await page.getByLabel('Administrator key').fill(KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as administrator.').waitFor();
    const letter = (await overview()).dead_letters.items[0]!;
    receiver.failing = false;
    await page.getByRole('button', { name: `Replay dead letter ${letter.id}` }).click();
    await page.getByText('1 dead letter(s) due for replay now.').waitFor();
    await page.getByText('No dead letters.').waitFor({ timeout: 30_000 });
    // the replayed batch advanced the version: shown by the next poll, without a reload
    const row = page.locator('#objects-prod').getByRole('row', { name: /Products/ });
    await expect.poll(() => row.getByRole('cell').nth(1).textContent(), { timeout: 15_000 }).toBe(String(letter.to_version));
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('up to date');
    // live: a new change appears without a reload
    await insertProducts(db.url, 1, 'UI2-');
    await expect.poll(() => row.getByRole('cell').nth(1).textContent(), { timeout: 15_000 }).toBe(String(letter.to_version + 1));
  }, 90_000);

  it('screenshots at desktop and 360 px, with no CSP or script errors', async () => {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await page.getByRole('heading', { name: 'Sync dashboard' }).waitFor();
      await page.locator('#objects-prod').waitFor();
      await page.screenshot({ path: `test-results/sync-dashboard-${width}.png`, fullPage: true });
    }
    expect(errors).toEqual([]);
  }, 60_000);

  it('has no serious or critical accessibility violation (axe-core), read-only view and signed in', async () => {
    receiver.failing = true;
    await insertProducts(db.url, 1, 'UI3-');
    await until('a second dead letter', async () => (await overview()).dead_letters.items.length === 1);
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const a11y = await context.newPage();
    await a11y.goto(`${origin}/ui/`);
    await a11y.locator('#dead-letters').waitFor();
    const found = (await axeViolations(a11y)).map((v) => `signed out: ${v}`);
    await a11y.getByLabel('Administrator key').fill(KEY);
    await a11y.getByRole('button', { name: 'Sign in' }).click();
    await a11y.getByRole('button', { name: /^Replay dead letter/ }).waitFor();
    found.push(...(await axeViolations(a11y)).map((v) => `signed in: ${v}`));
    await context.close();
    expect(found).toEqual([]);
  }, 90_000);
});
