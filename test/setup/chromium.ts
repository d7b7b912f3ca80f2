/**
 * The headless Chromium of the browser tests (the system part, test/setup/system-parts.ts): one
 * launch with the same flags everywhere, and a close that gives up after 10 s (a browser that
 * hangs on close must not hold the test file; its process is reaped with the worker).
 */
import { chromium, type Browser } from 'playwright-core';
import { partPath } from './system-parts.js';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: partPath('chromium'), args: FLAGS });
}

export async function closeChromium(browser: Browser | undefined): Promise<void> {
  await Promise.race([browser?.close(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
}
