// Compare: two runs of one lesson on one time axis, their first divergence marked and
// explained, outcomes side by side; the toggle bar links to it.

import { test, assert } from './harness.mjs';
import { settled } from './settle.mjs';

test('compare: READPAST on against off parts at B\'s lock request on task 1', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off');
  await page.waitForSelector('[data-testid=compare-divergence]');
  assert.match(await page.textContent('[data-testid=compare-differences]'), /differ in READPAST hint in the claim: on → off/);
  // Both runs' lanes, one above the other.
  assert.ok(await page.$('[data-testid=compare-left] [data-testid=lane-B]'));
  assert.ok(await page.$('[data-testid=compare-right] [data-testid=lane-B] [data-state=waiting]'));
  assert.equal(await page.$('[data-testid=compare-left] [data-testid=lane-B] [data-state=waiting]'), null);
  // The first divergence: B's request for task 1, skipped on the left, waited on on the right.
  const at = Number(await page.getAttribute('[data-testid=compare-divergence]', 'data-at-ms'));
  assert.ok(at >= 1500 && at < 1501, `diverged at ${at} ms`);
  assert.match(await page.textContent('[data-testid=compare-divergence-left]'), /^Left: B skips .*task/i);
  assert.match(await page.textContent('[data-testid=compare-divergence-right]'), /^Right: B waits for U on KEY task \(1\): A holds X/);
  assert.match(await page.textContent('[data-testid=compare-divergence]'), /the only difference is READPAST hint in the claim: on → off/);
  assert.ok(await page.$('[data-testid=compare-marker]'), 'the divergence is marked on the time axis');
  // One playhead for both: going to the moment moves it.
  await page.click('[data-testid=compare-go]');
  await page.waitForFunction((ms) => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) === ms, at);
  // The address keeps the moment (`t=`, as the player's does): a reload shows it again.
  await page.waitForFunction((ms) => new URLSearchParams(location.hash.split('?')[1]).get('t') === String(ms), at);
  await page.reload();
  await page.waitForFunction((ms) => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) === ms, at);
  // The slider moves by the µs, so End reaches the runs' end (4,000.334 ms), past both commits.
  assert.equal(await page.getAttribute('[data-testid=compare-scrub]', 'step'), '1');
  await page.focus('[data-testid=compare-scrub]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]')?.dataset.tMs === '4000.334');
  assert.match(await page.textContent('[data-testid=compare-position]'), /^4,000\.334 ms of 4,000\.334 ms/);
  // Outcomes side by side, the right one's wait against the left's.
  assert.match(await page.textContent('[data-testid=compare-outcome-right]'), /B waited\s*0 ms.*2,500\.185 ms/);
  // Swapping sides swaps the URL.
  await page.click('[data-testid=compare-swap]');
  await page.waitForFunction(() => location.hash.includes('left=readpast:off&right=readpast:on'));
});

test('compare: the toggle bar offers "compare with this", and an embed shows compare', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip');
  await settled(page, 'readpast=on');
  assert.equal(await page.$('[data-testid=compare-readpast-on]'), null, 'no link beside the value already chosen');
  const href = await page.getAttribute('[data-testid=compare-readpast-off]', 'href');
  assert.equal(href, '#/lesson/queue-wait-or-skip/compare?left=&right=readpast:off');
  await page.click('[data-testid=compare-readpast-off]');
  await page.waitForSelector('[data-testid=compare-divergence][data-at-ms]');
  assert.equal(await page.$('[data-testid=compare-both]'), null, 'nothing shared but the defaults');
  // A setting the lesson had, which both sides keep, is said once for both.
  await t.open('#/lesson/queue-wait-or-skip?ranks=3,1,1');
  await settled(page, 'readpast=on');
  await page.click('[data-testid=compare-readpast-off]');
  await page.waitForSelector('[data-testid=compare-divergence][data-at-ms]');
  assert.equal(await page.textContent('[data-testid=compare-both]'), 'Both sides: Ranks of the waiting tasks: 3,1,1');
  // The same view in an iframe: no site header.
  await t.open('#/embed/queue-wait-or-skip/compare?left=&right=readpast:off');
  await page.waitForSelector('[data-testid=compare-divergence][data-at-ms]');
  assert.equal(await page.$('header.site-header, [data-testid=theme-switch]'), null);
  // A broken pair is named, and the rest still runs.
  await t.open('#/lesson/queue-wait-or-skip/compare?left=readpast&right=readpast:off');
  await page.waitForSelector('[data-testid=url-warnings]');
  assert.match(await page.textContent('[data-testid=url-warnings]'), /left=readpast is not a toggle setting/);
  // From a moment of the lesson, the link compares at that moment.
  await t.open('#/lesson/queue-wait-or-skip?seed=8&t=20');
  await settled(page, 'readpast=on');
  assert.equal(
    await page.getAttribute('[data-testid=compare-readpast-off]', 'href'),
    '#/lesson/queue-wait-or-skip/compare?left=&right=readpast:off&seed=8&t=20',
  );
});

test('compare: with the same settings on both sides, the page offers each other value as a link, and one click compares', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip/compare');
  await page.waitForSelector('[data-testid=compare-same]');
  assert.equal(await page.$('[data-testid=compare-swap]'), null, 'nothing to swap');
  const choices = page.locator('[data-testid=compare-choice]');
  const texts = await choices.allTextContents();
  assert.ok(texts.some((x) => / = off$/.test(x)), texts.join(' | '));
  // Runs that do not part are not an error: the neutral style.
  await page.waitForSelector('[data-testid=compare-divergence][data-index=none]');
  assert.match(await page.getAttribute('[data-testid=compare-divergence]', 'class'), /compare__divergence--none/);
  await choices.filter({ hasText: / = off$/ }).first().click();
  await page.waitForSelector('[data-testid=compare-divergence]:not([data-index=none])', { timeout: 20_000 });
  assert.equal(await page.$('[data-testid=compare-same]'), null);
});

test('compare: a claim edited with more lines parts where it behaves differently; the shorter run says its own length', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race/compare?left=claim:two-step&right=claim:conditional');
  await page.waitForSelector('[data-testid=compare-divergence][data-at-ms]');
  // The conditional claim moves the INSERT three lines down: not a divergence. The runs
  // part when worker1's UPDATE finds task 1 on the left and no row still new on the right.
  assert.match(await page.textContent('[data-testid=compare-divergence-left]'), /^Left: worker1 reads 1 row\(s\) of task/);
  assert.match(await page.textContent('[data-testid=compare-divergence-right]'), /^Right: worker1 reads 0 row\(s\) of task/);
  // Both timelines share the longer run's axis; the shorter one says so.
  const left = await page.textContent('[data-testid=compare-left] [data-testid=zoom-window]');
  const right = await page.textContent('[data-testid=compare-right] [data-testid=zoom-window]');
  assert.match(left, /^whole run, 11\.04 s$/, left);
  assert.match(right, /^whole run, 10\.38 s, on the longer run’s scale of 11\.04 s$/, right);
  // The slider's arrow keys go from one instant of either run to the next, not a
  // millisecond at a time.
  const position = () => page.$eval('[data-testid=compare-position]', (el) => Number(el.dataset.tMs));
  await page.focus('[data-testid=compare-scrub]');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]').dataset.tMs === '0');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]').dataset.tMs !== '0');
  const first = await position();
  assert.ok(first > 0 && first < 1, `the first instant after 0 ms: ${first} ms`);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=compare-position]').dataset.tMs) > t, first);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction((t) => Number(document.querySelector('[data-testid=compare-position]').dataset.tMs) === t, first);
});

// Each ⇄ badge sits within its own value, not across the line to the next one, where
// narrow values ("600" and "3") made the badge look like the neighbour's.
test('compare: each ⇄ badge stays within its own value', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race');
  await settled(page);
  const outside = await page.$$eval('.toggle__compare', (as) =>
    as.flatMap((a) => {
      const badge = a.getBoundingClientRect();
      const value = a.parentElement.querySelector('.toggle__value').getBoundingClientRect();
      return badge.left >= value.left && badge.right <= value.right ? [] : [`${a.dataset.testid}: ${badge.left}–${badge.right} outside ${value.left}–${value.right}`];
    }),
  );
  assert.ok((await page.locator('.toggle__compare').count()) >= 5);
  assert.deepEqual(outside, []);
});

test('compare: a ⇄ badge covers no part of its value: a tap at the value\'s corner presses the value', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 390, height: 844 });
  await t.open('#/lesson/queue-wait-or-skip?readpast=on&lang=pl');
  await settled(page, 'readpast=on');
  // What a tap hits at each value's top right corner, 2 px inside the button.
  const hits = await page.$$eval('.toggle__compare', (as) =>
    as.map((a) => {
      const value = a.parentElement.querySelector('.toggle__value');
      const r = value.getBoundingClientRect();
      const hit = document.elementFromPoint(r.right - 2, r.top + 2);
      return `${value.dataset.testid}: ${hit === value || value.contains(hit) ? 'value' : hit?.className}`;
    }),
  );
  assert.ok(hits.length >= 2, JSON.stringify(hits));
  for (const h of hits) assert.match(h, /: value$/);
  // A tap there (as the learner did, 6 px in from the right, 4 px down) flips the toggle.
  const box = await page.locator('[data-testid=toggle-readpast-off]').boundingBox();
  await page.mouse.click(box.x + box.width - 6, box.y + 4);
  await settled(page, 'readpast=off');
  assert.match(page.url(), /#\/lesson\/queue-wait-or-skip\?/);
});

test('compare: buttons and keys outside the slider move the one playhead, End does not scroll', async (t) => {
  const { page } = t;
  await t.open('#/lesson/pg-write-skew/compare?left=isolation:repeatable-read&right=isolation:serializable');
  await page.waitForSelector('[data-testid=compare-divergence]');
  const pos = async () => Number(await page.getAttribute('[data-testid=compare-position]', 'data-t-ms'));
  assert.equal(await pos(), 0);
  assert.equal(await page.getAttribute('[data-testid=compare-home]', 'aria-disabled'), 'true');
  assert.equal(await page.getAttribute('[data-testid=compare-back]', 'aria-disabled'), 'true');
  // Forward goes to the next instant of either run (A's BEGIN ends at 0.033 ms), not a
  // microsecond on.
  await page.click('[data-testid=compare-forward]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) > 0);
  const first = await pos();
  assert.ok(first > 0.001 && first < 1, `first instant at ${first} ms`);
  await page.click('[data-testid=compare-back]');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) === 0);
  // End, pressed with the focus on the page, goes to the longer run's end and leaves the
  // page where it is.
  await page.click('h2, h1');
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]')?.dataset.tMs === '500.296');
  assert.equal(await page.evaluate(() => window.scrollY), scrolled);
  assert.equal(await page.getAttribute('[data-testid=compare-end]', 'aria-disabled'), 'true');
  assert.equal(await page.getAttribute('[data-testid=compare-forward]', 'aria-disabled'), 'true');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) < 500.296);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) === 0);
  await page.click('[data-testid=compare-end]');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]')?.dataset.tMs === '500.296');
});

test('compare: Play moves the one playhead from instant to instant, Space pauses it, and at the end it starts again', async (t) => {
  const { page } = t;
  await t.open('#/lesson/pg-write-skew/compare?left=isolation:repeatable-read&right=isolation:serializable');
  await page.waitForSelector('[data-testid=compare-divergence]');
  const pos = async () => Number(await page.getAttribute('[data-testid=compare-position]', 'data-t-ms'));
  assert.equal(await page.getAttribute('[data-testid=compare-play]', 'aria-label'), 'Play (Space)');
  await page.click('[data-testid=compare-play]');
  assert.equal(await page.getAttribute('[data-testid=compare-play]', 'data-playing'), 'true');
  // Two instants on: the playhead went through the first one.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) > 0.04);
  // Space, with the focus on the page, pauses where it is.
  await page.click('h2, h1');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-play]').dataset.playing === 'false');
  const paused = await pos();
  await page.waitForTimeout(600);
  assert.equal(await pos(), paused, 'paused, the playhead stays');
  // From the end, Play starts from the start.
  await page.click('[data-testid=compare-end]');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-position]')?.dataset.tMs === '500.296');
  assert.match(await page.textContent('[data-testid=compare-play]'), /Replay/);
  // (Space on the focused End button would press it: the focus goes back to the page.)
  await page.click('h2, h1');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-position]')?.dataset.tMs) < 500);
  await page.keyboard.press(' ');
  assert.deepEqual(t.errors, []);
});
