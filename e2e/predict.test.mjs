// Predict, then run: a lesson's question is asked before the run it is about, in the
// stage's place; the answer is judged against the run's figure, with a link to the
// moment that decides it, and kept in the browser.

import { test, assert } from './harness.mjs';
import { settled, position } from './settle.mjs';

const ASK = '[data-testid=predict]';
const VERDICT = '[data-testid=predict-verdict]';

test('predict: answer, run, and see the verdict with its link to the moment', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip');
  // The default setting (READPAST on) has a question too: it takes the stage's place.
  await page.waitForSelector(`${ASK}[data-question=b-wait-readpast-on]`);
  assert.equal(await page.$('[data-testid=transport]'), null, 'the run is shown before the answer');
  // Asked as the page opens, the question leaves the focus alone (a focused first choice
  // would look chosen); Skip, from the keyboard, hands the focus to Play.
  assert.notEqual(await page.evaluate(() => document.activeElement?.dataset?.testid), 'predict-choice');
  // The summary and the Lesson tab would give the answer away: they wait for it.
  assert.match(await page.textContent('[data-testid=summary-hidden]'), /^Predict first: the summary follows your answer\.$/);
  // So do the run's tabs, and they say so rather than stand empty.
  await page.click('[data-testid=tab-outcome]');
  assert.match(await page.textContent('#tabpanel-outcome [data-testid=panel-hidden]'), /opens once you have answered the question or skipped it/);
  await page.click('[data-testid=tab-lesson]');
  assert.match(await page.textContent('[data-testid=narrative-hidden]'), /opens once you have answered the question or skipped it/);
  assert.equal(await page.$('.lesson__summary:not([data-testid=summary-hidden])'), null);
  await page.focus('[data-testid=predict-skip]');
  await page.keyboard.press('Enter');
  await settled(page, 'readpast=on');
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'play');
  assert.equal(await page.$(VERDICT), null, 'a skipped question has no verdict');
  assert.equal(await page.$('[data-testid=narrative-hidden]'), null, 'the lesson text is back');
  assert.equal(await page.$('[data-testid=summary-hidden]'), null, 'the summary is back');

  // Flipping READPAST off asks how long B will wait; the keyboard answers (2: about 2.5 s).
  await page.click('[data-testid=toggle-readpast-off]');
  await page.waitForSelector(`${ASK}[data-question=b-wait-readpast-off]`);
  assert.match(await page.textContent(ASK), /how long will B wait/i);
  const labels = await page.$$eval('[data-testid=predict-choice]', (bs) => bs.map((b) => b.textContent.trim()));
  assert.deepEqual(labels, ['0 ms: it takes the next free task', 'About 2.5 s', 'Forever: it never gets a task', 'It gets an error']);
  await t.screenshot('predict-ask');
  // Arrow keys move between the choices (from the first, which has the focus), round
  // the ends.
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.index);
  await page.waitForFunction(() => document.activeElement?.dataset?.index === '0');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), '1');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), '3');
  await page.keyboard.press('ArrowRight');
  assert.equal(await focused(), '0');
  await page.keyboard.press('2');
  // The verdict takes the focus from the choice it replaces.
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'predict-verdict');
  await settled(page, 'readpast=off');
  const result = `${VERDICT} [data-testid=predict-result]`;
  await page.waitForSelector(result);
  assert.equal(await page.getAttribute(result, 'data-right'), 'true');
  assert.match(await page.textContent(result), /^Right\. You said: About 2\.5 s\.$/);
  // The figure is written as the outcome panel writes B's wait.
  assert.equal(await page.textContent(`${VERDICT} [data-testid=predict-figure]`), 'B wait_ms = 2,500.185');
  assert.equal(await page.textContent('[data-testid=wait-B]'), '2,500.185 ms');
  await t.screenshot('predict-verdict');
  // The run plays from the start once answered.
  await page.waitForFunction(() => document.querySelector('[data-testid=play]')?.dataset.playing === 'true');

  // The link goes to B's wait: the playhead stops on the event where B starts waiting.
  const href = await page.getAttribute('[data-testid=predict-moment]', 'href');
  assert.match(href, /^#\/lesson\/queue-wait-or-skip\?readpast=off&e=\d+$/);
  const moment = Number(href.match(/e=(\d+)/)[1]);
  // Followed while the run plays, the link still stops there.
  assert.equal(await page.getAttribute('[data-testid=play]', 'data-playing'), 'true');
  await page.click('[data-testid=predict-moment]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]')?.dataset.playing === 'false');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=position]')?.dataset.events) === n, moment);
  const at = (await position(page)).t;
  assert.ok(at >= 1500 && at < 1501, `the moment is at ${at} ms, not when B asks at 1.5 s`);
  assert.match(await page.textContent('[data-testid=narration]'), /B waits/);

  // Kept across a reload; "Ask me again" asks, and a wrong answer says what the run says.
  await page.reload();
  await settled(page, 'readpast=off');
  await page.waitForSelector(`${VERDICT} [data-testid=predict-result][data-right=true]`);
  await page.click('[data-testid=predict-again]');
  await page.waitForSelector(`${ASK}[data-question=b-wait-readpast-off]`);
  await page.click('[data-testid=predict-choice][data-index="0"]');
  await page.waitForSelector(`${VERDICT} [data-testid=predict-result]`);
  assert.equal(await page.getAttribute(`${VERDICT} [data-testid=predict-result]`, 'data-right'), 'false');
  assert.match(await page.textContent(`${VERDICT} [data-testid=predict-result]`), /Not quite\. You said: 0 ms: it takes the next free task\. The run says: About 2\.5 s\./);
  const stored = await page.evaluate(() => localStorage.getItem('lockstep.answers.queue-wait-or-skip'));
  assert.equal(stored, 'lockstep-answers 1\nb-wait-readpast-off 0\nb-wait-readpast-on skip');
}, { predict: true });

test('predict: "Stop asking me" shows the run at once; the Lesson tab asks again', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race');
  await page.waitForSelector(`${ASK}[data-question=two-step-duplicates]`);
  assert.match(await page.textContent(ASK), /how many claims will be duplicates/);
  await page.click('[data-testid=predict-off]');
  await settled(page, 'claim=two-step');
  assert.equal(await page.$(ASK), null);
  await page.reload();
  await settled(page, 'claim=two-step');
  assert.equal(await page.$(ASK), null, 'the choice is kept');
  assert.equal(await page.isChecked('[data-testid=predict-switch]'), false);
  await page.click('[data-testid=predict-switch]');
  await page.waitForSelector(`${ASK}[data-question=two-step-duplicates]`);
}, { predict: true });

test('predict: a link to a moment opens on it, unasked', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000');
  await settled(page, 'readpast=off');
  // The teacher's moment, not a question first and not a replay from the start.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]')?.dataset.tMs) === 2000);
  assert.equal(await page.$(ASK), null);
  await page.waitForTimeout(300);
  assert.equal((await position(page)).t, 2000);
  assert.equal(await page.getAttribute('[data-testid=play]', 'data-playing'), 'false');
  assert.match(page.url(), /[?&]t=2000(&|$)/);
  // Moving on from the moment does not bring the question up over the stage.
  await page.keyboard.press('Home');
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=position]')?.dataset.tMs) === 0);
  assert.equal(await page.$(ASK), null);
  // Other settings ask as usual, and answering plays the run from its start.
  await page.click('[data-testid=toggle-readpast-on]');
  await page.waitForSelector(`${ASK}[data-question=b-wait-readpast-on]`);
  await page.click('[data-testid=predict-choice][data-index="0"]');
  await page.waitForFunction(() => document.querySelector('[data-testid=play]')?.dataset.playing === 'true');
}, { predict: true });

test('predict: on a phone, "See the moment" brings the player up below the verdict and gives Play the focus', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 360, height: 640 });
  await t.open('#/lesson/queue-wait-or-skip?readpast=off');
  await page.waitForSelector(`${ASK}[data-question=b-wait-readpast-off]`);
  await page.click('[data-testid=predict-choice][data-index="1"]');
  await settled(page, 'readpast=off');
  await page.waitForSelector(`${VERDICT} [data-testid=predict-moment]`);
  await page.$eval(VERDICT, (el) => el.scrollIntoView({ block: 'start' }));
  const below = await page.$eval('[data-testid=transport]', (el) => el.getBoundingClientRect().top);
  assert.ok(below > 640, `the transport is in sight already (${below} px): the test shows nothing`);
  await page.click('[data-testid=predict-moment]');
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'play');
  const seen = await page.$eval('[data-testid=transport]', (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });
  assert.ok(seen.top >= -1 && seen.bottom <= 641, `the transport is out of sight: ${JSON.stringify(seen)}`);
}, { predict: true });
