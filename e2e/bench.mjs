// A browser benchmark of the release build (`cargo xtask bench` builds dist/ and runs
// it). It measures, prints, and ends with the budgets (BUDGETS below) as a table: it
// exits with 1 when a figure is over its budget, and with 2 when it cannot run (no
// build, no browser, the page threw or logged an error). Not part of `cargo xtask test`:
// timings on a shared machine are no test.
//
//   node e2e/bench.mjs [--rounds N] [--json FILE]
//
// In headless Chromium (e2e/browser.mjs: the browser tests' launch and server), with
// the app's own Performance API measures (crates/ui/src/hooks.rs):
//
// - lesson queue-claim-race, re-simulation after a click on a toggle: each value of
//   `claim` from another run, then back to two-step (a run the page keeps: no
//   simulation). `lockstep:simulate` is the engine run; `first view` the state view of
//   the new run's first moment (`lockstep:seek`); click → frame runs from the click
//   event to the first animation frame whose DOM shows the new run. Each round uses
//   its own seed (so no run is cached from an earlier round): seeds 7 (the lesson's),
//   8, 9, ... The round opens the lesson with `tasks=600` and then clicks `tasks=500`,
//   so the two-step row too is a click on a run the page has not seen.
// - seeking in that lesson's two-step run: End from the start and Home from the end,
//   each time with a view the player's ViewCursor has not cached (it computes the state
//   there: `lockstep:seek`), and both again when it has. key → frame runs from the
//   keydown event to the first animation frame whose tables show the new position.
// - navigation → first rendered lesson (`lockstep:lesson-ready`), each time in a fresh
//   document (the server says no-store, so the wasm is fetched again; V8 may reuse the
//   code it compiled in the same browser process, so the first load is the coldest).
// - the size of dist/*.wasm, raw and compressed (gzip -9, brotli 11, with Node's zlib),
//   and of everything a lesson page loads (dist/ but the blog's embed.js and example).
// - Explore in the scheduler view (`lockstep:explore`, click → answer), on the claim
//   race with 2 workers and 3 tasks: finding the two-step duplicate, and proving
//   one-statement for every interleaving; with the states each search explored. The
//   scheduler starts the worker as it opens; the click waits until it is ready, and
//   the worker's start (`lockstep:worker-start`) is a figure of its own.
// - the outcome matrix of queue-claim-race (`#/lesson/queue-claim-race/matrix`: 24
//   combinations × 3 seeds, 72 runs in the worker; `lockstep:matrix`, the page asks →
//   the answer), a fresh page per round, with the longest main-thread task while it
//   computes (Long Tasks API; the task that draws the table is a figure of its own).
// - budgets: first contentful paint and the run on screen of a fresh lesson page (the
//   median over the rounds), and a learner's loop that never ends in the exercise
//   page: the longest main-thread task (Long Tasks API) over 5 s of it, and how long
//   Cancel takes from the click to the verdict on screen.
//
// Figures are min / median / max over the rounds, in ms. `--json FILE` also writes
// every sample. E2E_BASE_URL and CHROMIUM work as for the browser tests (run.mjs).

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

import { DIST, launchChromium, openSite } from './browser.mjs';
import { APP_READY } from './harness.mjs';

const LESSON = 'queue-claim-race';
const CLAIMS = ['two-step', 'conditional', 'one-statement', 'one-statement-no-updlock'];
const LOAD_LESSONS = ['queue-claim-race', 'queue-wait-or-skip'];
const FIRST_SEED = 7; // queue-claim-race's own seed
const SIMULATE = 'lockstep:simulate';
const SEEK = 'lockstep:seek';
const READY = 'lockstep:lesson-ready';
const WAIT_MS = 180_000;
const RUNAWAY_EXERCISE = 'exercise-skip-locked';
const RUNAWAY_EDITOR = '[data-testid=editor-next_task]';
const RUNAWAY_MS = 5_000;
// Each round of the loop counts the task table joined with itself three times, so the
// exercise's step budget (100 000 steps, then the run to show) takes about 9 s on a
// 2-core machine: Check still runs after RUNAWAY_MS. (A plain loop stops within 1-5 s;
// then the longest task covers the whole check, and Cancel is timed on a second one.)
const RUNAWAY_LOOP =
  'DECLARE @spin int; WHILE 1 = 1 SELECT @spin = COUNT(*) FROM dbo.task a CROSS JOIN dbo.task b CROSS JOIN dbo.task c;';
/** Budget per figure: at most `max` (in `unit`). */
const BUDGETS = [
  { key: 'lessonPageBrotliKB', what: 'a lesson page\'s download, brotli', max: 300, unit: 'KB' },
  { key: 'fcpMs', what: 'first contentful paint (median)', max: 300, unit: 'ms' },
  { key: 'runOnScreenMs', what: 'run on screen (median)', max: 500, unit: 'ms' },
  { key: 'longestTaskMs', what: `longest task, a runaway check (to its stop, ${RUNAWAY_MS / 1000} s at most)`, max: 50, unit: 'ms', below: true },
  { key: 'cancelMs', what: 'Cancel → verdict on screen', max: 100, unit: 'ms' },
  { key: 'exploreRaceMs', what: 'Explore finds the claim race duplicate, two-step 2 × 3 (median)', max: 100, unit: 'ms' },
  { key: 'exploreProofMs', what: 'Explore proves one-statement 2 × 3 (median)', max: 1000, unit: 'ms' },
  { key: 'matrixTaskMs', what: `longest task while the ${'queue-claim-race'} matrix computes`, max: 50, unit: 'ms', below: true },
];
const MATRIX = 'lockstep:matrix';
const EXPLORE = 'lockstep:explore';
const WORKER_START = 'lockstep:worker-start';
// The scheduler's Explore button on the claim race with 2 workers and 3 tasks.
const EXPLORE_CASES = [
  { key: 'exploreRaceMs', claim: 'two-step', verdict: 'violated' },
  { key: 'exploreProofMs', claim: 'one-statement', verdict: 'holds' },
];

const options = parseArgs(process.argv.slice(2));

let site;
let browser;
let exitCode = 0;
let overBudget = false;
try {
  site = await openSite();
  browser = await launchChromium();
  const result = {
    chromium: browser.version(),
    node: process.version,
    date: new Date().toISOString(),
    baseUrl: site.baseUrl,
    rounds: options.rounds,
    seeds: Array.from({ length: options.rounds }, (_, r) => FIRST_SEED + r),
    wasm: process.env.E2E_BASE_URL ? [] : await wasmSizes(),
    // Other work on the machine skews the figures: say how busy it was.
    cpus: availableParallelism(),
    load: { start: loadavg()[0] },
  };
  console.log(
    `bench: ${LESSON} and page loads in Chromium ${result.chromium}, ${options.rounds} rounds, ` +
      `against ${site.baseUrl}`,
  );
  const context = await browser.newContext({ colorScheme: 'light', viewport: { width: 1280, height: 800 } });
  // The measures are of runs, not of a learner answering a lesson's question first.
  await context.addInitScript(() => {
    try {
      localStorage.setItem('lockstep.predict', 'off');
    } catch {}
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const errors = watchErrors(page);
  // The moment of the last click or key press, read back after the frame it caused.
  await page.addInitScript(() => {
    for (const type of ['click', 'keydown']) {
      window.addEventListener(type, () => (window.__benchInputAt = performance.now()), true);
    }
  });

  result.lessonPage = process.env.E2E_BASE_URL ? null : await lessonPageSize();
  result.navigation = await measureNavigation(page, site.baseUrl, options.rounds);
  result.runaway = await measureRunaway(page, site.baseUrl);
  const { toggles, seeks } = await measureClaimRace(page, site.baseUrl, result.seeds);
  result.toggles = toggles;
  result.seeks = seeks;
  result.explore = await measureExplore(page, site.baseUrl, options.rounds);
  result.matrix = await measureMatrix(page, site.baseUrl, options.rounds);
  result.load.end = loadavg()[0];
  if (errors.length > 0) {
    throw new Error(`the page reported errors:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  }

  printReport(result);
  overBudget = printBudgets(result);
  if (options.json) {
    await writeFile(options.json, `${JSON.stringify(result, null, 2)}\n`);
    console.log(`bench: wrote ${options.json}`);
  }
} catch (err) {
  exitCode = 2;
  console.log(`bench: could not run: ${err.stack || err}`);
} finally {
  await browser?.close().catch(() => {});
  await site?.close();
}
process.exit(exitCode || (overBudget ? 1 : 0));

function parseArgs(args) {
  const options = { rounds: 5, json: null };
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    if (args[i] === '--rounds' && Number.isInteger(Number(value)) && Number(value) > 0) {
      options.rounds = Number(value);
      i++;
    } else if (args[i] === '--json' && value) {
      options.json = resolve(value);
      i++;
    } else {
      console.error('usage: node e2e/bench.mjs [--rounds N] [--json FILE]');
      process.exit(2);
    }
  }
  return options;
}

function watchErrors(page) {
  const errors = [];
  page.on('console', (msg) => msg.type() === 'error' && errors.push(`[console] ${msg.text()}`));
  page.on('pageerror', (err) => errors.push(`[pageerror] ${err}`));
  page.on('requestfailed', (req) => {
    if (req.failure()?.errorText !== 'net::ERR_ABORTED') {
      errors.push(`[requestfailed] ${req.url()}: ${req.failure()?.errorText}`);
    }
  });
  return errors;
}

async function wasmSizes() {
  const files = (await readdir(DIST)).filter((f) => f.endsWith('.wasm')).sort();
  return Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(join(DIST, file));
      return {
        file: `dist/${file}`,
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: brotliSize(bytes),
      };
    }),
  );
}

/**
 * Brotli size of what a lesson page loads: the files at the top of dist/ but the blog's
 * embed files and the worker's (fetched only when Explore or Check runs), and the
 * lesson's prerendered first paint.
 */
async function lessonPageSize() {
  const entries = await readdir(DIST, { withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && !/^(embed|lockstep-worker|\.)/.test(e.name))
    .map((e) => e.name)
    .sort();
  files.push(`prerender/${LESSON}.html`);
  let brotli = 0;
  for (const file of files) brotli += brotliSize(await readFile(join(DIST, file)));
  return { files, brotli };
}

function brotliSize(bytes) {
  return brotliCompressSync(bytes, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
      [zlib.BROTLI_PARAM_LGWIN]: zlib.BROTLI_MAX_WINDOW_BITS,
      [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }).length;
}

/**
 * A learner's loop that never ends, checked in the exercise page: the longest
 * main-thread task over RUNAWAY_MS of it, then Cancel from click to verdict.
 */
async function measureRunaway(page, baseUrl) {
  await page.goto('about:blank');
  await page.goto(new URL(`#/exercise/${RUNAWAY_EXERCISE}`, baseUrl).href, { waitUntil: 'load' });
  await page.waitForSelector(RUNAWAY_EDITOR);
  const original = await page.inputValue(RUNAWAY_EDITOR);
  const at = original.indexOf('SET NOCOUNT ON;') + 'SET NOCOUNT ON;'.length;
  await page.fill(RUNAWAY_EDITOR, `${original.slice(0, at)}\n${RUNAWAY_LOOP}${original.slice(at)}`);
  await page.evaluate(() => {
    window.__longTasks = [];
    window.__longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    });
    window.__longTaskObserver.observe({ type: 'longtask' });
  });
  const started = Date.now();
  await page.click('[data-testid=check-button]');
  await page.waitForSelector('[data-testid=cancel-check]');
  await page.waitForSelector('[data-testid=verdict]', { timeout: RUNAWAY_MS }).catch(() => {});
  const running = (await page.$('[data-testid=cancel-check]')) !== null;
  const ranMs = Date.now() - started;
  let cancelMs = await cancelCheck(page);
  const tasks = await page.evaluate(() => {
    window.__longTaskObserver.takeRecords().forEach((e) => window.__longTasks.push(e.duration));
    window.__longTaskObserver.disconnect();
    return window.__longTasks;
  });
  // Stopped by the engine's budget before RUNAWAY_MS: Cancel is timed on a second
  // Check of the same loop, a second in.
  if (cancelMs === null) {
    await page.click('[data-testid=check-button]');
    await page.waitForSelector('[data-testid=cancel-check]');
    await page.waitForTimeout(1000);
    cancelMs = await cancelCheck(page);
  }
  return { running, ranMs, cancelMs, longTasks: tasks, longestTaskMs: Math.max(0, ...tasks) };
}

/** Clicks Cancel of the Check that runs: ms from the click to its verdict on screen. */
function cancelCheck(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const button = document.querySelector('[data-testid=cancel-check]');
        if (!button) return resolve(null);
        const start = performance.now();
        button.click();
        const poll = () =>
          document.querySelector('[data-testid=verdict][data-stopped=cancel]')
            ? resolve(performance.now() - start)
            : requestAnimationFrame(poll);
        poll();
      }),
  );
}

/**
 * Explore in the scheduler view: click → answer (`lockstep:explore`), and the search's
 * own figures, for each case, a fresh page per round.
 */
async function measureExplore(page, baseUrl, rounds) {
  const out = [];
  for (const { key, claim, verdict } of EXPLORE_CASES) {
    const samples = [];
    for (let r = 0; r < rounds; r++) {
      await page.goto('about:blank');
      await page.goto(new URL(`#/lesson/${LESSON}/schedule?claim=${claim}&tasks=3`, baseUrl).href, { waitUntil: 'load' });
      await page.waitForSelector('[data-testid=explore-button]');
      await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, WORKER_START, { timeout: WAIT_MS });
      await page.click('[data-testid=explore-button]');
      const result = await page.waitForSelector('[data-testid=explore-result]');
      const got = await result.getAttribute('data-verdict');
      if (got !== verdict) throw new Error(`Explore on claim=${claim}: ${got}, expected ${verdict}`);
      samples.push({
        ms: await page.evaluate((name) => performance.getEntriesByName(name).at(-1)?.duration ?? null, EXPLORE),
        workerMs: await page.evaluate((name) => performance.getEntriesByName(name)[0]?.duration ?? null, WORKER_START),
        states: Number(await result.getAttribute('data-states')),
      });
    }
    out.push({ key, claim, samples });
  }
  return out;
}

/**
 * The claim race's outcome matrix, a fresh page per round: page asks → answer
 * (`lockstep:matrix`, worker start included), the longest main-thread task while the
 * worker computes, and the one that draws the table.
 */
async function measureMatrix(page, baseUrl, rounds) {
  const samples = [];
  // Runs in every document from now on (the pages measured after this one ignore it).
  await page.addInitScript(() => {
    window.__matrixTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__matrixTasks.push({ start: e.startTime, end: e.startTime + e.duration, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  for (let r = 0; r < rounds; r++) {
    await page.goto('about:blank');
    await page.goto(new URL(`#/lesson/${LESSON}/matrix`, baseUrl).href, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid=matrix-table]');
    samples.push(
      await page.evaluate((name) => {
        const m = performance.getEntriesByName(name).at(-1);
        const answered = m.startTime + m.duration;
        const tasks = window.__matrixTasks.filter((x) => x.start >= m.startTime);
        const longest = (xs) => Math.max(0, ...xs.map((x) => x.ms));
        return {
          ms: m.duration,
          taskMs: longest(tasks.filter((x) => x.end <= answered)),
          drawMs: longest(tasks.filter((x) => x.end > answered)),
          runs: Number(document.querySelector('[data-testid=matrix-summary]').dataset.runs),
        };
      }, MATRIX),
    );
  }
  return samples;
}

/** Navigation → first rendered lesson, each in a fresh document. */
async function measureNavigation(page, baseUrl, rounds) {
  const load = [];
  for (const id of LOAD_LESSONS) {
    const samples = [];
    for (let r = 0; r < rounds; r++) {
      await page.goto('about:blank');
      await page.goto(new URL(`#/lesson/${id}`, baseUrl).href, { waitUntil: 'load' });
      await page.waitForSelector(APP_READY, { state: 'attached' });
      await waitFor(page, { settings: [] });
      samples.push(
        await page.evaluate(
          ([ready, simulate]) => ({
            readyMs: performance.getEntriesByName(ready)[0]?.startTime ?? null,
            fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
            simulateMs: performance.getEntriesByName(simulate)[0]?.duration ?? null,
            events: Number(/of (\d+)$/.exec(document.querySelector('[data-testid=position]').textContent)?.[1]),
          }),
          [READY, SIMULATE],
        ),
      );
    }
    load.push({ lesson: id, samples });
  }
  return load;
}

/** Toggle clicks and seeks in queue-claim-race, one round per seed, in one warm page. */
async function measureClaimRace(page, baseUrl, seeds) {
  const toggles = new Map();
  const seeks = new Map();
  const add = (map, key, sample) => map.set(key, [...(map.get(key) ?? []), sample]);
  for (const [round, seed] of seeds.entries()) {
    // Open at tasks=600, a run no click below asks for.
    const hash = `#/lesson/${LESSON}?tasks=600&seed=${seed}`;
    if (round === 0) {
      await page.goto('about:blank');
      await page.goto(new URL(hash, baseUrl).href, { waitUntil: 'load' });
      await page.waitForSelector(APP_READY, { state: 'attached' });
    } else {
      await page.evaluate((h) => (location.hash = h), hash);
    }
    await waitFor(page, { settings: ['tasks=600', 'claim=two-step'], events: 0 });

    // Each claim from another run (two-step: from tasks=600), then back to a kept run.
    add(toggles, 'claim=two-step', { seed, ...(await click(page, 'toggle-tasks-500', ['tasks=500', 'claim=two-step'])) });
    for (const claim of CLAIMS.slice(1)) {
      add(toggles, `claim=${claim}`, { seed, ...(await click(page, `toggle-claim-${claim}`, [`claim=${claim}`])) });
    }
    add(toggles, 'claim=two-step (back: kept run)', {
      seed,
      ...(await click(page, 'toggle-claim-two-step', ['claim=two-step'])),
    });

    // The two-step run, at the start, with a fresh view cursor (the run changed).
    const total = await totalEvents(page);
    add(seeks, 'start → end', { seed, ...(await press(page, 'End', total)) });
    add(seeks, 'end → start (cached view)', { seed, ...(await press(page, 'Home', 0)) });
    add(seeks, 'start → end (cached view)', { seed, ...(await press(page, 'End', total)) });
    // Away to another run and back resets the cursor; the playhead keeps its time.
    await click(page, 'toggle-claim-conditional', ['claim=conditional']);
    await click(page, 'toggle-claim-two-step', ['claim=two-step']);
    if ((await position(page)) !== total) await press(page, 'End', total);
    add(seeks, 'end → start', { seed, ...(await press(page, 'Home', 0)) });
  }
  return {
    toggles: [...toggles].map(([setting, samples]) => ({ setting, samples })),
    seeks: [...seeks].map(([move, samples]) => ({ move, samples })),
  };
}

/**
 * Clicks a toggle and waits for the first frame showing a run for `settings`, with its
 * state view current. Returns the measures taken meanwhile.
 */
async function click(page, testid, settings) {
  const before = await counts(page);
  await page.click(`[data-testid="${testid}"]`);
  const doneAt = await waitFor(page, { settings });
  return taken(page, before, doneAt);
}

/** Presses a player key and waits for the first frame showing `events` with its view. */
async function press(page, key, events) {
  const before = await counts(page);
  await page.keyboard.press(key);
  const doneAt = await waitFor(page, { events });
  return taken(page, before, doneAt);
}

/** How many of each measure the page has taken so far. */
function counts(page) {
  return page.evaluate(
    (names) => names.map((n) => performance.getEntriesByName(n, 'measure').length),
    [SIMULATE, SEEK],
  );
}

async function taken(page, [simulates, seeks], doneAt) {
  const got = await page.evaluate(
    ([names, from]) => ({
      inputAt: window.__benchInputAt,
      measures: names.map((n, i) => performance.getEntriesByName(n, 'measure').slice(from[i]).map((e) => e.duration)),
    }),
    [[SIMULATE, SEEK], [simulates, seeks]],
  );
  const [simulate, seek] = got.measures;
  const sum = (xs) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0));
  return {
    events: await totalEvents(page),
    simulateMs: sum(simulate),
    seekMs: sum(seek),
    seekCount: seek.length,
    frameMs: doneAt - got.inputAt,
  };
}

/**
 * Polls once per animation frame until the player shows a finished run whose settings
 * include `settings`, at `events` events if given, with the state view of that moment
 * (not an earlier one while it catches up); resolves to performance.now() then.
 */
async function waitFor(page, { settings = [], events = null }) {
  const handle = await page.waitForFunction(
    ([want, events]) => {
      const player = document.querySelector('[data-testid=player]');
      if (!player || player.dataset.pending !== 'false') return false;
      const shown = (player.dataset.settings || '').split(' ');
      if (!want.every((s) => shown.includes(s))) return false;
      const position = document.querySelector('[data-testid=position]');
      if (!position || (events !== null && Number(position.dataset.events) !== events)) return false;
      if (document.querySelector('.player__pair')?.getAttribute('aria-busy') !== 'false') return false;
      return performance.now();
    },
    [settings, events],
    { polling: 'raf', timeout: WAIT_MS },
  );
  return handle.jsonValue();
}

/** Events shown (the playhead). */
function position(page) {
  return page.$eval('[data-testid=position]', (el) => Number(el.dataset.events));
}

/** Events in the run shown. */
function totalEvents(page) {
  return page.$eval('[data-testid=position]', (el) => Number(/of ([\d,]+)$/.exec(el.textContent)?.[1].replaceAll(",", "")));
}

function stats(values) {
  const xs = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
  return { min: xs[0], median, max: xs.at(-1), n: xs.length };
}

function fmtStats(values, missing = '-') {
  const s = stats(values);
  if (!s) return missing;
  const ms = (x) => x.toFixed(1);
  const text = `${ms(s.min)} / ${ms(s.median)} / ${ms(s.max)}`;
  // Some rounds measured nothing here (a cached run or view): say how many did.
  return s.n < values.length ? `${text} (${s.n} of ${values.length})` : text;
}

function fmtRange(values) {
  const xs = values.filter(Number.isFinite);
  if (xs.length === 0) return '-';
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

function table(headings, rows) {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => `  ${cells.map((c, i) => c.padEnd(widths[i])).join('  ')}`.trimEnd();
  return [line(headings), ...rows.map(line)].join('\n');
}

function printReport(result) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const col = (samples, key) => samples.map((s) => s[key]);
  const out = [''];
  out.push(`Chromium ${result.chromium}, Node ${result.node}; ms as min / median / max over ${result.rounds} rounds`);
  out.push(
    `load average ${result.load.start.toFixed(1)} at the start, ${result.load.end.toFixed(1)} at the end ` +
      `(${result.cpus} CPUs)`,
  );
  for (const w of result.wasm) {
    out.push(`wasm ${w.file}: ${kib(w.raw)} raw, ${kib(w.gzip)} gzip (zlib, level 9), ${kib(w.brotli)} brotli (quality 11)`);
  }
  if (result.lessonPage) out.push(`a lesson page loads ${kib(result.lessonPage.brotli)} brotli in all`);

  out.push('', `${LESSON}: a toggle click re-simulates (seeds ${result.seeds.join(', ')})`);
  out.push(
    table(
      ['setting', 'events', `simulate (${SIMULATE})`, `first view (${SEEK})`, 'click → frame'],
      result.toggles.map(({ setting, samples }) => [
        setting,
        fmtRange(col(samples, 'events')),
        fmtStats(col(samples, 'simulateMs'), 'none (kept run)'),
        fmtStats(col(samples, 'seekMs')),
        fmtStats(col(samples, 'frameMs')),
      ]),
    ),
  );

  out.push('', `${LESSON}, claim=two-step: seeking with End and Home`);
  out.push(
    table(
      ['move', 'events', `view (${SEEK})`, 'key → frame'],
      result.seeks.map(({ move, samples }) => [
        move,
        fmtRange(col(samples, 'events')),
        fmtStats(col(samples, 'seekMs'), 'none (cached)'),
        fmtStats(col(samples, 'frameMs')),
      ]),
    ),
  );

  out.push('', `${LESSON}, 2 workers × 3 tasks: Explore in the scheduler (${EXPLORE}, click → answer)`);
  out.push(
    table(
      ['claim', 'states', 'ms', 'states/s (median)', `worker start (${WORKER_START}, before the click)`],
      result.explore.map(({ claim, samples }) => {
        const ms = stats(col(samples, 'ms'));
        const states = samples[0]?.states ?? 0;
        return [
          claim,
          fmtRange(col(samples, 'states')),
          fmtStats(col(samples, 'ms')),
          ms ? String(Math.round((states * 1000) / ms.median)) : '-',
          fmtStats(col(samples, 'workerMs'), 'none'),
        ];
      }),
    ),
  );

  out.push('', `${LESSON}: the outcome matrix (${MATRIX}, page asks → answer, worker start included)`);
  out.push(
    table(
      ['runs', 'ms', 'longest task while computing', 'task drawing the table'],
      [[
        fmtRange(col(result.matrix, 'runs')),
        fmtStats(col(result.matrix, 'ms')),
        fmtStats(col(result.matrix, 'taskMs')),
        fmtStats(col(result.matrix, 'drawMs')),
      ]],
    ),
  );

  out.push('', `navigation → first rendered lesson (${READY}), fresh document each time`);
  out.push(
    table(
      ['lesson', 'events', 'first contentful paint', `first rendered (${READY})`, `of which simulate (${SIMULATE})`],
      result.navigation.map(({ lesson, samples }) => [
        lesson,
        fmtRange(col(samples, 'events')),
        fmtStats(col(samples, 'fcpMs')),
        fmtStats(col(samples, 'readyMs')),
        fmtStats(col(samples, 'simulateMs')),
      ]),
    ),
  );
  console.log(out.join('\n'));
}

/** The budgets as a table; returns whether any figure is over its budget. */
function printBudgets(result) {
  const claimRace = result.navigation.find((n) => n.lesson === LESSON)?.samples ?? [];
  const median = (key) => stats(claimRace.map((s) => s[key]))?.median ?? null;
  const figures = {
    lessonPageBrotliKB: result.lessonPage ? result.lessonPage.brotli / 1000 : null,
    fcpMs: median('fcpMs'),
    runOnScreenMs: median('readyMs'),
    longestTaskMs: result.runaway.longestTaskMs,
    cancelMs: result.runaway.cancelMs,
    ...Object.fromEntries(result.explore.map(({ key, samples }) => [key, stats(samples.map((s) => s.ms))?.median ?? null])),
    matrixTaskMs: Math.max(0, ...result.matrix.map((s) => s.taskMs)),
  };
  let over = false;
  const rows = BUDGETS.map(({ key, what, max, unit, below }) => {
    const value = figures[key];
    const fails = value === null || (below ? value >= max : value > max);
    over ||= fails;
    // The Long Tasks API reports only tasks of 50 ms or more.
    const none = (key === 'longestTaskMs' || key === 'matrixTaskMs') && value === 0;
    const shown = value === null ? 'not measured' : none ? 'no long task' : `${value.toFixed(1)} ${unit}`;
    return [what, shown, `${below ? '<' : '≤'} ${max} ${unit}`, fails ? 'OVER' : 'ok'];
  });
  console.log(['', `budgets (${LESSON} for page load; ${RUNAWAY_EXERCISE} for the runaway)`, table(['figure', 'measured', 'budget', ''], rows)].join('\n'));
  if (result.lessonPage) console.log(`  (a lesson page loads: ${result.lessonPage.files.join(', ')})`);
  if (!result.runaway.running) {
    console.log(`  (the engine's budget stopped the runaway check after ${result.runaway.ranMs} ms; Cancel was timed on a second check, 1 s in)`);
  }
  console.log(over ? 'bench: over budget' : 'bench: within budget');
  return over;
}
