// Runs the browser tests: every e2e/*.test.mjs, in file then registration order, in one
// headless Debian Chromium driven by playwright-core (which downloads no browser).
//
//   node e2e/run.mjs [--filter TEXT]
//
// Serves dist/ (build it first: `trunk build --release`, or `cargo xtask test` does it
// all) on a random loopback port; E2E_BASE_URL=http://127.0.0.1:8080/ tests a server that
// is already running instead (e.g. `cargo xtask serve`). CHROMIUM overrides the browser
// path. Prints one line per test and ends with `e2e: N passed, N failed`, which
// `cargo xtask test` reads. Screenshots go to target/e2e/.

import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { E2E_DIR, ROOT, launchChromium, openSite } from './browser.mjs';
import { registry, setCurrentFile, APP_READY } from './harness.mjs';

const SHOTS = join(ROOT, 'target', 'e2e');
const DEFAULT_TIMEOUT_MS = 30_000;

const args = process.argv.slice(2);
const filterAt = args.indexOf('--filter');
const filter = filterAt >= 0 ? args[filterAt + 1] : process.env.E2E_FILTER;

let planned = 0;
let passed = 0;
let failed = 0;
let exitCode = 0;
let server;
let browser;
try {
  const files = (await readdir(E2E_DIR)).filter((f) => f.endsWith('.test.mjs')).sort();
  for (const file of files) {
    setCurrentFile(file);
    await import(pathToFileURL(join(E2E_DIR, file)).href);
  }
  const tests = registry.filter((t) => !filter || t.name.includes(filter) || t.file.includes(filter));
  planned = tests.length;
  if (tests.length === 0) throw new Error(`no tests found${filter ? ` matching ${filter}` : ''} in ${E2E_DIR}`);

  server = await openSite();
  const { baseUrl } = server;
  await mkdir(SHOTS, { recursive: true });

  // A fresh temporary profile per launch, and each test gets its own context, so no
  // state leaks between runs or tests.
  browser = await launchChromium();
  console.log(`e2e: ${tests.length} tests against ${baseUrl} in ${browser.version()}`);

  for (const [index, t] of tests.entries()) {
    const started = Date.now();
    const error = await runOne(t, baseUrl);
    const ms = Date.now() - started;
    const label = `${index + 1} - ${t.name} (${t.file}, ${ms} ms)`;
    if (error) {
      failed += 1;
      console.log(`FAIL ${label}`);
      console.log(indent(error.stack || String(error)));
    } else {
      passed += 1;
      console.log(`ok   ${label}`);
    }
  }
} catch (err) {
  // Whatever did not run counts as failed, and at least one failure is reported.
  failed += Math.max(1, planned - passed - failed);
  console.log(`e2e: could not run: ${err.stack || err}`);
} finally {
  await browser?.close().catch(() => {});
  await server?.close();
}
if (failed > 0) exitCode = 1;
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(exitCode);

async function runOne(t, baseUrl) {
  const context = await browser.newContext({
    colorScheme: t.options.colorScheme ?? 'light',
    viewport: { width: 1000, height: 640 },
    // A phone: a touch screen is its only pointer (`touch: true`).
    ...(t.options.touch ? { hasTouch: true, isMobile: true } : {}),
  });
  // Predictions are asked before runs; tests of everything else open lessons unasked
  // (the predict tests opt in with `predict: true`).
  if (!t.options.predict) {
    await context.addInitScript(() => {
      try {
        if (localStorage.getItem('lockstep.predict') === null) localStorage.setItem('lockstep.predict', 'off');
      } catch {}
    });
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors = [];
  page.on('console', (msg) => {
    // A warning is what a blogger opening the console under a widget sees: as bad as an error.
    if (msg.type() === 'error') errors.push({ kind: 'console', text: msg.text() });
    if (msg.type() === 'warning') errors.push({ kind: 'console warning', text: msg.text() });
  });
  page.on('pageerror', (err) => errors.push({ kind: 'pageerror', text: String(err) }));
  page.on('requestfailed', (req) => {
    // A reload or navigation cancels requests still in flight (often the favicon): the
    // browser aborted them, the server did not fail them.
    if (req.failure()?.errorText === 'net::ERR_ABORTED') return;
    errors.push({ kind: 'requestfailed', text: `${req.url()}: ${req.failure()?.errorText}` });
  });
  page.on('response', (res) => {
    if (res.status() >= 400) errors.push({ kind: 'http', text: `${res.status()} ${res.url()}` });
  });
  const url = (hash = '') => new URL(hash, baseUrl).href;
  const ctx = {
    page,
    context,
    baseUrl,
    errors,
    url,
    async open(hash = '') {
      await page.goto(url(hash), { waitUntil: 'load' });
      await page.waitForSelector(APP_READY, { state: 'attached' });
    },
    async screenshot(name) {
      const path = join(SHOTS, `${name}.png`);
      await page.screenshot({ path });
      return path;
    },
  };
  let timer;
  try {
    const timeoutMs = t.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    await Promise.race([
      t.fn(ctx),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    if (!t.options.allowErrors && errors.length > 0) {
      throw new Error(`the page reported errors:\n${errors.map((e) => `  [${e.kind}] ${e.text}`).join('\n')}`);
    }
    return null;
  } catch (err) {
    return err;
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
  }
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');
}
