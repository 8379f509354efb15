// What the browser tests (run.mjs) and the benchmark (bench.mjs) share: the site to load
// (dist/ on a loopback port, or E2E_BASE_URL) and Debian's headless Chromium, launched
// the same way for both.

import { access } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { serveStatic } from './server.mjs';

export const E2E_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(E2E_DIR);
export const DIST = join(ROOT, 'dist');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// Without the networking flags Chromium keeps trying hosts this sandbox cannot reach.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The app's base URL (ending in '/'): E2E_BASE_URL if set, else dist/ served on a random
 * loopback port. `close()` stops that server (a no-op for E2E_BASE_URL).
 */
export async function openSite() {
  let baseUrl = process.env.E2E_BASE_URL;
  let server = null;
  if (!baseUrl) {
    await access(join(DIST, 'index.html')).catch(() => {
      throw new Error(`${relative(ROOT, DIST)}/index.html is missing: run \`trunk build --release\` first`);
    });
    server = await serveStatic(DIST);
    baseUrl = server.url;
  }
  if (!baseUrl.endsWith('/')) baseUrl += '/';
  return { baseUrl, close: async () => server?.close() };
}

/**
 * Launches headless Chromium. launch() gives it a fresh temporary profile (deleted on
 * close), so no state leaks between runs.
 */
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
