// The PostgreSQL lessons in the app: the home page groups lessons by database, and the
// player plays pg-queue-skip-locked and re-simulates it when its toggle flips. Real
// clicks, real DOM reads.

import { test, assert } from './harness.mjs';
import { settled, openLesson } from './settle.mjs';

const waitMs = (page, session) =>
  page.$eval(`[data-testid=outcome-${session}]`, (el) => Number(el.dataset.waitMs));

const resultRows = (page, id) =>
  page.$$eval(`[data-testid=${id}] tbody tr`, (rows) => rows.map((r) => r.textContent));

const marked = (page) =>
  page.$$eval('[data-testid=narrative] mark[data-toggle=skip_locked]', (ms) => ms.map((m) => m.textContent));

const failedChecks = (page) =>
  page.$$eval('[data-testid=check]', (items) =>
    items.filter((li) => li.dataset.passed !== 'true').map((li) => li.dataset.name),
  );

test('home: lessons are grouped by database, SQL Server first, then Teradata and PostgreSQL', async (t) => {
  const { page } = t;
  await t.open('#/');
  await page.waitForSelector('[data-testid=lesson-group]');
  const groups = await page.$$eval('[data-testid=lesson-group]', (gs) =>
    gs.map((g) => ({
      database: g.dataset.database,
      heading: g.querySelector('h3').textContent,
      ids: [...g.querySelectorAll('[data-testid=lesson-item]')].map((i) => i.dataset.lesson),
    })),
  );
  assert.deepEqual(
    groups.map((g) => [g.database, g.heading]),
    [
      ['sqlserver', 'SQL Server'],
      ['teradata', 'Teradata'],
      ['postgresql', 'PostgreSQL'],
    ],
  );
  assert.equal(groups[0].ids[0], 'queue-wait-or-skip', 'the SQL Server lessons keep their order');
  assert.ok(groups[1].ids.includes('teradata-consume'), `Teradata: ${groups[1].ids}`);
  assert.ok(groups[2].ids.includes('pg-queue-skip-locked'), `PostgreSQL: ${groups[2].ids}`);
  assert.ok(groups[2].ids.every((id) => id.startsWith('pg-')), `PostgreSQL: ${groups[2].ids}`);
  const link = page.locator('[data-lesson="pg-queue-skip-locked"] a');
  assert.equal(await link.getAttribute('href'), '#/lesson/pg-queue-skip-locked');
});

test('player: pg-queue-skip-locked, SKIP LOCKED on then off: B skips at once, then waits 2.5 s for A', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/pg-queue-skip-locked', 'skip_locked=on');
  assert.ok((await waitMs(page, 'B')) <= 1, `B waited ${await waitMs(page, 'B')} ms`);
  assert.deepEqual(await resultRows(page, 'result-B-1'), ['2task 23B'], 'B claims task 2 at once');
  assert.equal(await page.$('[data-testid=lane-B] [data-state=waiting]'), null);
  // The toggle's text in A's and B's claims.
  assert.deepEqual(await marked(page), [' SKIP LOCKED', ' SKIP LOCKED']);
  assert.deepEqual(await failedChecks(page), []);
  // Pages read, as PostgreSQL names them.
  const figures = await page.$$eval('[data-testid=outcome-A] dt', (dts) => dts.map((d) => d.textContent));
  assert.ok(figures.includes('shared buffers hit'), JSON.stringify(figures));
  assert.ok(!figures.includes('logical reads'), JSON.stringify(figures));

  await page.click('[data-testid=toggle-skip_locked-off]');
  await settled(page, 'skip_locked=off');
  assert.equal(await page.getAttribute('[data-testid=toggle-skip_locked-off]', 'aria-pressed'), 'true');
  assert.match(page.url(), /skip_locked=off/);
  const wait = await waitMs(page, 'B');
  assert.ok(wait >= 2450 && wait <= 2550, `B waited ${wait} ms`);
  const waiting = page.locator('[data-testid=lane-B] [data-state=waiting]');
  assert.equal(await waiting.count(), 1);
  assert.equal(await waiting.getAttribute('data-holders'), 'A');
  // After the wait PostgreSQL re-checks task 1, finds it taken and locks task 2.
  assert.deepEqual(await resultRows(page, 'result-B-1'), ['2task 23B']);
  // The marks stay, empty: the player shows where the text was.
  const after = await marked(page);
  assert.equal(after.length, 2);
  assert.ok(after.every((text) => !text.includes('SKIP LOCKED')), JSON.stringify(after));
  assert.deepEqual(await failedChecks(page), []);
});

test('player: a PostgreSQL lesson names its locks in pg_locks words and has no intent locks to leave out', async (t) => {
  const { page } = t;
  // Before the first event no lock is held: SQL Server's list says it leaves intent
  // locks out; PostgreSQL has none to leave out.
  await openLesson(t, '#/lesson/pg-claim-race?e=0');
  assert.equal((await page.textContent('[data-testid=waits] .locks')).trim(), 'No locks.');
  await openLesson(t, '#/lesson/queue-claim-race?e=0');
  assert.equal((await page.textContent('[data-testid=waits] .locks')).trim(), 'No locks (intent locks aside).');
  // A row lock is on a TUPLE, in the narration as in the trace.
  await openLesson(t, '#/lesson/pg-claim-race?e=51');
  const locks = await page.textContent('[data-testid=waits] .locks');
  assert.match(locks, /TUPLE task \(1\)/, locks);
  // (A KEY resource is SQL Server's; "FOR NO KEY UPDATE" is a PostgreSQL mode.)
  assert.doesNotMatch(locks, /\bKEY (?!UPDATE)/, locks);
  assert.match(locks, /worker2 FOR NO KEY UPDATE/, locks);
});

test('player: the blocks a run leaves out under one condition share one note, which counts them', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/pg-claim-race', 'claim=two-step');
  const notes = () => page.$$eval('[data-testid=block-off]', (ps) => ps.map((p) => [p.dataset.count, p.textContent.trim()]));
  // worker3 and worker4 take part only with 4 workers.
  assert.deepEqual(await notes(), [['2', '(2 blocks that take part only when workers = 4: not in this run.)']]);
  await page.click('[data-testid=toggle-workers-4]');
  await settled(page, 'workers=4');
  assert.deepEqual(await notes(), []);
});
