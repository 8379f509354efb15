// Workshop exercises: the list links them, Check judges the learner's SQL on every
// seed and shows the run where a goal failed, an edit in the page solves one, progress
// survives a reload, a corrupt saved value is dropped with a notice (no error), a SQL
// error is placed at line:col, the failing run marks and explains its anomalies, and the
// facilitator page lists and prints them.

import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { test, assert } from './harness.mjs';
import { atEvents } from './settle.mjs';

const SHOTS = join(dirname(dirname(fileURLToPath(import.meta.url))), 'target', 'e2e');
const ID = 'exercise-skip-locked';
const KEY = `lockstep.exercise.${ID}`;
const EDITOR = '[data-testid=editor-next_task]';
const NOTICE = 'Your saved progress for this exercise could not be read and was reset.';

const saved = (page) => page.evaluate((k) => localStorage.getItem(k), KEY);

/** The goals as { name: passed } ("true"/"false", or null before a check). */
const goals = (page) =>
  page.$$eval('[data-testid=goal]', (items) => Object.fromEntries(items.map((li) => [li.dataset.name, li.dataset.passed ?? null])));

async function openExercise(t, id = ID) {
  await t.open(`#/exercise/${id}`);
  await t.page.waitForSelector('[data-testid=exercise]');
}

async function check(page) {
  await page.click('[data-testid=check-button]');
  await page.waitForSelector('[data-testid=verdict]', { timeout: 20_000 });
  return page.$eval('[data-testid=verdict]', (el) => el.dataset.solved === 'true');
}

/** Types `text` into the editor right after the first `after` in it, as a learner would. */
async function typeAfter(page, after, text) {
  await page.click(EDITOR);
  const at = await page.$eval(
    EDITOR,
    (el, after) => {
      const i = el.value.indexOf(after);
      if (i < 0) return -1;
      el.setSelectionRange(i + after.length, i + after.length);
      return i + after.length;
    },
    after,
  );
  assert.ok(at >= 0, `"${after}" is not in the editor`);
  await page.keyboard.type(text);
}

test('exercise: the lesson list links exercises to their exercise page', async (t) => {
  const { page } = t;
  await t.open('#/');
  const item = page.locator(`[data-testid=lesson-item][data-lesson="${ID}"]`);
  assert.equal(await item.getAttribute('data-kind'), 'exercise');
  assert.equal(await item.locator('a').getAttribute('href'), `#/exercise/${ID}`);
  assert.match(await item.textContent(), /Exercise/);
  // The title says "Exercise:" already: no chip repeats it.
  assert.match(await item.locator('.lesson-list__title').textContent(), /^\s*Exercise: make the second worker not wait/);
  await item.locator('a').click();
  await page.waitForSelector('[data-testid=exercise]');
  assert.match(await page.textContent('h2.lesson__title'), /^\s*Exercise: make the second worker not wait/);
  assert.match(await page.textContent('[data-testid=goal-text]'), /B does not wait for A/);
});

test('exercise: a link to an exercise that does not exist says so and lists the exercises', async (t) => {
  const { page } = t;
  await t.open('#/exercise/nope');
  const problem = page.locator('[data-testid=lesson-problem]');
  assert.match(await problem.locator('h2').textContent(), /^No such exercise$/);
  assert.match(await problem.textContent(), /There is no exercise nope\. The exercises are:/);
  const links = await problem.locator('li a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(links.includes(`#/exercise/${ID}`), `${links}`);
  assert.ok(links.every((h) => h.startsWith('#/exercise/exercise-')), `only exercises: ${links}`);
});

test('exercise: opened as a lesson (a shared #/lesson/ link), it links to its editor; a plain lesson does not', async (t) => {
  const { page } = t;
  await t.open(`#/lesson/${ID}`);
  await page.waitForSelector('[data-testid=transport]');
  await page.click('[data-testid=open-exercise]');
  await page.waitForSelector('[data-testid=exercise]');
  assert.equal(new URL(page.url()).hash, `#/exercise/${ID}`);
  assert.ok(await page.$(EDITOR), 'the editor is there');
  await t.open('#/lesson/queue-wait-or-skip');
  await page.waitForSelector('[data-testid=transport]');
  assert.equal(await page.$('[data-testid=open-exercise]'), null);
});

test('exercise: Check fails as shipped and shows the failing run; hints come one at a time', async (t) => {
  const { page } = t;
  await openExercise(t);
  // Labelled, monospace, pre-filled with the block's text.
  const label = await page.textContent(`label[for="editor-next_task"]`);
  assert.match(label, /next_task/);
  assert.match(await page.inputValue(EDITOR), /WITH \(UPDLOCK, ROWLOCK\)/);
  assert.match(await page.$eval(EDITOR, (el) => getComputedStyle(el).fontFamily), /mono|Mono|Menlo|Consolas/);
  assert.ok(Object.values(await goals(page)).every((p) => p === null), 'goals judged before Check');

  assert.equal(await check(page), false);
  const judged = await goals(page);
  assert.equal(judged['B gets its task at once (waits at most 1 ms)'], 'false', JSON.stringify(judged));
  assert.equal(judged['A claims task 1'], 'true', JSON.stringify(judged));
  // The run where it failed, in the player's panels: B waited for A.
  const run = page.locator('[data-testid=failing-run]');
  assert.equal(await run.getAttribute('data-failed'), 'true');
  assert.match(await run.locator('.exercise__run-title').textContent(), /failed: seed \d+/);
  const wait = Number(await run.locator('[data-testid=outcome-B]').getAttribute('data-wait-ms'));
  assert.ok(wait > 2000, `B waited ${wait} ms in the failing run`);
  assert.equal(await run.locator('[data-testid=lane-B] [data-state=waiting]').count(), 1);
  await run.locator('[data-testid=step-forward]').click();
  assert.equal(await run.locator('[data-testid=position]').getAttribute('data-events'), '1');

  const hints = await page.$$eval('[data-testid=hint]', (h) => h.length);
  assert.equal(hints, 0);
  for (let i = 1; i <= 3; i++) {
    await page.click('[data-testid=hint-button]');
    assert.equal(await page.locator('[data-testid=hint]').count(), i);
  }
  assert.equal(await page.$('[data-testid=hint-button]'), null, 'a hint button after the last hint');
  assert.match(await page.textContent('[data-testid=hints]'), /READPAST/);
  await page.evaluate(() => scrollTo(0, 0));
  await t.screenshot('exercise-failing-light');
  await page.screenshot({ path: join(SHOTS, 'exercise-failing-light-full.png'), fullPage: true });
  // A reload keeps the hints shown: a learner who reloads has read them already.
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.equal(await page.locator('[data-testid=hint]').count(), 3);
  assert.equal(await page.$('[data-testid=hint-button]'), null);
});

test('exercise: a SQL error in the learner\'s text is shown at line:col, never a panic', async (t) => {
  const { page } = t;
  await openExercise(t);
  // Delete the ")" that closes the table hints.
  await typeAfter(page, 'WITH (UPDLOCK, ROWLOCK', '');
  await page.keyboard.press('Delete');
  assert.doesNotMatch(await page.inputValue(EDITOR), /ROWLOCK\)/);
  assert.equal(await check(page), false);
  const error = page.locator('[data-testid=sql-error]');
  const [line, col] = [await error.getAttribute('data-line'), await error.getAttribute('data-col')];
  assert.match(await error.textContent(), new RegExp(`next_task:${line}:${col}: .*expected`));
  assert.equal(line, '8', 'the parser stops at WHERE, on the line after the missing ")"');
  assert.equal(await page.getAttribute(EDITOR, 'aria-invalid'), 'true');
  // Said once: the verdict beside Check is the alert; the editor's copy describes it.
  const alerts = await page.$$eval('[role=alert]', (els) => els.filter((el) => /next_task:/.test(el.textContent)).length);
  assert.equal(alerts, 1, 'the error is announced more than once');
  assert.match(await page.getAttribute(EDITOR, 'aria-describedby'), /-error/);
  assert.equal(await page.$('#panic-panel'), null);
  assert.equal(await page.$('[data-testid=failing-run]'), null);
});

test('exercise: SQL that hits a budget (endless loop, runaway recursion) shows the limit and the page stays usable', async (t) => {
  const { page } = t;
  await openExercise(t);
  const original = await page.inputValue(EDITOR);
  const cases = [
    ['\n    WHILE 1 = 1 CONTINUE;', /simulation stopped this session: it ran 100000 control instructions/],
    [
      '\n    DECLARE @deep int;\n    WITH n AS (SELECT 1 AS i UNION ALL SELECT i + 1 FROM n) SELECT @deep = MAX(i) FROM n;',
      /maximum recursion 100 has been exhausted/,
    ],
  ];
  for (const [text, message] of cases) {
    await page.fill(EDITOR, original);
    await typeAfter(page, 'SET NOCOUNT ON;', text);
    assert.equal(await check(page), false);
    const run = page.locator('[data-testid=failing-run]');
    await run.waitFor();
    const errors = await run.locator('.error').allTextContents();
    assert.ok(errors.some((e) => message.test(e)), `${message} in ${JSON.stringify(errors)}`);
    assert.equal(await page.$('#panic-panel'), null);
  }
  // Still usable: the shipped SQL checks again, and the editor takes edits.
  await page.fill(EDITOR, original);
  assert.equal(await check(page), false);
  assert.equal(await page.$('#panic-panel'), null);
});

test('exercise: four workers that each loop until the statement budget show the limit, not a dead page', async (t) => {
  // 500 000 statements a worker, each returning a result: the run shown used to copy
  // every result into each of its snapshots, and the tab ran out of memory.
  const { page } = t;
  await openExercise(t, 'exercise-claim-fix');
  await page.fill('[data-testid=editor-worker]', `CREATE OR ALTER PROCEDURE dbo.work @process varchar(10)
AS
BEGIN
    WHILE 1 = 1 BEGIN SELECT 1 END
END`);
  await page.click('[data-testid=check-button]');
  await page.waitForSelector('[data-testid=verdict]', { timeout: 120_000 });
  const errors = await page.locator('[data-testid=failing-run] .error').allTextContents();
  assert.equal(errors.length, 4, JSON.stringify(errors));
  // An exercise's step budget (100 000) stops the loop long before a session's
  // 500 000 statements, and Check stops at the first seed.
  for (const e of errors) assert.match(e, /the run took more than 100000 steps/);
  assert.match(await page.textContent('[data-testid=check-error]'), /^seed \d+, session worker\d: simulation stopped this session/);
  assert.equal(await page.$('#panic-panel'), null);
  assert.deepEqual(t.errors, []);
}, { timeoutMs: 150_000 });

test('exercise: by keyboard, Check, Cancel and the hints keep the focus on the page, not on its body', async (t) => {
  const { page } = t;
  await openExercise(t);
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);
  // Each hint from the same button; after the last one the list of hints has the focus.
  await page.focus('[data-testid=hint-button]');
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=hint]').length === n, i);
    // The rescue runs in an effect after the render that removed the button: give it
    // that moment (a second at most) before reading where the focus is.
    const want = i < 3 ? 'hint-button' : 'hints';
    await page
      .waitForFunction((w) => (document.activeElement?.dataset?.testid ?? document.activeElement?.tagName) === w, want, { timeout: 1000 })
      .catch(() => {});
    assert.equal(await focused(), want, `after hint ${i}`);
  }
  // Check keeps its focus while it runs and after.
  await page.focus('[data-testid=check-button]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=verdict]', { timeout: 20_000 });
  assert.equal(await focused(), 'check-button');
  assert.equal(await page.getAttribute('[data-testid=check-button]', 'aria-disabled'), 'false');
  // Reset progress shows its notice and keeps the focus.
  await page.focus('[data-testid=reset-progress]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=reset-notice]');
  assert.equal(await focused(), 'reset-progress');
});

test('exercise: solving by editing SQL marks it solved, survives a reload, and a corrupt save is reset with a notice', async (t) => {
  const { page } = t;
  await openExercise(t);
  assert.equal(await page.$('[data-testid=solved-badge]'), null);
  await typeAfter(page, 'WITH (UPDLOCK, ', 'READPAST, ');
  assert.match(await page.inputValue(EDITOR), /WITH \(UPDLOCK, READPAST, ROWLOCK\)/);

  assert.equal(await check(page), true);
  assert.match(await page.textContent('[data-testid=verdict]'), /Solved: every goal holds on all 5 seeds/);
  assert.ok(Object.values(await goals(page)).every((p) => p === 'true'), JSON.stringify(await goals(page)));
  assert.equal(await page.getAttribute('[data-testid=exercise]', 'data-solved'), 'true');
  assert.match(await page.textContent('[data-testid=solved-badge]'), /Solved/);
  const run = page.locator('[data-testid=failing-run]');
  assert.equal(await run.getAttribute('data-failed'), 'false');
  assert.ok(Number(await run.locator('[data-testid=outcome-B]').getAttribute('data-wait-ms')) <= 1);
  const measure = await page.evaluate(() => performance.getEntriesByName('lockstep:check').map((e) => e.duration));
  console.log(`     Check (5 seeds + the run shown) took ${measure.map((d) => d.toFixed(1)).join(', ')} ms`);
  const stored = await saved(page);
  assert.match(stored, /^lockstep-progress 3\nsolved\n(goal met [^\n]+\n){5}sql next_task .*READPAST/);
  await page.evaluate(() => scrollTo(0, 0));
  await t.screenshot('exercise-solved-light');
  await page.screenshot({ path: join(SHOTS, 'exercise-solved-light-full.png'), fullPage: true });

  // Reload: still solved, the learner's SQL back in the editor.
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.equal(await page.getAttribute('[data-testid=exercise]', 'data-solved'), 'true');
  assert.match(await page.textContent('[data-testid=solved-badge]'), /Solved/);
  assert.match(await page.inputValue(EDITOR), /READPAST/);
  assert.equal(await page.$('[data-testid=progress-notice]'), null);

  // A corrupt saved value: dropped with a notice, no error, the exercise starts afresh.
  await page.evaluate((k) => localStorage.setItem(k, '{"solved": tru'), KEY);
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.equal(await page.textContent('[data-testid=progress-notice] .notice__title'), NOTICE);
  assert.equal(await page.getAttribute('[data-testid=exercise]', 'data-solved'), 'false');
  assert.doesNotMatch(await page.inputValue(EDITOR), /READPAST/);
  assert.equal(await saved(page), null, 'the corrupt value is still stored');
  assert.equal(await page.$('#panic-panel'), null);
  await t.screenshot('exercise-corrupt-notice');
  // The notice goes away when dismissed, and a reload no longer shows it.
  await page.click('[data-testid=progress-notice] button');
  assert.equal(await page.$('[data-testid=progress-notice]'), null);
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.equal(await page.$('[data-testid=progress-notice]'), null);
});

test('exercise: solved, then broken and checked again, the badge says it was solved before', async (t) => {
  const { page } = t;
  await openExercise(t);
  await typeAfter(page, 'WITH (UPDLOCK, ', 'READPAST, ');
  assert.equal(await check(page), true);
  assert.equal(await page.textContent('[data-testid=solved-badge]'), '✓ Solved');
  await typeAfter(page, 'WITH (UPDLOCK, READPAST, ', 'NOLOCK, ');
  assert.equal(await check(page), false);
  assert.equal(await page.getAttribute('[data-testid=solved-badge]', 'data-before'), 'true');
  assert.equal(await page.textContent('[data-testid=solved-badge]'), '✓ Solved before (not as it is now)');
});

test('exercise: reset progress forgets the solution and the saved SQL', async (t) => {
  const { page } = t;
  await openExercise(t);
  await typeAfter(page, 'WITH (UPDLOCK, ', 'READPAST, ');
  assert.equal(await check(page), true);
  assert.notEqual(await saved(page), null);
  await page.click('[data-testid=reset-progress]');
  assert.equal(await page.getAttribute('[data-testid=exercise]', 'data-solved'), 'false');
  assert.doesNotMatch(await page.inputValue(EDITOR), /READPAST/);
  assert.equal(await page.$('[data-testid=verdict]'), null);
  assert.equal(await saved(page), null);
  // A Reset sits next to Check: Undo brings the solution back, saved again.
  await page.click('[data-testid=undo-reset]');
  assert.equal(await page.getAttribute('[data-testid=exercise]', 'data-solved'), 'true');
  assert.match(await page.inputValue(EDITOR), /READPAST/);
  assert.notEqual(await saved(page), null);
  assert.equal(await page.$('[data-testid=reset-notice]'), null);
  // After a Reset the learner's next edit is their own: Undo is gone.
  await page.click('[data-testid=reset-progress]');
  await page.waitForSelector('[data-testid=reset-notice]');
  await typeAfter(page, 'WITH (UPDLOCK, ', 'ROWLOCK, ');
  assert.equal(await page.$('[data-testid=reset-notice]'), null);
});

test(
  'exercise: dark theme, desktop and phone',
  async (t) => {
    const { page } = t;
    await page.setViewportSize({ width: 1280, height: 800 });
    await openExercise(t);
    assert.equal(await check(page), false);
    await page.click('[data-testid=hint-button]');
    await page.evaluate(() => scrollTo(0, 0));
    await t.screenshot('exercise-failing-dark');
    await typeAfter(page, 'WITH (UPDLOCK, ', 'READPAST, ');
    assert.equal(await check(page), true);
    await page.evaluate(() => scrollTo(0, 0));
    await t.screenshot('exercise-solved-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px on a phone`);
    await page.evaluate(() => scrollTo(0, 0));
    await t.screenshot('exercise-phone-dark');
    await page.locator('[data-testid=goals]').scrollIntoViewIfNeeded();
    await t.screenshot('exercise-phone-dark-goals');
  },
  { colorScheme: 'dark' },
);

test('exercise: every exercise opens, and its starting SQL fails Check', async (t) => {
  const { page } = t;
  for (const id of ['exercise-claim-fix', 'exercise-send-applock', 'exercise-teradata-rollback']) {
    await openExercise(t, id);
    assert.ok((await page.$$('textarea.editor')).length >= 1, `${id}: no editor`);
    assert.equal(await check(page), false, `${id}: solved as shipped`);
    await page.waitForSelector('[data-testid=failing-run] [data-testid=transport]');
  }
});

test('facilitator: reset asks first, says how many exercises it would forget, and Keep keeps them', async (t) => {
  const { page } = t;
  await openExercise(t);
  await page.click('[data-testid=hint-button]');
  await page.waitForFunction((k) => localStorage.getItem(k) !== null, KEY);
  await t.open('#/facilitator');
  await page.click('[data-testid=clear-all-progress]');
  assert.match(await page.textContent('[data-testid=confirm-clear]'), /Forget what 1 exercise has saved in this browser/);
  assert.equal(await page.$('[data-testid=cleared]'), null);
  await page.click('[data-testid=confirm-clear-no]');
  assert.equal(await page.$('[data-testid=confirm-clear]'), null);
  assert.notEqual(await saved(page), null, 'Keep forgot the progress');
  await page.click('[data-testid=clear-all-progress]');
  await page.click('[data-testid=confirm-clear-yes]');
  assert.equal(await page.textContent('[data-testid=cleared]'), 'Cleared saved progress of 1 exercise.');
  assert.equal(await saved(page), null);
  // With nothing saved there is nothing to ask.
  await page.click('[data-testid=clear-all-progress]');
  assert.equal(await page.$('[data-testid=confirm-clear]'), null);
  assert.equal(await page.textContent('[data-testid=cleared]'), 'Cleared saved progress of 0 exercises.');
});

test('facilitator: lists every exercise with goal, checks and hints, and prints black on white without buttons', async (t) => {
  const { page } = t;
  await t.open('#/');
  await page.click('a[href="#/facilitator"]');
  await page.waitForSelector('[data-testid=facilitator]');
  const items = await page.$$eval('[data-testid=facilitator-exercise]', (els) =>
    els.map((el) => ({
      id: el.dataset.lesson,
      goal: el.querySelector('[data-testid=facilitator-goal]').textContent,
      checks: el.querySelectorAll('[data-testid=facilitator-check]').length,
      hints: el.querySelectorAll('[data-testid=facilitator-hint]').length,
    })),
  );
  const ids = items.map((i) => i.id).sort();
  assert.deepEqual(ids, ['exercise-claim-fix', 'exercise-send-applock', 'exercise-skip-locked', 'exercise-teradata-rollback']);
  for (const i of items) {
    assert.ok(i.goal.length > 40 && i.checks >= 1 && i.hints >= 1, JSON.stringify(i));
  }
  const skip = page.locator(`[data-testid=facilitator-exercise][data-lesson="${ID}"]`);
  assert.match(await skip.textContent(), /B gets its task at once/);
  assert.match(await skip.textContent(), /Add READPAST to the hints/);
  // Solutions (whole procedures) are not on the page.
  assert.doesNotMatch(await page.textContent('main'), /CREATE OR ALTER PROCEDURE/);

  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  const printed = await page.evaluate(() => ({
    buttons: [...document.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0).length,
    header: document.querySelector('.site-header')?.getClientRects().length ?? 0,
    background: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.querySelector('[data-testid=facilitator-goal]')).color,
  }));
  assert.deepEqual(printed, { buttons: 0, header: 0, background: 'rgb(255, 255, 255)', text: 'rgb(0, 0, 0)' });
  // Paper cannot follow a link: each exercise prints its whole address instead.
  const addresses = await page.$$eval('[data-testid=facilitator-address]', (ps) =>
    ps.filter((p) => p.getClientRects().length > 0).map((p) => p.textContent.trim()));
  assert.equal(addresses.length, items.length);
  assert.ok(addresses.includes(`${t.baseUrl}#/exercise/${ID}`), addresses.join(' '));
  await page.evaluate(() => scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'facilitator-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
  await t.screenshot('facilitator-light');
});

/** The editor's value, selection and focus. */
const editorState = (page) =>
  page.$eval(EDITOR, (el) => ({
    value: el.value,
    start: el.selectionStart,
    end: el.selectionEnd,
    focused: document.activeElement === el,
  }));

/** Selects from the start of 1-based line `from` to `col` characters into line `to`. */
const selectLines = (page, from, to, col = 0) =>
  page.$eval(
    EDITOR,
    (el, [from, to, col]) => {
      const starts = [0];
      for (let i = 0; i < el.value.length; i++) if (el.value[i] === '\n') starts.push(i + 1);
      el.focus();
      el.setSelectionRange(starts[from - 1], starts[to - 1] + col);
    },
    [from, to, col],
  );

test('exercise: the editor numbers its lines, Tab and Shift+Tab indent the selected lines, and Esc then Tab moves on', async (t) => {
  const { page } = t;
  await openExercise(t);
  const original = await page.inputValue(EDITOR);
  const lines = original.split('\n');

  // One number per line, each level with its line of text.
  const numbers = await page.$$eval('[data-testid=line-numbers] [data-line]', (els) => els.map((e) => e.textContent.trim()));
  assert.deepEqual(numbers, lines.map((_, i) => String(i + 1)));
  const geometry = await page.$eval(EDITOR, (el) => {
    const cs = getComputedStyle(el);
    const top = el.getBoundingClientRect().top + parseFloat(cs.borderTopWidth) + parseFloat(cs.paddingTop);
    const tops = [...document.querySelectorAll('[data-testid=line-numbers] [data-line]')].map((n) => n.getBoundingClientRect().top);
    return { top, tops, lh: parseFloat(cs.lineHeight) };
  });
  geometry.tops.forEach((y, i) =>
    assert.ok(Math.abs(y - (geometry.top + i * geometry.lh)) <= 1.5, `line number ${i + 1} at ${y}, its line at ${geometry.top + i * geometry.lh}`),
  );
  // Labelled, with the way out said under it and announced with the field.
  assert.match(await page.textContent('label[for="editor-next_task"]'), /Your SQL: next_task/);
  const hint = await page.$eval(EDITOR, (el) => document.getElementById(el.getAttribute('aria-describedby').split(' ')[0]).textContent);
  assert.match(hint, /Tab indents, Shift\+Tab outdents · Esc, then Tab, moves on/);

  // Tab at a caret inserts spaces to the next stop; the focus stays.
  await selectLines(page, 2, 2);
  await page.keyboard.press('Tab');
  let now = await editorState(page);
  assert.equal(now.value.split('\n')[1], `    ${lines[1]}`);
  assert.deepEqual([now.start, now.end, now.focused], [lines[0].length + 1 + 4, lines[0].length + 1 + 4, true]);
  // A Tab is an edit like any other: Ctrl+Z takes it back (and the page keeps the undone text).
  await page.keyboard.press('Control+z');
  assert.equal((await editorState(page)).value, original);
  await page.waitForFunction((k) => localStorage.getItem(k) === null, KEY);
  await page.keyboard.press('Tab');
  assert.equal((await editorState(page)).value.split('\n')[1], `    ${lines[1]}`);
  await page.keyboard.press('Shift+Tab');
  assert.equal((await editorState(page)).value, original);

  // A selection over lines 5 to 7 (ending inside 7): each gets one level, and stays selected.
  await selectLines(page, 5, 7, 3);
  await page.keyboard.press('Tab');
  now = await editorState(page);
  const indented = now.value.split('\n');
  for (let i = 0; i < lines.length; i++) {
    assert.equal(indented[i], i >= 4 && i <= 6 ? `    ${lines[i]}` : lines[i], `line ${i + 1}`);
  }
  assert.equal(now.value.slice(now.start, now.end), indented.slice(4, 7).join('\n').slice(0, -(indented[6].length - 7)));
  assert.ok(now.focused, 'Tab left the editor');
  // Shift+Tab undoes it, twice outdents the lines further (they were indented).
  await page.keyboard.press('Shift+Tab');
  assert.equal((await editorState(page)).value, original);
  await page.keyboard.press('Shift+Tab');
  const outdented = (await editorState(page)).value.split('\n');
  for (let i = 4; i <= 6; i++) assert.equal(outdented[i], lines[i].replace(/^ {1,4}/, ''), `line ${i + 1}`);
  // The saved SQL is what the editor shows.
  assert.equal(await page.inputValue(EDITOR), outdented.join('\n'));
  await page.fill(EDITOR, original);

  // Keyboard users are not trapped: Escape, then Tab, moves to the next control.
  await page.focus(EDITOR);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  now = await editorState(page);
  assert.equal(now.focused, false, 'Esc then Tab stayed in the editor');
  assert.equal(now.value, original, 'Esc then Tab changed the text');
  // And back in, Tab indents again.
  await page.focus(EDITOR);
  await page.keyboard.press('Tab');
  assert.ok((await editorState(page)).focused);
});

test('exercise: a SQL error is shown beside Check, marked on its line, and the caret goes there on request', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openExercise(t);
  await typeAfter(page, 'WITH (UPDLOCK, ROWLOCK', '');
  await page.keyboard.press('Delete');
  assert.equal(await check(page), false);

  const error = page.locator('[data-testid=check-error]');
  const [line, col] = [Number(await error.getAttribute('data-line')), Number(await error.getAttribute('data-col'))];
  assert.equal(line, 8);
  assert.match(await error.textContent(), new RegExp(`next_task:8:${col}: .*expected`));
  // Beside the button: just under it, both on screen.
  const near = async () => {
    const button = await page.locator('[data-testid=check-button]').boundingBox();
    const box = await error.boundingBox();
    return { gap: box.y - (button.y + button.height), bottom: box.y + box.height, vh: page.viewportSize().height };
  };
  await page.locator('[data-testid=check-button]').scrollIntoViewIfNeeded();
  let g = await near();
  console.log(`     1280×800: the error is ${Math.round(g.gap)} px under Check`);
  assert.ok(g.gap >= 0 && g.gap <= 120, `the error is ${g.gap} px from Check`);
  assert.ok(g.bottom <= g.vh, 'the error is below the fold');

  // No goal was judged, and each says why.
  assert.ok(Object.values(await goals(page)).every((p) => p === null));
  assert.match(await page.textContent('[data-testid=goal-detail]'), /not judged: your SQL has an error/);
  // The editor marks line 8 in its numbers.
  assert.deepEqual(await page.$$eval('[data-testid=error-marker]', (els) => els.map((e) => e.dataset.line)), ['8']);
  // "Put the caret on line 8": the editor has the focus, the caret at 8:col.
  await page.click('[data-testid=goto-error]');
  await t.screenshot('exercise-editor-error-light');
  const state = await editorState(page);
  const lines = state.value.split('\n');
  const at = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
  assert.deepEqual([state.focused, state.start, state.end], [true, at, at]);
  assert.ok(state.value.slice(at).startsWith('WHERE'), state.value.slice(at, at + 20));

  // On a phone the aside comes after the text, and the error still sits under Check.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('[data-testid=check-button]').scrollIntoViewIfNeeded();
  g = await near();
  console.log(`     390×844: the error is ${Math.round(g.gap)} px under Check`);
  assert.ok(g.gap >= 0 && g.gap <= 120, `on a phone the error is ${g.gap} px from Check`);
});

test('exercise: a misspelt column fails CREATE PROCEDURE at that column (error 207), before any run', async (t) => {
  const { page } = t;
  await openExercise(t);
  const original = await page.inputValue(EDITOR);
  // SQL Server resolves the columns of existing tables when the procedure is created.
  await page.fill(EDITOR, original.replace('ORDER BY rank DESC', 'ORDER BY rnk DESC'));
  assert.equal(await check(page), false);
  const error = page.locator('[data-testid=check-error]');
  assert.match(await error.textContent(), /next_task:9:18: setup failed with error 207: Invalid column name 'rnk'/);
  assert.deepEqual(await page.$$eval('[data-testid=error-marker]', (els) => els.map((e) => e.dataset.line)), ['9']);
  assert.match(await page.textContent('[data-testid=goal-detail]'), /not judged: your SQL has an error/);
});

test('exercise: an emptied block, or one of comments only, is named beside Check and ticks no goal', async (t) => {
  const { page } = t;
  await openExercise(t, 'exercise-teradata-rollback');
  const editor = '[data-testid=editor-consumer]';
  for (const text of ['', '-- later\n/* the consumer */\n']) {
    await page.fill(editor, text);
    assert.equal(await check(page), false);
    assert.match(await page.textContent('[data-testid=check-error]'), /consumer:1:1: this block is empty: write its SQL/);
    assert.equal(await page.locator('[data-testid=goal][data-passed=true]').count(), 0, 'no goal ticked');
  }
  // In the learner's language.
  await t.open('#/exercise/exercise-teradata-rollback?lang=pl');
  await page.waitForSelector('[data-testid=exercise]');
  await check(page);
  assert.match(await page.textContent('[data-testid=check-error]'), /ten blok jest pusty/);
});

test('exercise: switching the language keeps the hints shown and answers the last Check again in the new language', async (t) => {
  const { page } = t;
  await openExercise(t);
  assert.equal(await check(page), false);
  await page.click('[data-testid=hint-button]');
  await page.click('[data-testid=hint-button]');
  assert.equal(await page.locator('[data-testid=hint]').count(), 2);
  const failed = await page.$$eval('[data-testid=goal]', (gs) => gs.map((g) => g.className));
  await page.selectOption('[data-testid=lang-switch]', 'pl');
  await page.waitForFunction(() => document.documentElement.lang === 'pl');
  await page.waitForSelector('[data-testid=verdict]', { timeout: 20_000 });
  assert.match(await page.textContent("[data-testid=verdict]"), /^Jeszcze nie: niespełnione cele: \d+ z 5\./);
  assert.equal(await page.locator('[data-testid=hint]').count(), 2);
  assert.deepEqual(await page.$$eval('[data-testid=goal]', (gs) => gs.map((g) => g.className)), failed, 'the goals as judged in English');
  await page.selectOption('[data-testid=lang-switch]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
});

test('exercise: a SQL syntax error is worded in the page\'s language; SQL\'s own words stay', async (t) => {
  const { page } = t;
  await t.open(`#/exercise/${ID}?lang=pl`);
  await page.waitForSelector('[data-testid=exercise]');
  const original = await page.inputValue(EDITOR);
  assert.ok(original.includes('ROWLOCK)'), 'the starting SQL has the hints');
  await page.fill(EDITOR, original.replace('ROWLOCK)', 'ROWLOCK'));
  assert.equal(await check(page), false);
  assert.match(
    await page.textContent('[data-testid=check-error]'),
    /znaleziono 'WHERE', oczekiwano jednego z: ',', wskazówka tabeli, '\)' \(nawias '\(' w wierszu wyżej, w kolumnie \d+, nie jest zamknięty\)/,
  );
  assert.match(await page.textContent('[data-testid=sql-error]'), /znaleziono 'WHERE'/);
  await page.fill(EDITOR, original);
});

test('exercise: in one column (a phone) each editor has its own Check, which brings its answer into view', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 360, height: 740 });
  await openExercise(t);
  const here = '[data-testid=editor-check-next_task]';
  assert.ok(await page.isVisible(here), 'a Check under the editor');
  const below = await page.$eval('.exercise__side', (el) => el.getBoundingClientRect().top);
  assert.ok(below > 740, `the goals start below the first screen (${below} px)`);
  const answered = async () => {
    await page.waitForSelector('[data-testid=check-button][aria-disabled=false]', { timeout: 20_000 });
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  };
  await page.click(here);
  await page.waitForSelector('[data-testid=verdict]', { timeout: 20_000 });
  await answered();
  // The verdict, under the goals, is whole in view, and the goals' Check above it has
  // the focus (the one pressed is out of sight).
  const verdict = await page.evaluate(() => {
    const r = document.querySelector('.exercise__side [data-testid=verdict]').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, focus: document.activeElement?.dataset.testid };
  });
  assert.ok(verdict.top >= -1 && verdict.bottom <= 741, `the verdict is not in view: ${JSON.stringify(verdict)}`);
  assert.equal(verdict.focus, 'check-button');
  // An error in the SQL shows under the editor, next to the button: the page stays.
  const original = await page.inputValue(EDITOR);
  await page.fill(EDITOR, original.replace('ORDER BY', 'ORDER'));
  await page.$eval(here, (el) => el.scrollIntoView({ block: 'center' }));
  const y = await page.evaluate(() => window.scrollY);
  await page.click(here);
  await page.waitForSelector('.editor__error-slot > *', { timeout: 20_000 });
  await answered();
  const error = await page.evaluate(() => {
    const r = document.querySelector('.editor__error-slot > *').getBoundingClientRect();
    const button = document.activeElement.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, button: button.top, focus: document.activeElement.dataset.testid, y: window.scrollY };
  });
  assert.ok(error.top >= -1 && error.bottom <= 741, `the error is not in view: ${JSON.stringify(error)}`);
  assert.equal(error.focus, 'editor-check-next_task');
  assert.ok(error.button >= 0 && error.button <= 740, `the pressed Check went out of sight: ${JSON.stringify(error)}`);
  assert.equal(error.y, y, 'the page moved');
  await page.fill(EDITOR, original);
  // Two columns: the panel beside the text has the only Check.
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.equal(await page.isVisible(here), false);
});

test('exercise: a run that ended in an error ticks no goal, and says so beside Check', async (t) => {
  const { page } = t;
  await openExercise(t);
  const original = await page.inputValue(EDITOR);
  // A statement that fails at run time: A still claims task 1, but its run has an error.
  await typeAfter(page, 'SET NOCOUNT ON;', '\n    DECLARE @oops int = 1 / 0;');
  assert.equal(await check(page), false);
  const judged = await goals(page);
  assert.deepEqual(Object.values(judged), Object.values(judged).map(() => 'false'), JSON.stringify(judged));
  assert.match(
    await page.textContent('[data-testid=goal][data-name="A claims task 1"] [data-testid=goal-detail]'),
    /not counted: the run on seed \d+ ended in an error/,
  );
  // Held but not counted: marked as neither met nor failed.
  assert.match(await page.getAttribute('[data-testid=goal][data-name="A claims task 1"]', 'class'), /goal--uncounted/);
  assert.match(await page.textContent('[data-testid=check-error]'), /seed \d+, session A: error 8134: Divide by zero/);
  // Where: the DECLARE's line in the learner's block, and a button that goes there.
  const place = await page.textContent('[data-testid=run-error-at]');
  const [, line, col] = place.match(/:(\d+):(\d+)/).map(Number);
  await page.click('[data-testid=goto-run-error]');
  const state = await editorState(page);
  const at = state.value.split('\n').slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + col - 1;
  assert.deepEqual([state.focused, state.start], [true, at]);
  assert.ok(state.value.slice(at).startsWith('DECLARE @oops'), state.value.slice(at, at + 20));
  assert.equal(await page.$('[data-testid=solved-badge]'), null);

  // A loop the simulator stops ticks none either.
  await page.fill(EDITOR, original);
  await typeAfter(page, 'SET NOCOUNT ON;', '\n    WHILE 1 = 1 CONTINUE;');
  assert.equal(await check(page), false);
  assert.ok(Object.values(await goals(page)).every((p) => p === 'false'), JSON.stringify(await goals(page)));
  assert.match(await page.textContent('[data-testid=check-error]'), /simulation stopped this session/);
  // Said once, in the verdict, not again as a notice under it.
  assert.equal(await page.$('[data-testid=stopped-by-limit]'), null);

  // The SQL as shipped fails without an error: its goals are judged one by one.
  await page.fill(EDITOR, original);
  assert.equal(await check(page), false);
  assert.equal((await goals(page))['A claims task 1'], 'true');
});

test('exercise: goal results and the solved badge survive a reload and show on the home page card', async (t) => {
  const { page } = t;
  await openExercise(t);
  const card = page.locator(`[data-testid=lesson-item][data-lesson="${ID}"]`);
  assert.equal(await check(page), false);
  const first = await goals(page);

  // Reload: the goals as the last Check left them.
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.deepEqual(await goals(page), first);
  assert.match(await page.textContent('[data-testid=goal][data-passed=true] [data-testid=goal-detail]'), /at your last Check/);
  const met = Object.values(first).filter((p) => p === 'true').length;
  await t.open('#/');
  assert.equal(await card.locator('[data-testid=card-goals]').getAttribute('data-met'), String(met));
  assert.match(await card.locator('[data-testid=card-goals]').textContent(), new RegExp(`${met} of 5 goals met`));
  assert.equal(await card.locator('[data-testid=card-solved]').count(), 0);

  // Solve it: after a reload, every goal met and the badge; the card says so too.
  await openExercise(t);
  await typeAfter(page, 'WITH (UPDLOCK, ', 'READPAST, ');
  assert.equal(await check(page), true);
  await page.reload();
  await page.waitForSelector('[data-testid=exercise]');
  assert.ok(Object.values(await goals(page)).every((p) => p === 'true'), JSON.stringify(await goals(page)));
  assert.match(await page.textContent('[data-testid=solved-badge]'), /Solved/);
  await t.open('#/');
  assert.match(await card.locator('[data-testid=card-solved]').textContent(), /Solved/);
  assert.equal(await card.locator('[data-testid=card-goals]').getAttribute('data-met'), '5');
  await card.scrollIntoViewIfNeeded();
  await t.screenshot('exercise-card-solved-light');
  // Other exercises' cards say nothing.
  assert.equal(await page.locator('[data-testid=lesson-item][data-lesson="exercise-claim-fix"] [data-testid=card-progress]').count(), 0);

  // What an earlier version saved (version 1: no goal lines) is still read.
  await page.evaluate((k) => localStorage.setItem(k, 'lockstep-progress 1\nsolved\nsql next_task SELECT%201\n'), KEY);
  await page.reload();
  await page.waitForSelector('[data-testid=lesson-item]');
  assert.equal(await card.locator('[data-testid=card-solved]').count(), 1);
  await openExercise(t);
  assert.equal(await page.$('[data-testid=progress-notice]'), null);
  assert.match(await page.textContent('[data-testid=solved-badge]'), /Solved/);
  assert.equal(await page.inputValue(EDITOR), 'SELECT 1');
  assert.ok(Object.values(await goals(page)).every((p) => p === null), 'goals judged from a version 1 save');
});

test('exercise: in the failing run of exercise-teradata-rollback the lost job is marked, reached with Next anomaly and explained', async (t) => {
  const { page } = t;
  await openExercise(t, 'exercise-teradata-rollback');
  assert.equal(await check(page), false);
  const run = page.locator('[data-testid=failing-run]');
  await run.locator('[data-testid=transport]').waitFor();
  // A's error 3811, then the commit that makes the consume permanent.
  const marks = run.locator('[data-testid=anomaly]');
  assert.deepEqual(await marks.evaluateAll((ms) => ms.map((m) => Number(m.dataset.event))), [8, 11]);
  assert.match(await marks.nth(1).getAttribute('title'), /^A: consumed job lost \(job_queue \(rid 0\) consumed and returned 1, order 1; then error 3811; then commit\) at 0\.099 ms$/);
  await run.locator('[data-testid=next-anomaly]').click();
  await atEvents(page, 9);
  await run.locator('[data-testid=next-anomaly]').click();
  await atEvents(page, 12);
  assert.match(await run.locator('[data-testid=anomaly-status]').textContent(), /^Anomaly 2 of 2: A: consumed job lost/);
  assert.equal(await run.locator('[data-testid=why]').count(), 0, 'closed until asked');
  await page.keyboard.press('?');
  const text = await run.locator('[data-testid=why]').textContent();
  assert.match(text, /A consumed job_queue rid 0 at 0 ms \(its SELECT AND CONSUME, line 2\) and got 1, order 1/);
  assert.match(text, /Then A got error 3811 at 0\.07 ms, in its INSERT, line 3/);
  assert.match(text, /A committed at 0\.099 ms, so the consume is permanent/);
  await run.locator('[data-testid=prev-anomaly]').click();
  await atEvents(page, 9);
  assert.match(await run.locator('[data-testid=why]').textContent(), /Why A got error 3811/);
});

test('exercise: Ctrl+Enter in the editor checks, and a long error line scrolls inside the goals panel', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await openExercise(t);
  assert.equal(await page.getAttribute('[data-testid=check-button]', 'aria-keyshortcuts'), 'Control+Enter Meta+Enter');
  // SELECT → SELEC: the excerpt's line is long ("SELEC TOP (1) id, name, rank, …").
  await typeAfter(page, 'SELEC', '');
  await page.keyboard.press('Delete');
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('[data-testid=verdict]', { timeout: 20_000 });
  assert.match(await page.textContent('[data-testid=check-error]'), /next_task:6:9: found 'SELEC', expected/);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'editor-next_task', 'the caret stays in the text');
  for (const [w, h] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: h });
    const spill = await page.$eval('.exercise__side .panel', (panel) => {
      const edge = panel.getBoundingClientRect().right;
      return [...panel.querySelectorAll('*')]
        .filter((el) => el.getBoundingClientRect().right > edge + 0.5 && !el.parentElement?.closest('pre, .table__scroll'))
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    });
    assert.deepEqual(spill, [], `${w}×${h}: parts of the goals panel reach past its edge`);
    assert.ok(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      `${w}×${h}: the page scrolls sideways`,
    );
  }
});
