// Be the scheduler and Explore: a learner runs the claim race one statement at a time
// by clicks and keys until a task is claimed twice, the URL reproduces that state, undo
// goes back one choice, and Explore finds the interleaving by itself (or is cancelled).

import { test, assert, timeClick } from './harness.mjs';

const RACE = 'claim=two-step&tasks=3';
const VIEW = '[data-testid=schedule-view]';

/** Opens the scheduler and waits for it. */
async function openScheduler(t, query) {
  await t.open(`#/lesson/queue-claim-race/schedule?${query}`);
  await t.page.waitForSelector(VIEW);
}

const steps = (page) => page.$eval(VIEW, (el) => Number(el.dataset.steps));

/** Each session's name and state (enabled, blocked, finished). */
const sessions = (page) =>
  page.$$eval('[data-testid=schedule-session]', (els) => els.map((el) => `${el.dataset.session}:${el.dataset.state}`));

/** Alternates the two workers by clicks (the other one when one cannot run) until a property breaks. */
async function race(page) {
  for (let k = 0; k < 40; k += 1) {
    if (await page.$('[data-testid=property-broken]')) return;
    const states = await sessions(page);
    const want = (await steps(page)) % 2;
    const pick = states[want].endsWith(':enabled') ? want : 1 - want;
    const before = await steps(page);
    await page.click(`[data-testid=schedule-step-${pick + 1}]`);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === n, before + 1);
  }
  throw new Error('no property broke in 40 statements');
}

test('explore: a learner schedules the claim race into a duplicate claim, the link reproduces it, undo goes back', async (t) => {
  const { page } = t;
  await openScheduler(t, RACE);
  assert.deepEqual(await sessions(page), ['worker1:enabled', 'worker2:enabled']);
  assert.equal(await steps(page), 0);
  assert.equal(await page.isDisabled('[data-testid=schedule-undo]'), true);
  // Each session shows its next statement with its line.
  const next = page.locator('[data-testid=schedule-next]').first();
  assert.match(await next.textContent(), /\S/);
  assert.ok(Number(await next.getAttribute('data-line')) >= 1);
  assert.equal(await page.getAttribute('[data-testid=property][data-name=no-double-claim]', 'data-broken'), 'false');

  await race(page);
  const broken = page.locator('[data-testid=property-broken]');
  assert.equal(await broken.getAttribute('data-name'), 'no-double-claim');
  const n = await steps(page);
  assert.equal(Number(await broken.getAttribute('data-step')), n, 'it broke at the last step');
  assert.match(await broken.textContent(), new RegExp(`^Step ${n} broke “No task is claimed twice”: got 1 \\(expected 0\\)\\.$`));
  // The step log names it the same way, not by its id.
  assert.equal(await page.textContent('.schedule__event--broken'), '“No task is claimed twice” broken: got 1 (expected 0)');
  // Announced: the alert sits in an assertive live region, in the warning colour.
  assert.equal(await broken.evaluate((el) => el.parentElement.getAttribute('aria-live')), 'assertive');
  const colours = await broken.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--warn-text)';
    document.body.append(probe);
    const warn = getComputedStyle(probe).color;
    probe.remove();
    return [getComputedStyle(el).color, warn];
  });
  assert.equal(colours[0], colours[1]);
  assert.equal(await page.getAttribute('[data-testid=property][data-name=no-double-claim]', 'data-broken'), 'true');
  assert.equal(await page.locator('[data-testid=schedule-log-step]').count(), n);
  // The claim table shows the task twice.
  const claimed = await page.$$eval('[data-testid=table-claim] tbody tr', (rows) => rows.length);
  assert.ok(claimed >= 2, `${claimed} claim rows`);

  // The URL holds the picks; loading it again shows the same state.
  const url = page.url();
  const schedule = await page.textContent('[data-testid=schedule-string]');
  assert.match(schedule, /^u\./);
  assert.ok(url.includes(`schedule=${schedule}`) && url.includes(`steps=${n}`), url);
  await page.reload();
  await page.waitForSelector(VIEW);
  assert.equal(await steps(page), n);
  assert.equal(await page.textContent('[data-testid=schedule-string]'), schedule);
  assert.equal(Number(await page.getAttribute('[data-testid=property-broken]', 'data-step')), n);
  assert.equal(await page.$('[data-testid=schedule-problem]'), null);
  await t.screenshot('explore-scheduler-broken-light-1280');

  // Undo by key and by button: one statement back each, the property mended.
  await page.locator('body').press('Backspace');
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === k, n - 1);
  assert.equal(await page.$('[data-testid=property-broken]'), null);
  assert.ok(page.url().includes(`steps=${n - 1}`), page.url());
  await page.click('[data-testid=schedule-undo]');
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === k, n - 2);
  // Keys run sessions: 1 is worker1.
  const before = await page.locator('[data-testid=schedule-log-step]').count();
  const enabled = (await sessions(page)).findIndex((s) => s.endsWith(':enabled'));
  await page.locator('body').press(String(enabled + 1));
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === k, n - 1);
  assert.equal(await page.locator('[data-testid=schedule-log-step]').count(), before + 1);

  // Back to the player with the same toggles.
  await page.click('[data-testid=back-to-player]');
  await page.waitForSelector('[data-testid=player]');
  assert.match(page.url(), /#\/lesson\/queue-claim-race\?tasks=3$/);
  // And from the player to the scheduler.
  await page.click('[data-testid=open-scheduler]');
  await page.waitForSelector(VIEW);
  assert.match(page.url(), /#\/lesson\/queue-claim-race\/schedule\?tasks=3$/);
});

test('explore: by keyboard, a Run button that can no longer run keeps the focus, and so does Undo', async (t) => {
  const { page } = t;
  await openScheduler(t, RACE);
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
  await page.focus('[data-testid=schedule-step-1]');
  // worker1 alone, by Enter, until it has finished every statement it has.
  for (let k = 0; k < 80 && (await sessions(page))[0] === 'worker1:enabled'; k += 1) {
    const before = await steps(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) > n, before);
  }
  assert.equal((await sessions(page))[0], 'worker1:finished');
  assert.equal(await page.getAttribute('[data-testid=schedule-step-1]', 'aria-disabled'), 'true');
  assert.equal(await focused(), 'schedule-step-1', 'the focus stays on the button just pressed');
  // Enter on it now does nothing.
  const done = await steps(page);
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
  assert.equal(await steps(page), done);
  // Undo to the start by Enter: the focus stays on Undo.
  await page.focus('[data-testid=schedule-undo]');
  for (let k = done; k > 0; k -= 1) {
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === n, k - 1);
  }
  assert.equal(await page.isDisabled('[data-testid=schedule-undo]'), true);
  assert.equal(await focused(), 'schedule-undo');
});

test('explore: a link with more choices than the run takes says every session finished', async (t) => {
  const { page } = t;
  await openScheduler(t, `${RACE}&schedule=u.0~99`);
  await page.waitForSelector('[data-testid=schedule-problem]');
  const n = await steps(page);
  assert.deepEqual(await sessions(page), ['worker1:finished', 'worker2:finished']);
  assert.match(
    await page.textContent('[data-testid=schedule-problem]'),
    new RegExp(`every session finished after ${n} statements, so \\d+ of the link's 99 choices were not used`),
  );
});

test('explore: Explore finds the duplicate claim and opens it in the scheduler', async (t) => {
  const { page } = t;
  await openScheduler(t, RACE);
  // From the keyboard: the button keeps the focus while the search runs and after.
  await page.focus('[data-testid=explore-button]');
  await page.keyboard.press('Enter');
  const result = page.locator('[data-testid=explore-result]');
  await result.waitFor({ timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'explore-button');
  assert.equal(await result.getAttribute('data-verdict'), 'violated');
  const n = Number(await result.getAttribute('data-steps'));
  // Both workers must read task 1 and then both insert their claim: at least four
  // statements; the search shrinks what it finds to a short one.
  assert.ok(n >= 4 && n <= 20, `${n} steps`);
  assert.match(await result.textContent(), /“No task is claimed twice” breaks after \d+ statements/);
  const narrated = await page.locator('[data-testid=explore-steps] li').allTextContents();
  assert.ok(narrated.length >= n, narrated.join('\n'));
  assert.ok(narrated.some((l) => /^worker1 /.test(l)) && narrated.some((l) => /^worker2 /.test(l)), narrated.join('\n'));

  const schedule = await result.getAttribute('data-schedule');
  const player = await page.getAttribute('[data-testid=explore-open-player]', 'href');
  assert.equal(player, `#/lesson/queue-claim-race?tasks=3&schedule=${schedule}`);
  await page.click('[data-testid=explore-open-scheduler]');
  await page.waitForFunction((k) => Number(document.querySelector('[data-testid=schedule-view]')?.dataset.steps) === k, n);
  assert.equal(await page.textContent('[data-testid=schedule-string]'), schedule);
  assert.equal(await page.getAttribute('[data-testid=property-broken]', 'data-name'), 'no-double-claim');
  assert.equal(Number(await page.getAttribute('[data-testid=property-broken]', 'data-step')), n);

  // The player replays the same schedule, says so, and shows the duplicate claim.
  await t.open(player);
  await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.pending === 'false' && document.querySelector('[data-testid=transport]'));
  assert.equal(await page.getAttribute('[data-testid=schedule-note]', 'data-schedule'), schedule);
  assert.equal(await page.$('[data-testid=schedule-problem]'), null);
  assert.ok((await page.locator('[data-testid=anomaly]').count()) >= 1, 'a duplicate claim is marked');
  assert.ok(page.url().endsWith(`schedule=${schedule}`), page.url());
});

test('explore: the counterexample says why, and the player marks the two conflicting steps', async (t) => {
  const { page } = t;
  await openScheduler(t, RACE);
  await page.click('[data-testid=explore-button]');
  const result = page.locator('[data-testid=explore-result][data-verdict=violated]');
  await result.waitFor({ timeout: 30_000 });
  // The sentence on top, and the two steps it names highlighted in the narration.
  const why = page.locator('[data-testid=explore-conflict]');
  assert.equal(await why.textContent(), "Why: worker1 reads task 1 before worker2's UPDATE writes it; both go on to write it.");
  const [read, write] = [Number(await why.getAttribute('data-read')), Number(await why.getAttribute('data-write'))];
  assert.deepEqual([read, write], [4, 12]);
  const hot = await page.$$eval('[data-testid=explore-steps] li', (lis) => lis.flatMap((li, k) => (li.dataset.conflict === 'true' ? [k] : [])));
  assert.deepEqual(hot, [read, write]);

  // The player replays it: the same sentence beside the lanes, and one mark per step.
  const schedule = await result.getAttribute('data-schedule');
  await page.click('[data-testid=explore-open-player]');
  await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.pending === 'false' && document.querySelector('[data-testid=transport]'));
  assert.match(await page.textContent('[data-testid=conflict-summary]'), /^worker1 reads task 1 before worker2's UPDATE/);
  const marks = page.locator('[data-testid=conflict-step]');
  assert.equal(await marks.count(), 2);
  assert.deepEqual(await marks.evaluateAll((els) => els.map((el) => Number(el.dataset.step)).sort((a, b) => a - b)), [read, write]);
  // Clicking one (the keyboard reaches it too: it is a button) seeks just after that step.
  const mark = page.locator(`[data-testid=conflict-step][data-step="${write}"]`);
  const target = Number(await mark.getAttribute('data-events'));
  assert.equal(await mark.evaluate((el) => el.tagName), 'BUTTON');
  await mark.click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=position]')?.dataset.events) === n, target);
  await mark.focus();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'conflict-step');
  await t.screenshot('explore-conflict-player');

  // Back in the browser: the answer is still there, with no second search.
  await page.goBack();
  const back = page.locator('[data-testid=explore-result][data-verdict=violated]');
  await back.waitFor({ timeout: 5_000 });
  assert.equal(await back.getAttribute('data-schedule'), schedule);
  assert.equal(await page.$('[data-testid=explore-progress]'), null);
});

test('explore: an untimed replay in the player starts B when the schedule picks it, and a pick that cannot be made stops the run', async (t) => {
  const { page } = t;
  const ready = () => page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.pending === 'false' && document.querySelector('[data-testid=transport]'));
  // In the lesson B starts at 1.5 s; untimed, start times do not apply.
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&schedule=u.0~2.1~3.0~4');
  await ready();
  const note = await page.textContent('[data-testid=schedule-note]');
  assert.match(note, /untimed/);
  assert.doesNotMatch(await page.textContent('[data-testid=lane-B]'), /1,500 ms/);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]')?.dataset.events) === 0);
  // Nor does B's card, before it has started: it starts when the schedule first picks it.
  assert.match(await page.textContent('[data-testid=status-B]'), /^not started \(starts at 0\.\d+ ms\)$/);
  // Session 7 does not exist: the run stops at the first choice, and the note says so.
  await t.open('#/lesson/queue-claim-race?tasks=3&schedule=u.7');
  await page.waitForSelector('[data-testid=schedule-problem]');
  const stopped = await page.textContent('[data-testid=schedule-note]');
  assert.match(stopped, /the run stops where the schedule cannot be followed/);
  assert.doesNotMatch(stopped, /seeded scheduler picks/);
  assert.match(stopped, /schedule choice 1 picks session 7, which does not exist/);
});

test('explore: one statement holds for every interleaving at 2 × 3, exhaustively', async (t) => {
  const { page } = t;
  await openScheduler(t, 'claim=one-statement&tasks=3');
  await page.click('[data-testid=explore-button]');
  const result = page.locator('[data-testid=explore-result]');
  await result.waitFor({ timeout: 30_000 });
  assert.equal(await result.getAttribute('data-verdict'), 'holds');
  assert.equal(await result.getAttribute('data-exhaustive'), 'true');
  assert.ok(Number(await result.getAttribute('data-states')) > 10);
  assert.match(await result.textContent(), /holds for every interleaving up to 400 steps per interleaving/);
});

test('explore: on the scheduler\'s own settings (500 tasks) the duplicate is found among the short interleavings first', async (t) => {
  const { page } = t;
  // Depth first down 500 tasks met the 16-step duplicate only after 11 078 states.
  await openScheduler(t, 'claim=two-step');
  await page.click('[data-testid=explore-button]');
  const result = page.locator('[data-testid=explore-result]');
  await result.waitFor({ timeout: 30_000 });
  assert.equal(await result.getAttribute('data-verdict'), 'violated');
  assert.equal(await result.getAttribute('data-steps'), '16');
  const states = Number(await result.getAttribute('data-states'));
  assert.ok(states < 1000, `found after ${states} states`);
});

test('explore: Cancel (or Esc) stops a long search', async (t) => {
  const { page } = t;
  await openScheduler(t, 'claim=conditional&tasks=3&workers=4');
  await page.click('[data-testid=explore-button]');
  await page.waitForSelector('[data-testid=explore-cancel]', { timeout: 10_000 });
  // Progress moves while the page stays usable.
  await page.waitForFunction(() => /states explored/.test(document.querySelector('[data-testid=explore-progress]')?.textContent ?? ''), null, { timeout: 10_000 });
  // While it searches the button says it cannot act (and ignores a press).
  assert.equal(await page.getAttribute('[data-testid=explore-button]', 'aria-disabled'), 'true');
  const cancelMs = await timeClick(page, '[data-testid=explore-cancel]', '[data-testid=explore-result][data-verdict=cancelled]');
  assert.ok(cancelMs < 1000, `Cancel took ${cancelMs} ms`);
  assert.equal(await page.getAttribute('[data-testid=explore-button]', 'aria-disabled'), 'false');
  assert.match(await page.textContent('[data-testid=explore-result]'), /^You cancelled the search: [\d\s,]+ states explored/);
  // The scheduler still answers.
  await page.click('[data-testid=schedule-step-1]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === 1);
  // Esc cancels a search too, wherever the focus is.
  await page.click('[data-testid=explore-button]');
  await page.waitForSelector('[data-testid=explore-cancel]', { timeout: 10_000 });
  assert.equal(await page.getAttribute('[data-testid=explore-cancel]', 'aria-keyshortcuts'), 'Escape');
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid=explore-result][data-verdict=cancelled]', { timeout: 2_000 });
});

for (const [scheme, width, height] of [['dark', 390, 844], ['light', 390, 844]]) {
  test(`explore: the scheduler is usable at ${width} px in the ${scheme} theme`, async (t) => {
    const { page } = t;
    await page.setViewportSize({ width, height });
    await openScheduler(t, RACE);
    await race(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px`);
    const button = await page.locator('[data-testid=schedule-step-1]').boundingBox();
    assert.ok(button.width >= 44 || button.height >= 32, JSON.stringify(button));
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
    await t.screenshot(`explore-scheduler-${scheme}-${width}`);
  }, { colorScheme: scheme });
}

test('explore: a statement a session has started is one it goes on with, not its next one to run; a key that runs nothing says why', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip/schedule?readpast=off');
  await t.page.waitForSelector(VIEW);
  const card = (name) => `[data-testid=schedule-session][data-session=${name}]`;
  // A runs to its COMMIT, which then takes more steps (its log write and commit).
  for (let k = 0; k < 12; k += 1) {
    const log = await page.$eval(`${card('A')} [data-testid=schedule-did]`, (el) => el.textContent).catch(() => '');
    if (/runs line \d+: COMMIT/.test(log)) break;
    const before = await steps(page);
    await page.click('[data-testid=schedule-step-1]');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === n, before + 1);
  }
  assert.match(await page.textContent(`${card('A')} [data-testid=schedule-did]`), /runs line \d+: COMMIT/);
  const next = page.locator(`${card('A')} [data-testid=schedule-next]`);
  assert.equal(await next.textContent(), 'COMMIT');
  assert.equal(await next.getAttribute('data-continues'), 'true');
  assert.match(await page.textContent(`${card('A')} .schedule__next-label`), /^Goes on with line \d+ of A’s SQL, which it has started:$/);
  // B, not started, has a next statement to run.
  assert.equal(await page.getAttribute(`${card('B')} [data-testid=schedule-next]`, 'data-continues'), null);
  assert.match(await page.textContent(`${card('B')} .schedule__next-label`), /^Next statement/);
  // B waits for A's lock: its key says why it runs nothing; a key with no session too.
  for (let k = 0; k < 12 && (await page.getAttribute(card('B'), 'data-state')) === 'enabled'; k += 1) {
    const before = await steps(page);
    await page.click('[data-testid=schedule-step-2]');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]').dataset.steps) === n, before + 1);
  }
  assert.match(await page.textContent(`${card('B')} [data-testid=schedule-status]`), /waiting for A/);
  const stepsNow = await steps(page);
  await page.keyboard.press('2');
  await page.waitForFunction(() => /^B cannot run now: waiting for A/.test(document.querySelector('[data-testid=schedule-refused]').textContent));
  await page.keyboard.press('7');
  await page.waitForFunction(() => document.querySelector('[data-testid=schedule-refused]').textContent === 'No session has the key 7.');
  assert.equal(await steps(page), stepsNow);
  assert.match(await page.textContent('.schedule__keys'), /^Keys: 1–2 run a session/);
});
