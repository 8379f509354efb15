// The lesson player: toggles re-simulate, lanes and outcome show waits and errors, the
// playhead moves by keyboard, clicks and URL, and each lesson renders readably in both
// themes on a desktop and a phone. Real clicks and key presses, real DOM reads.

import { test, assert } from './harness.mjs';
import { settled, openLesson, position, atEvents } from './settle.mjs';

const waitMs = (page, session) =>
  page.$eval(`[data-testid=outcome-${session}]`, (el) => Number(el.dataset.waitMs));

/** The checks panel as { name: { passed, detail } }. */
const checks = (page) =>
  page.$$eval('[data-testid=check]', (items) =>
    Object.fromEntries(
      items.map((li) => [
        li.dataset.name,
        { passed: li.dataset.passed === 'true', detail: li.querySelector('[data-testid=check-detail]').textContent },
      ]),
    ),
  );

test('player: READPAST on, B gets a task at once (wait ≤ 1 ms and the task it got)', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip', 'readpast=on');
  assert.ok((await waitMs(page, 'B')) <= 1, `B waited ${await waitMs(page, 'B')} ms`);
  assert.match(await page.textContent('[data-testid=wait-B]'), /^0 ms$/);
  const got = await page.$$eval('[data-testid=result-B-1] tbody tr', (rows) => rows.map((r) => r.textContent));
  assert.deepEqual(got, ['2task 23B'], 'B claims task 2');
  // The lanes say B never waited.
  assert.equal(await page.$('[data-testid=lane-B] [data-state=waiting]'), null);
  const results = await checks(page);
  assert.ok(Object.values(results).every((c) => c.passed), JSON.stringify(results, null, 1));
  // The pressed value's check mark is drawn, not named: a screen reader hears "on,
  // pressed", not "check mark on".
  assert.match(await page.locator('[data-testid=toggle-readpast-on]').ariaSnapshot(), /^- button "on" \[pressed\]$/);
});

test('player: READPAST off, B waits about 2.5 s for A, shown in lanes and before → after', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip', 'readpast=on');
  await page.click('[data-testid=toggle-readpast-off]');
  await settled(page, 'readpast=off');
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast-off]', 'aria-pressed'), 'true');
  assert.match(page.url(), /readpast=off/);

  // A segment of B's lane is a wait, for A, and says so in words.
  const waiting = page.locator('[data-testid=lane-B] [data-state=waiting]');
  assert.equal(await waiting.count(), 1);
  assert.equal(await waiting.getAttribute('data-holders'), 'A');
  assert.match(await waiting.locator('.seg__label').textContent(), /waits for A/);
  const from = Number(await waiting.getAttribute('data-from-ms'));
  const to = Number(await waiting.getAttribute('data-to-ms'));
  assert.ok(from >= 1500 && from < 1501 && to > 4000 && to < 4001, `wait ${from}-${to} ms`);

  const wait = await waitMs(page, 'B');
  assert.ok(wait >= 2450 && wait <= 2550, `B waited ${wait} ms`);
  // Before → after names B's wait, and the switched text flashes.
  const line = await page.textContent('[data-testid=before-after] li[data-what="B waited"]');
  assert.match(line, /B waited\s*0 ms.*2,500\.185 ms/);
  assert.ok(await page.$('mark.toggled--fresh[data-toggle=readpast]'), 'the READPAST span is not highlighted');

  // At 2 s B is blocked on A's lock: its status, the wait-for graph and the lock list agree.
  await page.evaluate(() => {
    location.hash = '#/lesson/queue-wait-or-skip?readpast=off&t=2000';
  });
  await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.tMs === '2000');
  assert.match(await page.textContent('[data-testid=status-B]'), /waiting for A/);
  assert.match(await page.textContent('[data-testid=wait-edges]'), /B waits for A \(U on KEY task \(1\)\)/);
  const results = await checks(page);
  assert.ok(Object.values(results).every((c) => c.passed), JSON.stringify(results, null, 1));
});

test('player: PostgreSQL lock modes are spelled as the server names them in the wait graph and the lock list', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/pg-queue-skip-locked?skip_locked=off&t=2000', 'skip_locked=off');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.tMs === '2000');
  assert.match(await page.textContent('[data-testid=wait-edges]'), /B waits for A \(FOR UPDATE on TUPLE task \(1\)\)/);
  const locks = await page.textContent('[data-testid=waits] .locks');
  assert.match(locks, /A FOR UPDATE/);
  assert.match(locks, /B wants FOR UPDATE/);
  assert.doesNotMatch(locks, /\bFU\b/);
});

test('player: the URL after a toggle and steps reloads to the same state', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip', 'readpast=on');
  await page.click('[data-testid="toggle-ranks-3,1,1"]');
  await settled(page, 'ranks=3,1,1');
  for (let i = 0; i < 7; i++) await page.click('[data-testid=step-forward]');
  const before = await position(page);
  assert.equal(before.events, 7);
  // `t` says where; `e` is added when other events share that instant.
  await page.waitForFunction(() => /[?&]t=/.test(location.hash));
  const url = page.url();
  assert.match(url, /#\/lesson\/queue-wait-or-skip\?ranks=3,1,1&t=[\d.]+(&e=7)?$/);

  await page.reload();
  await settled(page, 'ranks=3,1,1');
  assert.equal(page.url(), url);
  assert.deepEqual(await position(page), before);
  assert.equal(await page.getAttribute('[data-testid="toggle-ranks-3,1,1"]', 'aria-pressed'), 'true');
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast-on]', 'aria-pressed'), 'true');
  const narration = await page.textContent('[data-testid=narration]');
  assert.match(narration, /event 7 of/);

  // A link with only `t` lands after every event at that time.
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000');
  await settled(page, 'readpast=off');
  const at = await position(page);
  assert.equal(at.t, 2000);
  assert.match(await page.textContent('[data-testid=narration]'), /B waits for U on KEY task \(1\): A holds X/);
});

test('player: keyboard steps, jumps and plays; clicks on the log and lanes move the playhead', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip');
  // The speed control says what 1× means: events, not virtual time.
  assert.match(
    await page.$eval('[data-testid=speed]', (el) => el.closest('label').title),
    /^At 1×, four events a second; a quiet stretch plays in real time up to a quarter second/,
  );
  assert.deepEqual(await position(page), { events: 0, t: 0 });
  await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).events, 1);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).events, 3);
  await page.keyboard.press('ArrowLeft');
  assert.equal((await position(page)).events, 2);
  await page.keyboard.press('End');
  const end = await position(page);
  assert.ok(end.events > 30 && end.t > 1500, JSON.stringify(end));
  await page.keyboard.press('Home');
  assert.deepEqual(await position(page), { events: 0, t: 0 });
  // On the focused slider, Home and End go where the page's keys go (the slider's own
  // Home would stop after the events at 0 ms).
  await page.focus('[data-testid=scrub]');
  await page.keyboard.press('End');
  assert.deepEqual(await position(page), end);
  await page.keyboard.press('Home');
  assert.deepEqual(await position(page), { events: 0, t: 0 });

  // The End and Home buttons, pressed from the keyboard, keep the focus where they
  // cannot act any more (at the end and at the start), so Tab goes on from there.
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
  await page.focus('[data-testid=end]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=end]').getAttribute('aria-disabled') === 'true');
  assert.equal(await focused(), 'end');
  assert.equal((await position(page)).events, end.events);
  await page.keyboard.press('Enter');
  assert.equal((await position(page)).events, end.events, 'End at the end does nothing');
  await page.focus('[data-testid=home]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=home]').getAttribute('aria-disabled') === 'true');
  assert.equal(await focused(), 'home');
  assert.deepEqual(await position(page), { events: 0, t: 0 });
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'step-back');
  await page.evaluate(() => document.activeElement.blur());

  // The narration is a polite live region naming the step.
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid=narration]', 'aria-live'), 'polite');
  assert.match(await page.textContent('[data-testid=narration]'), /event 1 of \d+: setup ran/);

  // Space plays; the playhead moves on its own; Space pauses.
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'data-playing'), 'true');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]').dataset.events) >= 3);
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('[data-testid=play]', 'data-playing'), 'false');

  // Clicking an event in the log goes there (the log is a tab of the dock).
  await page.click('[data-testid=tab-events]');
  const item = page.locator('[data-testid=event-log] li[data-index="5"] button');
  await item.click();
  assert.equal((await position(page)).events, 6);
  assert.equal(await page.getAttribute('[data-testid=event-log] li[data-index="5"]', 'aria-current'), 'step');
  // The events beyond the log's window are reached by its buttons (by keyboard too).
  await page.focus('[data-testid=log-later]');
  await page.keyboard.press('Enter');
  assert.equal((await position(page)).events, 20, 'to the first later event (index 19)');
  await page.click('[data-testid=log-earlier]');
  assert.equal((await position(page)).events, 13, 'to the last earlier event (index 12)');

  // Clicking a lane at its middle moves the playhead to about half the run.
  const track = page.locator('[data-testid=lane-A] .lane__track');
  await track.scrollIntoViewIfNeeded();
  const box = await track.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const mid = await position(page);
  assert.ok(Math.abs(mid.t - end.t / 2) < end.t * 0.02, `clicked at half: ${mid.t} of ${end.t}`);
});

test('player: arrow keys on a toggle move between its values and leave the playhead alone', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-claim-race', 'claim=two-step');
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid);
  await page.focus('[data-testid=toggle-claim-two-step]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), 'toggle-claim-conditional');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'toggle-claim-one-statement');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  // Round the ends: before the first value is the last.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), 'toggle-claim-one-statement-no-updlock');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), 'toggle-claim-one-statement');
  assert.deepEqual(await position(page), { events: 0, t: 0 }, 'the player did not step');
  assert.equal(await page.getAttribute('[data-testid=toggle-claim]', 'data-value'), 'two-step', 'moving presses nothing');
  // Enter presses the focused value, as a click does.
  await page.keyboard.press('Enter');
  await settled(page, 'claim=one-statement');
  assert.equal(await page.getAttribute('[data-testid=toggle-claim]', 'data-value'), 'one-statement');
  // Escape leaves the toggles: the arrows step the player again, and Space plays.
  await page.keyboard.press('Escape');
  assert.equal(await focused(), undefined, 'the value lost the focus');
  await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).events, 1);
  await page.keyboard.press(' ');
  await page.waitForFunction(() => /Pause/.test(document.querySelector('[data-testid=play]').getAttribute('aria-label')));
  assert.equal(await page.getAttribute('[data-testid=toggle-claim]', 'data-value'), 'one-statement', 'Space pressed no toggle');
});

test('player: on a 1280×720 projector, the keys are listed, Page Down scrolls the page and Why opens in sight below the pinned stage', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  await openLesson(t, '#/lesson/queue-wait-or-skip', 'readpast=on');
  // The player's keys, listed where the legend is.
  await page.click('[data-testid=keys] summary');
  const keys = await page.$$eval('[data-testid=keys] li', (lis) => lis.map((li) => li.textContent));
  assert.deepEqual(keys.map((k) => k.split(' ')[0]), ['Space', '←', 'Home', '[', '?', 'Esc', 'PgUp']);
  assert.match(keys[0], /^Space play or pause$/);
  // Open, the list scrolls with the page (a stage that tall could not stay at the top).
  assert.equal(await page.$eval('.stage__pinned', (el) => getComputedStyle(el).position), 'static');
  await page.click('[data-testid=keys] summary');
  assert.equal(await page.$eval('.stage__pinned', (el) => getComputedStyle(el).position), 'sticky');
  // A window this short scrolls the page, not the stage's column: Page Down moves it,
  // and steps nothing.
  await page.evaluate(() => document.activeElement.blur());
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => window.scrollY > 0);
  assert.equal(await page.$eval('.lesson--stage .stage', (el) => el.scrollTop), 0);
  await page.keyboard.press('PageUp');
  await page.waitForFunction(() => window.scrollY === 0);
  assert.deepEqual(await position(page), { events: 0, t: 0 }, 'the player did not step');
  // A link with why=1 opens the panel in sight, below the transport, narration and
  // lanes that stay at the top.
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000&why=1');
  await settled(page, 'readpast=off');
  await page.waitForSelector('[data-testid=why]');
  await page.waitForFunction(() => {
    const pinned = document.querySelector('.stage__pinned').getBoundingClientRect();
    const why = document.querySelector('[data-testid=why]').getBoundingClientRect();
    return pinned.top >= -0.5 && why.top >= pinned.bottom - 0.5 && why.top + 64 <= window.innerHeight;
  });
});

test('player: a focused box that scrolls keeps its keys; the player does not take them', async (t) => {
  const { page } = t;
  // Side by side: the Lesson panel is narrower than the setup's longest line.
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLesson(t, '#/lesson/queue-wait-or-skip', 'readpast=on');
  // The setup listing is wider than the Lesson panel: the arrows scroll it.
  const pre = page.locator('#tabpanel-lesson pre.code').first();
  const wide = await pre.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  assert.ok(wide, 'the setup listing overflows its panel');
  await pre.focus();
  for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
  // The browser's own keyboard scroll is animated: wait for it to move.
  await pre.evaluate((el) => new Promise((resolve, reject) => {
    const until = performance.now() + 5000;
    const poll = () => (el.scrollLeft > 0 ? resolve() : performance.now() > until ? reject(new Error('the listing did not scroll')) : requestAnimationFrame(poll));
    poll();
  }));
  assert.deepEqual(await position(page), { events: 0, t: 0 }, 'the player did not step');
  // The Lesson panel scrolls down: End goes to its end, not to the run's.
  const panel = page.locator('#tabpanel-lesson');
  await panel.focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#tabpanel-lesson').scrollTop > 0);
  assert.deepEqual(await position(page), { events: 0, t: 0 }, 'End scrolled the panel');
  // ← → on the panel (which does not scroll across) still step the player.
  await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).events, 1);
});

test('player: at 320 px the position line is the time on one line, whole; the event count is the narration\'s', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 320, height: 700 });
  await openLesson(t, '#/lesson/queue-claim-race', 'claim=two-step');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]').dataset.events !== '0');
  const pieces = await page.$$eval('[data-testid=position] > *', (els) =>
    els.map((el) => ({ text: el.textContent, width: el.getBoundingClientRect().width })),
  );
  assert.equal(pieces.length, 3, JSON.stringify(pieces));
  // The count is there for a screen reader, out of sight: the narration shows it.
  assert.match(pieces[2].text, /^ · event [\d,]+ of [\d,]+$/);
  assert.ok(pieces[2].width <= 1, JSON.stringify(pieces));
  const [count] = /event [\d,]+ of [\d,]+/.exec(pieces[2].text);
  assert.ok((await page.textContent('[data-testid=narration]')).includes(count));
  // The time and the end, on one line and not cut.
  const line = await page.$eval('[data-testid=position]', (el) => ({
    lines: el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
    cut: el.scrollWidth > el.clientWidth + 1,
  }));
  assert.ok(line.lines < 1.5 && !line.cut, JSON.stringify(line));
});

test('player: the claim race, two-step duplicates claims and one-statement does not', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-claim-race', 'claim=two-step');
  let results = await checks(page);
  const twice = results['Two-step: some task was claimed twice'];
  assert.ok(twice, `no duplicate check in ${Object.keys(results)}`);
  const duplicates = Number(/got (\d+)/.exec(twice.detail)?.[1]);
  assert.ok(twice.passed && duplicates > 0, `two-step duplicates: ${twice.detail}`);

  // Flip to one statement and time the re-simulation as the learner sees it: the
  // engine run (the app's `lockstep:simulate` measure) and click → new outcome on screen.
  const flip = async (claim) => {
    const measures = await page.evaluate(() => performance.getEntriesByName('lockstep:simulate').length);
    const started = await page.evaluate(() => performance.now());
    await page.click(`[data-testid=toggle-claim-${claim}]`);
    const done = await page.waitForFunction(
      (want) => {
        const el = document.querySelector('[data-testid=player]');
        return el.dataset.pending === 'false' && el.dataset.settings.includes(want) && performance.now();
      },
      `claim=${claim}`,
      { timeout: 20_000, polling: 'raf' },
    );
    const shownMs = (await done.jsonValue()) - started;
    const entries = await page.evaluate(() => performance.getEntriesByName('lockstep:simulate').map((e) => e.duration));
    const simulated = entries.length > measures ? `simulation ${entries.at(-1).toFixed(0)} ms` : 'run cached, no simulation';
    const events = await page.$eval('[data-testid=position]', (el) => el.textContent.match(/of ([\d,]+)$/)?.[1]);
    return `${claim} (${events} events): ${simulated}, click to rendered ${shownMs.toFixed(0)} ms`;
  };
  const timings = [await flip('one-statement'), await flip('conditional'), await flip('one-statement'), await flip('two-step')];
  console.log(`     perf: queue-claim-race re-simulation after a toggle: ${timings.join('; ')}`);
  await flip('one-statement');

  results = await checks(page);
  const once = results['Conditional, one-statement: no task is claimed twice'];
  assert.ok(once?.passed, JSON.stringify(results, null, 1));
  assert.equal(once.detail, 'got 0');
  assert.ok(Object.values(results).every((c) => c.passed), JSON.stringify(results, null, 1));
  // READPAST skips show as marks on the lanes.
  assert.ok((await page.locator('[data-testid=lane-worker1] [data-kind=skipped]').count()) > 0);
  // What the last toggle changed counts the anomalies: two-step's 488 duplicates are gone.
  const shownTab = await page.$eval('[role=tab][aria-selected=true]', (el) => el.dataset.testid);
  await page.click('[data-testid=tab-outcome]');
  const anomalies = page.locator('[data-testid=before-after] li[data-what=Anomalies]');
  assert.equal(await anomalies.locator('.before-after__before').textContent(), '488');
  assert.equal(await anomalies.locator('.before-after__after').textContent(), '0');
  await page.click(`[data-testid=${shownTab}]`);
  // The player's keys, not the tab list's (where End picks the last tab).
  await page.evaluate(() => document.activeElement.blur());

  // Stepping back from the end of a long run replays it; the tables catch up.
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => document.querySelector('.player__pair')?.getAttribute('aria-busy') === 'false');
  const claim = await page.textContent('[data-testid=table-claim] .table__count');
  assert.match(claim, /^500 rows/);
});

test('player: isolation SNAPSHOT with READPAST fails with error 650', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-isolation', 'isolation=read-committed', 'readpast=on');
  await page.click('[data-testid=toggle-isolation-snapshot]');
  await settled(page, 'isolation=snapshot');
  for (const session of ['A', 'B']) {
    const error = page.locator(`[data-testid=error-${session}]`);
    assert.equal(await error.getAttribute('data-number'), '650');
    assert.match(await error.textContent(), /Error 650.*READPAST lock in the READ COMMITTED or REPEATABLE READ/);
  }
  // The lanes mark the failure with its number.
  assert.match(await page.textContent('[data-testid=lane-B] [data-kind=error]'), /650/);
  assert.match(page.url(), /isolation=snapshot/);
  const results = await checks(page);
  assert.ok(Object.values(results).every((c) => c.passed), JSON.stringify(results, null, 1));
});

test('player: an error whose number our sources do not give says so, not "error 0"', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/teradata-rules?t4=break', 't4=break');
  const error = page.locator('[data-testid=error-t4_consumer]');
  assert.equal(await error.getAttribute('data-number'), '0');
  assert.match(await error.textContent(), /^Error \(no number\): A multi-statement request may hold only one SELECT AND CONSUME/);
  const mark = await page.textContent('[data-testid=lane-t4_consumer] [data-kind=error]');
  assert.match(mark, /^✕t4_consumer gets error \(no number\) at 0 ms$/);
});

test('player: speed= in a link sets the play speed, and the address follows the menu', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip?speed=4');
  const shown = () => page.$eval('[data-testid=speed]', (el) => el.selectedOptions[0].textContent);
  assert.equal(await shown(), '4×');
  // The menu's choice goes into the address (1×, the default, is not written).
  await page.selectOption('[data-testid=speed]', { label: '0.5×' });
  await page.waitForFunction(() => location.hash.includes('speed=0.5'));
  await page.selectOption('[data-testid=speed]', { label: '1×' });
  await page.waitForFunction(() => !location.hash.includes('speed='));
  await page.selectOption('[data-testid=speed]', { label: '16×' });
  await page.waitForFunction(() => location.hash.includes('speed=16'));
  // A toggle keeps it, and so does a reload.
  await page.click('[data-testid=toggle-readpast-off]');
  await page.waitForFunction(() => location.hash.includes('readpast=off') && location.hash.includes('speed=16'));
  await page.reload();
  await page.waitForSelector('[data-testid=speed]');
  assert.equal(await shown(), '16×');
});

test('player: a broken link says what is wrong and still plays', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-wait-or-skip?readpast=maybe&pace=3&speed=3&t=soon');
  const warnings = await page.textContent('[data-testid=url-warnings]');
  assert.match(warnings, /readpast=maybe.*values: on, off.*showing readpast=on/);
  assert.match(warnings, /readpast=maybe: maybe is not a value/);
  assert.match(warnings, /unknown toggle pace/);
  assert.match(warnings, /speed=3 is not a speed the player offers \(0\.25, 0\.5, 1, 2, 4, 16, 64, 256, 1024\): it plays at 1×/);
  assert.match(warnings, /t=soon is not a time/);
  // Names and values from the link are code, not backticks.
  assert.doesNotMatch(warnings, /`/);
  assert.deepEqual(await page.$$eval('[data-testid=url-warnings] li:first-child code', (cs) => cs.map((c) => c.textContent)),
    ['readpast=maybe', 'maybe', 'readpast', 'readpast=on']);
  // A toggle without a value says it needs one.
  await openLesson(t, '#/lesson/queue-wait-or-skip?readpast=', 'readpast=on');
  assert.match(await page.textContent('[data-testid=url-warnings]'), /toggle readpast needs a value \(values: on, off\)/);
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast-on]', 'aria-pressed'), 'true');

  // A time past the run's end opens the run at its end, and says so; so does an event count.
  await openLesson(t, '#/lesson/queue-wait-or-skip?t=999999');
  const end = Number(await page.getAttribute('[data-testid=outcome]', 'data-end-ms'));
  assert.equal((await position(page)).t, end);
  assert.match(await page.textContent('[data-testid=url-warnings]'),
    new RegExp(`t=999999 is past this run's end \\(t=${end}\\), so it opens at its end`));
  const total = (await position(page)).events;
  await openLesson(t, `#/lesson/queue-wait-or-skip?e=${total + 1}`);
  assert.equal((await position(page)).events, total);
  assert.match(await page.textContent('[data-testid=url-warnings]'),
    new RegExp(`e=${total + 1}: this run has ${total} events, so it opens at its end`));

  // A parameter given twice: the last counts, and the page says so.
  await openLesson(t, '#/lesson/queue-wait-or-skip?readpast=off&readpast=on&t=5', 'readpast=on');
  assert.match(await page.textContent('[data-testid=url-warnings]'),
    /readpast= appears 2 times in the link: the last, readpast=on, is used/);
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast-on]', 'aria-pressed'), 'true');

  // A language the page does not have is named on any page, which stays in English.
  await t.open('#/?lang=de');
  await page.waitForSelector('[data-testid=lesson-item]');
  assert.match(await page.textContent('[data-testid=lang-warning]'),
    /lang=de is not a language of this page: write lang=en, lang=pl or lang=ja/);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await t.open('#/?lang=pl');
  await page.waitForSelector('[data-testid=lesson-item]');
  assert.equal(await page.$('[data-testid=lang-warning]'), null);

  await t.open('#/lesson/no-such-lesson');
  const problem = await page.textContent('[data-testid=lesson-problem]');
  assert.match(problem, /No such lesson.*no-such-lesson/);
  await page.click('[data-testid=lesson-problem] a[href="#/lesson/queue-claim-race"]');
  await settled(page, 'claim=two-step');
});

test('player: reduced motion plays in discrete steps', async (t) => {
  const { page } = t;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await openLesson(t, '#/lesson/queue-priority');
  assert.ok(await page.$('.playhead--still'), 'the playhead should not glide');
  await page.click('[data-testid=play]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]').dataset.events) >= 2);
  await page.click('[data-testid=play]');
  const at = await position(page);
  // Each step lands exactly on an event's time.
  const eventTimes = await page.$$eval('[data-testid=event-log] li[data-index]', (items) =>
    items.map((li) => li.querySelector('.log__time').textContent),
  );
  assert.ok(eventTimes.length > 0);
  assert.ok(at.events >= 2, JSON.stringify(at));
});

test('player: the lesson plays inside an iframe', async (t) => {
  const { page } = t;
  const host = t.url('blog-post.html');
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Blog</title><p>Post</p><iframe src="./#/lesson/queue-wait-or-skip?readpast=off" width="800" height="700"></iframe>',
    }),
  );
  await page.goto(host);
  const frame = page.frameLocator('iframe');
  // The outcome is in a tab of the dock that is not open: present, not visible.
  await frame.locator('[data-testid=player][data-pending=false] [data-testid=outcome-B]').waitFor({ state: 'attached' });
  const wait = Number(await frame.locator('[data-testid=outcome-B]').getAttribute('data-wait-ms'));
  assert.ok(wait > 2450 && wait < 2550);
  await frame.locator('[data-testid=step-forward]').click();
  assert.equal(await frame.locator('[data-testid=position]').getAttribute('data-events'), '1');
});

test('player: every lesson in the list opens and runs with its defaults', async (t) => {
  const { page } = t;
  await t.open('#/');
  const ids = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((i) => i.dataset.lesson));
  assert.ok(ids.length >= 6, `lessons: ${ids}`);
  const problems = [];
  for (const id of ids) {
    // Exercises have their own page; the player plays them as lessons too.
    await page.evaluate((hash) => (location.hash = hash), `#/lesson/${id}`);
    await page.waitForSelector(`[data-testid=lesson][data-lesson="${id}"], [data-testid=lesson-problem]`);
    if (await page.$('[data-testid=lesson-problem]')) {
      problems.push(`${id}: ${await page.textContent('[data-testid=lesson-problem]')}`);
    } else {
      await settled(page);
      if (await page.$('[data-testid=run-error]')) problems.push(`${id}: ${await page.textContent('[data-testid=run-error]')}`);
      // An exercise starts with its goals unmet: the learner has the SQL to fix.
      const exercise = (await page.getAttribute('[data-testid=lesson]', 'data-kind')) === 'exercise';
      const failed = Object.entries(await checks(page)).filter(([, c]) => !c.passed);
      if (!exercise) for (const [name, c] of failed) problems.push(`${id}: check failed: ${name}: ${c.detail}`);
      // The narrative is there, with its SQL blocks filled in.
      assert.ok((await page.locator('[data-testid=narrative] .block').count()) > 0, `${id}: no SQL blocks`);
    }
  }
  assert.deepEqual(problems, []);
});

test('player: time from navigation to the first rendered lesson', async (t) => {
  const { page } = t;
  const figures = [];
  for (const id of ['queue-wait-or-skip', 'queue-claim-race']) {
    // A fresh document each time: the figure is from navigation start.
    await page.goto('about:blank');
    await openLesson(t, `#/lesson/${id}`);
    const ready = await page.evaluate(() => performance.getEntriesByName('lockstep:lesson-ready')[0]?.startTime);
    const simulate = await page.evaluate(() => performance.getEntriesByName('lockstep:simulate')[0]?.duration);
    assert.ok(ready > 0, 'no lockstep:lesson-ready mark');
    figures.push(`${id}: first rendered ${ready.toFixed(0)} ms after navigation (simulation ${simulate.toFixed(0)} ms)`);
  }
  console.log(`     perf: ${figures.join('; ')}`);
});

// Every seed-000 lesson, at a moment worth seeing, in both themes, on a desktop and a phone.
const MOMENTS = [
  ['queue-wait-or-skip', '?readpast=off&t=2000', 'readpast=off'],
  ['queue-claim-race', '?t=41', 'claim=two-step'],
  ['queue-isolation', '?isolation=snapshot&t=1500.02', 'isolation=snapshot'],
  ['queue-priority', '?e=1000', 'priority=text'],
  ['queue-filtered-index', '?index=none&e=100000', 'index=none'],
  ['queue-output-trigger', '?e=100000', 'trigger=on'],
];

for (const [id, query, setting] of MOMENTS) {
  test(
    `player: ${id} plays each toggle value; screenshots light and dark, desktop and phone`,
    async (t) => {
      const { page } = t;
      await page.setViewportSize({ width: 1280, height: 800 });
      await openLesson(t, `#/lesson/${id}`);
      // Every value of every toggle runs and its checks pass.
      const toggles = await page.$$eval('[data-testid=toggles] [role=group]', (groups) =>
        groups.map((g) => ({
          name: g.dataset.testid.replace(/^toggle-/, ''),
          values: [...g.querySelectorAll('button')].map((b) => b.textContent),
          current: g.dataset.value,
        })),
      );
      for (const toggle of toggles) {
        for (const value of [...toggle.values.filter((v) => v !== toggle.current), toggle.current]) {
          await page.click(`[data-testid="toggle-${toggle.name}-${value}"]`);
          await settled(page, `${toggle.name}=${value}`);
          assert.equal(await page.$('[data-testid=run-error]'), null, `${id} ${toggle.name}=${value} cannot run`);
          const failed = Object.entries(await checks(page)).filter(([, c]) => !c.passed);
          assert.deepEqual(failed, [], `${id} ${toggle.name}=${value}: failed checks`);
        }
      }

      // A fresh page, so the shots show the moment, not the flash of a toggle.
      await page.goto('about:blank');
      await openLesson(t, `#/lesson/${id}${query}`, setting);
      const shots = [];
      for (const scheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForFunction((s) => document.documentElement.dataset.theme === s, scheme);
        for (const [width, height] of [[1280, 800], [390, 844]]) {
          await page.setViewportSize({ width, height });
          await page.evaluate(() => window.scrollTo(0, 0));
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          assert.ok(overflow <= 0, `${id} at ${width}px scrolls sideways by ${overflow}px`);
          shots.push(await t.screenshot(`${id}-${scheme}-${width}`));
          if (width === 390) {
            // On a phone the panels are below the controls and lanes: show them too.
            await page.$eval('[data-testid=code]', (el) => el.scrollIntoView({ block: 'start' }));
            // Let the scrolled-to area paint before the shot (headless paints lazily).
            await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
            await page.waitForTimeout(200);
            shots.push(await t.screenshot(`${id}-${scheme}-${width}-panels`));
          }
        }
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.screenshot({ path: shots[0].replace(/\.png$/, '-full.png'), fullPage: true });
    },
    { timeoutMs: 120_000 },
  );
}

test('player: a toggle\'s hint is the chosen value\'s part of its help, and its title has all of it', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-claim-race', 'claim=two-step');
  const help = page.locator('[data-testid=toggle-help-claim]');
  assert.match(await help.textContent(), /^\s*two-step: SELECT the next id, then UPDATE it\.\s*$/);
  assert.match(await help.getAttribute('title'), /conditional: .* one-statement-no-updlock: /);
  await page.click('[data-testid=toggle-claim-conditional]');
  await page.waitForFunction(() => document.querySelector('[data-testid=toggle-claim]').dataset.value === 'conditional');
  assert.match(await help.textContent(), /^\s*conditional: the UPDATE also requires status = 'new'/);
  // On a phone, where no pointer hovers for the title, the hint is shown in full.
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await help.isVisible(), 'the hint is shown at 390 px');
  const clipped = await help.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
  assert.ok(!clipped, 'the hint is not cut at 390 px');
  assert.match(await help.innerText(), /retries when it changed nothing\.\s*$/);
});

test('player: a statement of a procedure from a later setup block is shown in that block, at its line', async (t) => {
  // The exercise's worker procedure is its second setup block; the lesson joins the
  // blocks into one script, and the sessions panel shows the statement in the block the
  // reader sees, at that block's line.
  const { page } = t;
  await openLesson(t, '#/lesson/exercise-claim-fix?e=68');
  await atEvents(page, 68);
  const card = page.locator('[data-testid=session-worker1]');
  const where = await card.locator('.session__where').textContent();
  assert.match(where, /inside procedure work \(setup block\), line 16:/, where);
  const statement = await card.locator('.session__inner .stmt').textContent();
  assert.match(statement, /^UPDATE dbo\.task\s+SET status = 'in_progress'/, statement);
  // The narrative's copy of the block marks the same statement.
  const marked = await page.$$eval('[data-testid=narrative] .block .stmt[data-session=worker1]', (els) => els.map((e) => e.textContent));
  assert.equal(marked.length, 1, JSON.stringify(marked));
  assert.match(marked[0], /^UPDATE dbo\.task/);
});

test('player: a toggle that makes the run longer keeps the timeline on the whole run', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-claim-race');
  const window = () => page.textContent('[data-testid=zoom-window]');
  assert.equal(await page.isDisabled('[data-testid=zoom-reset]'), true, 'the whole run to begin with');
  const before = await window();
  await page.click('[data-testid=toggle-workers-4]');
  await settled(page, 'workers=4');
  const after = await window();
  assert.notEqual(after, before, 'a new run, a new length');
  assert.match(after, /whole run/, after);
  assert.equal(await page.isDisabled('[data-testid=zoom-reset]'), true, '"Whole run" has nothing to do');
  // Back to the shorter run: still the whole run.
  await page.click('[data-testid=toggle-workers-2]');
  await settled(page, 'workers=2');
  assert.equal(await window(), before);
});

test('player: a result longer than three rows opens in full; a batch of thousands of results is summarised', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/queue-priority?priority=text', 'priority=text');
  const rows = () => page.$$eval('[data-testid=result-A-1] tbody tr', (rs) => rs.map((r) => r.textContent));
  assert.deepEqual(await rows(), ['Wysoki', 'Normalny', 'Niski', '… 1 more']);
  await page.click('[data-testid=tab-outcome]');
  await page.click('[data-testid=result-A-1] [data-testid=result-more]');
  // Krytyczny, the point of the lesson, is the fourth row.
  assert.deepEqual(await rows(), ['Wysoki', 'Normalny', 'Niski', 'Krytyczny', 'show fewer rows']);
  await page.click('[data-testid=result-A-1] [data-testid=result-less]');
  assert.equal((await rows()).length, 4);
  // teradata-rules: t9_batch returns one result set per consume.
  await openLesson(t, '#/lesson/teradata-rules', 't9=keep');
  const shown = await page.$$eval('[data-testid^=result-t9_batch-]', (rs) => rs.length);
  assert.equal(shown, 10);
  assert.match(await page.textContent('[data-testid=results-more-t9_batch]'), /^… and [\d,]+ more result sets; the Events tab lists each$/);
});
