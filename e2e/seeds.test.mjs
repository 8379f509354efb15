// Seed 003 and seed 002 in the player: the receiver's calls counted from the page for
// the idempotent-send lesson, and a Teradata consumer lane in the delayed state.

import { test, assert } from './harness.mjs';
import { openLesson } from './settle.mjs';

/** Moves the playhead to the end of the run and waits for the tables to catch up. */
async function toEnd(page) {
  await page.click('[data-testid=end]');
  await page.waitForFunction(() => {
    const pos = document.querySelector('[data-testid=position]');
    const m = pos && pos.textContent.match(/event (\d+) of (\d+)/);
    return m && m[1] === m[2] && document.querySelector('[data-testid=table-external_system]');
  });
  // The tables panel may catch up a moment after the playhead.
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=table-external_system] .table__count');
    return c && /row/.test(c.textContent) && !document.querySelector('[data-testid=tables][aria-busy=true]');
  });
}

/** The receiver's calls: rows of external_system in the tables panel, and the call marks on the lanes. */
async function receiverCalls(page) {
  const count = await page.textContent('[data-testid=table-external_system] .table__count');
  const rows = Number((count.match(/^(\d+) row/) || [])[1]);
  const marks = await page.$$eval('[data-testid=lanes] [data-kind=external-call]', (ms) => ms.length);
  return { rows, marks };
}

test('send-double-click: without a guard the receiver is called twice (read from the page)', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/send-double-click?guard=none', 'guard=none');
  await toEnd(page);
  const calls = await receiverCalls(page);
  assert.equal(calls.rows, 2, `external_system rows: ${JSON.stringify(calls)}`);
  assert.equal(calls.marks, 2, 'one call mark on each user lane');
  const user2 = await page.$$eval('[data-testid=result-user2-1] tbody tr', (rows) => rows.map((r) => r.textContent));
  assert.deepEqual(user2, ['1NEW1001'], 'user2 is told it sent the document');
});

test('send-double-click: the application lock lets the receiver be called once; user2 gets 3 BUSY', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/send-double-click?guard=applock', 'guard=applock');
  await toEnd(page);
  const calls = await receiverCalls(page);
  assert.equal(calls.rows, 1, `external_system rows: ${JSON.stringify(calls)}`);
  assert.equal(calls.marks, 1);
  const user2 = await page.$$eval('[data-testid=result-user2-1] tbody tr', (rows) => rows.map((r) => r.textContent));
  assert.match(user2[0], /^3BUSY/, `user2's answer: ${user2}`);
  // The refused sp_getapplock and its return code are in the event log at that moment.
  await openLesson(t, '#/lesson/send-double-click?guard=applock&t=1000.05', 'guard=applock');
  const log = await page.textContent('[data-testid=event-log]');
  assert.match(log, /user2's sp_getapplock for Exclusive on Send_3 returns -1: timed out: user1 holds it/);
});

test('teradata-consume: a consumer lane is delayed on the empty queue and leaves it when the producer inserts', async (t) => {
  const { page } = t;
  await openLesson(t, '#/lesson/teradata-consume?producer_delay_ms=3000', 'producer_delay_ms=3000');
  const delayed = page.locator('[data-testid=lane-consumer1] [data-state=delayed]');
  assert.equal(await delayed.count(), 1, 'one delayed stretch');
  const from = Number(await delayed.getAttribute('data-from-ms'));
  const to = Number(await delayed.getAttribute('data-to-ms'));
  assert.ok(from < 1, `delayed from ${from} ms`);
  assert.ok(to >= 3000 && to < 3001, `leaves the delayed state when the producer's row arrives at 3 s: ${to} ms`);
  assert.match(await delayed.locator('.seg__label').textContent(), /delayed: order_queue empty/);
  // After the delayed stretch the lane runs again.
  const after = await page.$$eval('[data-testid=lane-consumer1] [data-state]', (segs, at) =>
    segs.filter((s) => Number(s.dataset.fromMs) >= at).map((s) => s.dataset.state), to);
  assert.ok(after.some((s) => s === 'running' || s === 'mixed'), `after the delay: ${after}`);
  await t.screenshot('teradata-consume-delayed');
});
