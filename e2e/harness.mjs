// The browser-test harness: `test()` registers a test; e2e/run.mjs runs them.
//
// Add tests by creating `e2e/<topic>.test.mjs`:
//
//   import { test, assert } from './harness.mjs';
//   test('lesson: plays to the end', async (t) => {
//     await t.open('#/lesson/readpast');
//     assert.equal(await t.page.textContent('h2'), 'READPAST');
//   });
//
// Each test gets a fresh browser context (empty localStorage, light colour scheme
// unless `{ colorScheme: 'dark' }` is passed as the third argument) and fails if the
// page logged a console error or warning, threw, or a request failed, unless it passes
// `{ allowErrors: true }` and checks `t.errors` itself.

import assert from 'node:assert/strict';

export { assert };

/** @type {{ name: string, file: string, fn: Function, options: object }[]} */
export const registry = [];
let currentFile = '(unknown)';

/** Set by the runner before it imports each test file. */
export function setCurrentFile(file) {
  currentFile = file;
}

/**
 * @param {string} name
 * @param {(t: TestContext) => Promise<void>} fn
 * @param {{ allowErrors?: boolean, colorScheme?: 'light' | 'dark', timeoutMs?: number, predict?: boolean }} [options]
 *   `predict`: lessons ask their questions (every other test opens them with the questions off)
 */
export function test(name, fn, options = {}) {
  registry.push({ name, file: currentFile, fn, options });
}

/**
 * What a test function receives.
 * @typedef {object} TestContext
 * @property {import('playwright-core').Page} page
 * @property {import('playwright-core').BrowserContext} context
 * @property {string} baseUrl  the app's URL, ending in '/'
 * @property {{ kind: string, text: string }[]} errors  console errors and warnings, page errors, failed requests
 * @property {(hash?: string) => Promise<void>} open  loads the app (at `hash`) and waits until it rendered
 * @property {(name: string) => Promise<string>} screenshot  saves target/e2e/<name>.png, returns the path
 * @property {(hash?: string) => string} url
 */

/** Resolves when the app has mounted: Yew renders `<main id="main">` or the panic panel. */
export const APP_READY = '#main, #panic-panel';

/**
 * Clicks `button` from inside the page and resolves with the ms until `done` is in the
 * DOM (checked every animation frame): how long a Cancel takes to answer.
 */
export function timeClick(page, button, done) {
  return page.evaluate(
    ([button, done]) =>
      new Promise((resolve) => {
        const start = performance.now();
        document.querySelector(button).click();
        const poll = () => (document.querySelector(done) ? resolve(performance.now() - start) : requestAnimationFrame(poll));
        poll();
      }),
    [button, done],
  );
}

/** Collects the duration of every long task (over 50 ms) into window.__longTasks. */
export async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}
