// The interface in Polish and Japanese: `lang=` in the URL, the header's switch, the
// lesson list, a lesson's narration and outcome, an embed and its copy-embed code; no
// missing-key marker (⟦key⟧) anywhere, and no text wider than its button at desktop and
// phone widths. Screenshots go to target/screenshots/ (not committed) for a human look.

import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { test, assert } from './harness.mjs';
import { settled, position, atEvents } from './settle.mjs';

const SHOTS = join(dirname(dirname(fileURLToPath(import.meta.url))), 'target', 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Fails on a message the catalogues lack (the lookup shows it as `⟦key⟧`). */
async function noMissingKeys(frame, where) {
  const text = await frame.evaluate(() => document.body.innerText + ' ' +
    [...document.querySelectorAll('[title], [aria-label]')]
      .map((el) => `${el.getAttribute('title') || ''} ${el.getAttribute('aria-label') || ''}`).join(' '));
  const missing = text.match(/⟦[^⟧]*⟧/g);
  assert.equal(missing, null, `${where}: missing keys ${missing}`);
}

/** Buttons (and button-like links) whose text is wider than their box. */
async function overflowing(frame) {
  return frame.evaluate(() =>
    [...document.querySelectorAll('button, select, .toggle__value, .dock__tab, .button, a.button')]
      .filter((el) => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.dataset.testid || el.className}: "${el.textContent.trim()}" ${el.scrollWidth}>${el.clientWidth}`));
}

/** Screenshots of the page at desktop and phone widths, checking that nothing overflows. */
async function shotsAndFit(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    assert.deepEqual(await overflowing(page), [], `${name} at ${size}: text wider than its button`);
    await page.screenshot({ path: join(SHOTS, `${name}-${size}.png`), fullPage: size === 'phone' });
  }
  await page.setViewportSize(DESKTOP);
}

test('i18n: the home page in Polish lists the lessons, all translated; in Japanese it says which are not translated yet; links keep lang', async (t) => {
  const { page } = t;
  await page.setViewportSize(DESKTOP);
  await t.open('#/?lang=pl');
  await page.waitForSelector('[data-testid=lesson-item]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pl');
  assert.equal(await page.textContent('#lessons-heading'), 'Lekcje');
  assert.match(await page.textContent('.site-header__tagline'), /kolejki zadań i blokady/);
  assert.equal(await page.inputValue('[data-testid=lang-switch]'), 'pl');
  // Every lesson link keeps the language.
  const hrefs = await page.$$eval('[data-testid=lesson-item] a', (as) => as.map((a) => a.getAttribute('href')));
  assert.ok(hrefs.length > 10 && hrefs.every((h) => h.endsWith('lang=pl')), hrefs.join(' '));
  // Every lesson has a Polish translation: no card carries the untranslated note.
  const notes = async () => page.$$eval('[data-testid=lesson-item]', (els) =>
    els.map((el) => ({ id: el.dataset.lesson, note: el.querySelector('[data-testid=untranslated]')?.textContent ?? null })));
  const cards = await notes();
  assert.deepEqual(cards.filter((c) => c.note !== null).map((c) => c.id), []);
  assert.ok(cards.some((c) => c.id === 'teradata-consume') && cards.some((c) => c.id === 'pg-claim-race'), cards.map((c) => c.id).join(' '));
  await noMissingKeys(page, 'home (pl)');
  await shotsAndFit(page, 'home-pl');

  // In Japanese, a lesson without a translation says so, in Japanese, once per card.
  await page.selectOption('[data-testid=lang-switch]', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  // The header is rebuilt in Japanese; the keyboard stays on the switch.
  await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'lang-switch');
  const ja = await notes();
  const untranslated = ja.filter((c) => c.note !== null);
  for (const c of untranslated) assert.equal(c.note, '未翻訳のため英語で表示しています。');
  assert.ok(untranslated.some((c) => c.id === 'send-double-click'), 'no Japanese send-double-click: the note shows');
  assert.ok(ja.find((c) => c.id === 'teradata-consume').note === null, 'teradata-consume has Japanese: no note');
  console.log(`     ja: ${untranslated.length} of ${ja.length} lessons shown in English with the note`);

  // English has no note and no lang= in its links.
  await page.selectOption('[data-testid=lang-switch]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  assert.equal(await page.textContent('#lessons-heading'), 'Lessons');
  assert.equal(await page.locator('[data-testid=untranslated]').count(), 0);
});

test('i18n: a link in an exercise\'s or a lesson\'s text keeps the language the page came with', async (t) => {
  const { page } = t;
  await page.setViewportSize(DESKTOP);
  await t.open('#/exercise/exercise-skip-locked?lang=pl');
  await page.waitForSelector('[data-testid=exercise]');
  const link = '[data-testid=narrative] a[href^="#/lesson/queue-wait-or-skip"]';
  assert.equal(await page.getAttribute(link, 'href'), '#/lesson/queue-wait-or-skip?lang=pl');
  await page.click(link);
  await page.waitForSelector('[data-testid=player]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pl');
  assert.match(page.url(), /#\/lesson\/queue-wait-or-skip\?lang=pl$/);
  // A link with its own query gets the language after it.
  await t.open('#/lesson/queue-claim-race?lang=pl');
  await page.waitForSelector('[data-testid=player]');
  assert.ok(
    (await page.$$eval('a[href^="#/lesson/queue-claim-race?anomaly=1"]', (as) => as.map((a) => a.getAttribute('href'))))
      .every((h) => h === '#/lesson/queue-claim-race?anomaly=1&lang=pl'),
  );
});

test('i18n: queue-wait-or-skip in Polish narrates a step and shows the outcome panel in Polish', async (t) => {
  const { page } = t;
  await page.setViewportSize(DESKTOP);
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&lang=pl');
  await settled(page, 'readpast=off');
  assert.equal(await page.getAttribute('html', 'lang'), 'pl');
  assert.match(await page.textContent('[data-testid=narration]'), /^Początek: skrypt przygotowawczy się wykonał/);
  await page.click('[data-testid=step-forward]');
  await atEvents(page, 1);
  // The trace's line in Polish, in the page's language (nothing marked English).
  const narration = await page.textContent('[data-testid=narration]');
  assert.match(narration, /^0 ms · zdarzenie 1 z \d+: skrypt przygotowawczy wykonał 6 instrukcji i zostawił 2 tabele$/);
  assert.equal(await page.locator('[data-testid=narration] [lang=en]').count(), 0);
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-label'), 'Odtwórz (spacja)');
  assert.match(await page.textContent('[data-testid=position]'), /^0 ms z\u00a0\d{4}(,\d+)? ms · zdarzenie\u00a01 z\u00a0\d+$/);

  await page.click('[data-testid=tab-outcome]');
  assert.equal(await page.textContent('[data-testid=tab-outcome]'), 'Wynik');
  const outcome = await page.textContent('[data-testid=outcome]');
  assert.match(outcome, /Wynik/);
  assert.match(outcome, /cały przebieg · koniec po \d{4}(,\d+)? ms · ziarno \d+/);
  assert.match(outcome, /czekanie na blokady/);
  // Without READPAST, B waits about 2,5 s: written the Polish way.
  assert.match(await page.textContent('[data-testid=wait-B]'), /^25\d\d,\d+ ms$/);
  assert.match(outcome, /Sprawdzenia: spełnione \d+ z \d+/);
  // The checks by the translation's names; data-name keeps the original's (a contract).
  assert.match(outcome, /A przejmuje zadanie 1, pierwsze o randze 3/);
  assert.ok(await page.$('[data-testid=check][data-name="A claims task 1, the first rank-3 task"]'));
  // What each check found, in Polish: rows as SQL literals, figures the Polish way.
  const details = await page.$$eval('[data-testid=check-detail]', (ds) => ds.map((d) => d.textContent));
  assert.ok(details.length >= 3, details.join(' | '));
  for (const d of details) assert.match(d, /otrzymano|oczekiwano/, d);
  assert.ok(details.some((d) => /^B: wait_ms = 25\d\d(,\d+)? \(oczekiwano od 2450 do 2550\)$/.test(d)), details.join(' | '));
  for (const d of details) assert.doesNotMatch(d, /expected|got /, d);
  // Polish plurals from the catalogue: "1 wiersz", "2 wiersze", "5 wierszy".
  const captions = await page.$$eval('[data-testid=outcome] caption', (cs) => cs.map((c) => c.textContent));
  assert.ok(captions.length > 0);
  for (const c of captions) assert.match(c, /^Wynik \d+ · (1 wiersz|[234] wiersze|\d+ wierszy)$/, c);
  await noMissingKeys(page, 'queue-wait-or-skip (pl)');
  await shotsAndFit(page, 'lesson-pl');

  // At the end the play button's name holds the word it shows.
  await page.click('[data-testid=end]');
  assert.match(await page.textContent('[data-testid=play]'), /Od nowa/);
  assert.equal(await page.getAttribute('[data-testid=play]', 'aria-label'), 'Od nowa (spacja)');
  // A translated lesson's text is in the page's language; an untranslated one's is
  // marked English. The Events rows are in Polish: the run ends as a session finishes
  // its script.
  await page.click('[data-testid=tab-lesson]');
  assert.equal(await page.getAttribute('[data-testid=narrative]', 'lang'), null);
  await page.click('[data-testid=tab-events]');
  assert.equal(await page.getAttribute('[data-testid=event-log] .log__text >> nth=0', 'lang'), null);
  const logRows = await page.$$eval('[data-testid=event-log] .log__text', (els) => els.map((el) => el.textContent));
  assert.match(logRows[logRows.length - 1], /^[AB] kończy swój skrypt$/, logRows.join(' | '));
  for (const row of logRows) assert.doesNotMatch(row, / (gets|releases|commits|finishes|waits for) /, row);
  await t.open('#/lesson/send-double-click?lang=ja');
  await settled(page);
  await page.click('[data-testid=tab-lesson]');
  assert.equal(await page.getAttribute('[data-testid=narrative]', 'lang'), 'en');

  // B waits for A's lock at 2 000 ms: the why panel says so in Polish.
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000&lang=pl');
  await settled(page, 'readpast=off');
  await page.click('[data-testid=why-toggle]');
  await page.waitForSelector('[data-testid=why]');
  assert.equal(await page.textContent('#why-title'), 'Dlaczego B czeka');
  const why = await page.$$eval('.why__sentence', (ps) => ps.map((p) => p.textContent));
  assert.match(why[0], /^Sesja B prosi o blokadę \S+ na task 1 \(jej UPDATE w next_task, wiersz \d+\)\.$/);
  assert.ok(why.some((w) => /nie jest zgodna z X: B czeka, aż A ją zwolni\./.test(w)), why.join(' | '));
  await noMissingKeys(page, 'why (pl)');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'why-pl-desktop.png') });
});

test('i18n: teradata-consume in Japanese', async (t) => {
  const { page } = t;
  await page.setViewportSize(DESKTOP);
  await t.open('#/lesson/teradata-consume?lang=ja');
  await settled(page);
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.equal(await page.textContent('[data-testid=tab-outcome]'), '結果');
  assert.match(await page.textContent('[data-testid=narration]'), /^開始: セットアップが実行され/);
  await page.click('[data-testid=step-forward]');
  await atEvents(page, 1);
  assert.match(await page.textContent('[data-testid=narration]'), /^0 ms · イベント 1 \/ \d+: セットアップが \d+ 文を実行し、テーブル \d+ 個を残しました$/);
  await page.click('[data-testid=tab-outcome]');
  const outcome = await page.textContent('[data-testid=outcome]');
  assert.match(outcome, /実行全体 · [\d,.]+ ms に終了 · シード \d+/);
  assert.match(outcome, /ロック待ち/);
  assert.match(outcome, /コミット：consumer2が注文102をshipmentに移す/);
  const details = await page.$$eval('[data-testid=check-detail]', (ds) => ds.map((d) => d.textContent));
  assert.ok(details.length >= 3 && details.every((d) => /結果|期待値/.test(d)), details.join(' | '));
  assert.match(await page.textContent('.lesson__crumbs'), /レッスン一覧/);
  await noMissingKeys(page, 'teradata-consume (ja)');
  await shotsAndFit(page, 'lesson-ja');
});

test('i18n: an embed with lang=pl speaks Polish and its copy-embed code keeps lang=pl', async (t) => {
  const { page, context } = t;
  await page.setViewportSize(DESKTOP);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.baseUrl).origin });
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&lang=pl');
  await settled(page, 'readpast=off');
  await page.click('[data-testid=step-forward]');
  await page.click('[data-testid=copy-embed-button]');
  assert.equal(await page.textContent('[data-testid=copy-embed-button]'), 'Kopiuj kod osadzenia');
  await page.waitForSelector('[data-testid=embed-copied][data-copied=true]');
  const code = await page.inputValue('[data-testid=embed-code]');
  assert.match(code, /^<iframe src="[^"]*#\/embed\/queue-wait-or-skip\?readpast=off&amp;[^"]*lang=pl"/);
  assert.equal(await page.textContent('[data-testid=embed-copied]'), 'Skopiowano do schowka');

  // The embed itself, in Polish, at the size a blog gives it.
  await page.setViewportSize({ width: 720, height: 600 });
  await t.open('#/embed/queue-wait-or-skip?readpast=off&lang=pl');
  await settled(page, 'readpast=off');
  assert.equal(await page.getAttribute('html', 'lang'), 'pl');
  assert.match(await page.textContent('[data-testid=embed-open]'), /Otwórz w Lockstep/);
  assert.match(await page.getAttribute('[data-testid=embed-open]', 'href'), /lang=pl$/);
  assert.match(await page.textContent('[data-testid=outcome-compact]'), /Wynik · koniec po .* ms · ziarno \d+/);
  assert.match(await page.textContent('[data-testid=outcome-line-B]'), /oczekiwanie 25\d\d,\d+ ms · \d+ wiersz(e|y)? · 0 błędów/);
  await noMissingKeys(page, 'embed (pl)');
  assert.deepEqual(await overflowing(page), []);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'embed-pl.png') });
});

test('i18n: switching language keeps the toggles and the playhead, and the choice is saved', async (t) => {
  const { page } = t;
  await page.setViewportSize(DESKTOP);
  await t.open('#/lesson/queue-wait-or-skip?readpast=off');
  await settled(page, 'readpast=off');
  assert.equal(await page.getAttribute('html', 'lang'), 'en', 'headless Chromium speaks en-US');
  for (let i = 0; i < 3; i++) await page.click('[data-testid=step-forward]');
  await atEvents(page, 3);
  const before = await position(page);
  // The dock's tab the learner chose stays chosen across the switch.
  await page.click('[data-testid=tab-events]');

  // The switch is a native select: the keyboard reaches and changes it.
  await page.focus('[data-testid=lang-switch]');
  await page.selectOption('[data-testid=lang-switch]', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.deepEqual(await position(page), before);
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast]', 'data-value'), 'off');
  assert.equal(await page.textContent('[data-testid=tab-outcome]'), '結果');
  assert.equal(await page.getAttribute('[data-testid=tab-events]', 'aria-selected'), 'true');
  assert.match(await page.textContent('[data-testid=narration]'), /イベント 3 \//);
  assert.match(page.url(), /readpast=off.*lang=ja/);
  await noMissingKeys(page, 'queue-wait-or-skip (ja)');

  await page.selectOption('[data-testid=lang-switch]', 'pl');
  await page.waitForFunction(() => document.documentElement.lang === 'pl');
  assert.deepEqual(await position(page), before);
  assert.equal(await page.getAttribute('[data-testid=tab-events]', 'aria-selected'), 'true');
  assert.equal(await page.getAttribute('[data-testid=toggle-readpast]', 'data-value'), 'off');
  assert.equal(await page.evaluate(() => localStorage.getItem('lockstep.lang')), 'pl');

  // The saved choice holds on the next visit, without lang= in the URL.
  await t.open('#/');
  await page.waitForSelector('[data-testid=lesson-item]');
  assert.equal(await page.getAttribute('html', 'lang'), 'pl');
  assert.equal(await page.textContent('#lessons-heading'), 'Lekcje');
});

test('i18n: Japanese and Polish fit their buttons on the home page and in the player at phone width', async (t) => {
  const { page } = t;
  await t.open('#/?lang=ja');
  await page.waitForSelector('[data-testid=lesson-item]');
  await noMissingKeys(page, 'home (ja)');
  await shotsAndFit(page, 'home-ja');
  await t.open('#/lesson/queue-claim-race?lang=pl');
  await settled(page);
  await page.click('[data-testid=end]');
  await noMissingKeys(page, 'queue-claim-race (pl)');
  await shotsAndFit(page, 'claim-race-pl');
});

test('i18n: a translation reaches every page that shows a lesson: an exercise narrative, anomalies, the facilitator page, the matrix', async (t) => {
  const { page } = t;
  await t.open('#/exercise/exercise-skip-locked?lang=pl');
  await page.waitForSelector('[data-testid=narrative]');
  assert.match(await page.textContent('[data-testid=narrative]'), /Dwóch operatorów bierze zadania z jednej kolejki/);
  await noMissingKeys(page, 'exercise-skip-locked (pl)');

  // Anomalies found with the original's rules are labelled with the translation's.
  await t.open('#/lesson/send-double-click?lang=pl');
  await settled(page);
  const titles = await page.$$eval('[data-testid=anomaly]', (as) => as.map((a) => a.getAttribute('title') || ''));
  assert.ok(titles.length >= 2, titles.join(' | '));
  assert.ok(titles.some((a) => /odbiorca wywołany drugi raz dla tego samego dokumentu/.test(a)), titles.join(' | '));
  assert.ok(titles.some((a) => /user2: błąd 2601/.test(a)), titles.join(' | '));
  for (const a of titles) assert.doesNotMatch(a, /receiver called|repeats|error 2601/, a);

  await t.open('#/facilitator?lang=pl');
  await page.waitForSelector('[data-testid=facilitator-exercise]');
  const facilitator = await page.textContent('main');
  assert.match(facilitator, /Ćwiczenie: niech drugi proces nie czeka/);
  assert.doesNotMatch(facilitator, /Exercise: /);

  await t.open('#/lesson/queue-wait-or-skip/matrix?lang=pl');
  await page.waitForSelector('[data-testid=matrix] h2');
  assert.match(await page.textContent('[data-testid=matrix] h2'), /Czekać czy pominąć/);
  // The column headers' titles are the legend's words, in Polish.
  await page.waitForSelector('[data-testid=matrix-table]', { timeout: 30_000 });
  const heads = await page.$$eval('[data-testid=matrix-table] th[title]', (ths) => ths.map((th) => th.title));
  assert.ok(heads.some((h) => /Błędy nieprzechwycone przez blok TRY/.test(h)), heads.join(' | '));
  for (const h of heads) assert.doesNotMatch(h, /claims task|Errors no TRY|No deadlock/, h);

  // A lesson without a Japanese translation says so on each of its pages, not only the player.
  for (const hash of ['#/exercise/exercise-send-applock?lang=ja', '#/lesson/send-double-click/compare?left=guard:none&right=guard:applock&lang=ja',
    '#/lesson/send-double-click/matrix?lang=ja', '#/lesson/send-double-click/schedule?lang=ja', '#/embed/send-double-click?view=full&lang=ja']) {
    await t.open(hash);
    await page.waitForSelector('[data-testid=untranslated]');
    assert.equal(await page.textContent('[data-testid=untranslated]'), '未翻訳のため英語で表示しています。', hash);
  }
  // A translated one does not (the job-queue lessons and their exercises have Japanese).
  for (const [hash, title] of [['#/lesson/queue-wait-or-skip?lang=ja', /待つかスキップするか/], ['#/exercise/exercise-skip-locked?lang=ja', /.+/],
    ['#/lesson/queue-claim-race?lang=ja', /.+/], ['#/exercise/exercise-claim-fix?lang=ja', /.+/]]) {
    await t.open(hash);
    await page.waitForSelector('h2');
    assert.match(await page.textContent('h2'), title, hash);
    assert.equal(await page.locator('[data-testid=untranslated]').count(), 0, hash);
  }
  // ...and its anomaly explanations use the catalogue's verb, not the lesson's English one.
  await t.open('#/lesson/send-double-click?lang=ja');
  await settled(page);
  const anomalyTitles = await page.$$eval('[data-testid=anomaly]', (as) => as.map((a) => a.getAttribute('title') || ''));
  assert.ok(anomalyTitles.length >= 1);
  const whys = [];
  await page.keyboard.press('?');
  for (let k = 0; k < anomalyTitles.length; k += 1) {
    await page.keyboard.press(']');
    await page.waitForTimeout(100);
    whys.push((await page.$('[data-testid=why]')) ? await page.textContent('[data-testid=why]') : '');
  }
  assert.ok(whys.some((w) => /を再び書き込みました/.test(w)), whys.join(' | '));
  for (const w of whys) assert.doesNotMatch(w, / sent /, w);
});

test('i18n: a broken link, a compare and an Explore counterexample speak Polish', async (t) => {
  const { page } = t;
  // A link's notices are worded when shown, in the page's language.
  await t.open('#/lesson/queue-wait-or-skip?lang=pl&t=soon&readpast=maybe');
  await page.waitForSelector('[data-testid=url-warnings] li');
  const notices = await page.$$eval('[data-testid=url-warnings] li', (lis) => lis.map((li) => li.textContent));
  assert.ok(notices.some((n) => n.includes('t=soon to nie czas')), notices.join(' | '));
  assert.ok(notices.some((n) => n.includes('maybe nie jest wartością przełącznika readpast')), notices.join(' | '));
  for (const n of notices) assert.doesNotMatch(n, /is not|write |toggle/, n);
  await noMissingKeys(page, 'broken link (pl)');

  // A schedule the scheduler cannot follow says why, in Polish, with its numbers.
  await t.open('#/lesson/queue-claim-race/schedule?claim=two-step&tasks=3&schedule=u.0.7&lang=pl');
  await page.waitForSelector('[data-testid=schedule-problem]');
  const replay = await page.textContent('[data-testid=schedule-problem]');
  assert.match(replay, /wybór 2: .*sesj/, replay);
  assert.doesNotMatch(replay, /choice|cannot|picks/, replay);

  // Compare names the toggle by its Polish label.
  await t.open('#/lesson/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off&lang=pl');
  await page.waitForSelector('[data-testid=compare-divergence]');
  const differs = await page.textContent('[data-testid=compare-differences]');
  assert.match(differs, /: on → off/);
  assert.doesNotMatch(differs, /readpast: on|READPAST hint in the claim/, differs);
  await noMissingKeys(page, 'compare (pl)');

  // Explore's counterexample: the conflict sentence and the narrated steps.
  await t.open('#/lesson/queue-claim-race/schedule?claim=two-step&tasks=3&lang=pl');
  await page.waitForSelector('[data-testid=schedule-view]');
  await page.click('[data-testid=explore-button]');
  await page.locator('[data-testid=explore-result][data-verdict=violated]').waitFor({ timeout: 30_000 });
  const why = await page.textContent('[data-testid=explore-conflict]');
  assert.match(why, /worker1 odczytuje task 1, zanim UPDATE sesji worker2 go zapisze; obie potem go zapisują/);
  const steps = await page.$$eval('[data-testid=explore-steps] li', (lis) => lis.map((li) => li.textContent));
  assert.ok(steps.length > 5, steps.join(' | '));
  // The steps word the trace's events in Polish too (the worker searches in the page's language).
  for (const s of steps) assert.doesNotMatch(s, / reads | runs |finishes its statement| inserts | updates /, s);
  assert.ok(steps.some((s) => /^worker\d wstawia claim/.test(s)), steps.join(" | "));
  await noMissingKeys(page, 'explore (pl)');

  // The player replays it with the same Polish steps; switched to Japanese, it words
  // them again rather than keep the Polish ones.
  await page.click('[data-testid=explore-open-player]');
  await page.waitForFunction(() => document.querySelector('[data-testid=player]')?.dataset.pending === 'false' && document.querySelector('[data-testid=conflict-narration]'));
  const replayed = () => page.$$eval('[data-testid=conflict-narration] li', (lis) => lis.map((li) => li.textContent).join(' | '));
  assert.match(await replayed(), /worker\d wstawia claim/);
  await page.selectOption('[data-testid=lang-switch]', 'ja');
  await page.waitForFunction(() => /を挿入します/.test(document.querySelector('[data-testid=conflict-narration]')?.textContent ?? ''));
  assert.doesNotMatch(await replayed(), /wstawia|inserts/);
  // The lanes' marks of the two conflicting steps quote them in Japanese too.
  const marks = await page.$$eval('[data-testid=conflict-step]', (els) => els.map((el) => el.getAttribute('aria-label')));
  assert.equal(marks.length, 2, marks.join(' | '));
  for (const mark of marks) assert.doesNotMatch(mark, /odczytuje|zmienia|wstawia|reads|updates/, mark);
});

test('i18n: switching language on the scheduler keeps the statements picked', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race/schedule?claim=two-step&tasks=3&lang=pl');
  const view = '[data-testid=schedule-view]';
  await page.waitForSelector(view);
  const steps = () => page.$eval(view, (el) => Number(el.dataset.steps));
  for (const [k, session] of [[1, 1], [2, 2], [3, 1]]) {
    await page.click(`[data-testid=schedule-step-${session}]`);
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]')?.dataset.steps) === n, k);
  }
  const schedule = await page.textContent('[data-testid=schedule-string]');
  await page.selectOption('[data-testid=lang-switch]', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  await page.waitForSelector(view);
  assert.equal(await steps(), 3);
  assert.equal(await page.textContent('[data-testid=schedule-string]'), schedule);
  assert.ok(page.url().includes('steps=3') && page.url().endsWith('lang=ja'), page.url());
  // The screen reader's line joins a step's events as Japanese sentences.
  const said = [];
  for (let k = 4; k <= 8; k++) {
    await page.click('[data-testid=schedule-step-2]');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid=schedule-view]')?.dataset.steps) === n, k);
    said.push(await page.textContent('[data-testid=schedule-narration]'));
  }
  assert.ok(said.some((s) => /^ステップ \d: worker2 .+。worker2 /.test(s)), said.join(' | '));
  for (const s of said) assert.doesNotMatch(s, /; /, s);
});

test('i18n: switching language keeps Explore\'s counterexample, worded in the new language', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race/schedule?claim=two-step&tasks=3&lang=pl');
  await page.waitForSelector('[data-testid=schedule-view]');
  await page.click('[data-testid=explore-button]');
  await page.locator('[data-testid=explore-result][data-verdict=violated]').waitFor({ timeout: 30_000 });
  const steps = () => page.$$eval('[data-testid=explore-steps] li', (lis) => lis.map((li) => li.textContent));
  const polish = await steps();
  await page.selectOption('[data-testid=lang-switch]', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  // No new search: the answer is there at once, in Japanese.
  await page.locator('[data-testid=explore-result][data-verdict=violated]').waitFor({ timeout: 2_000 });
  const japanese = await steps();
  assert.equal(japanese.length, polish.length);
  // One style throughout: "worker1 が …します", as "worker1 が SET NOCOUNT ON を実行します".
  assert.ok(japanese.some((s) => /^worker\d が claim \(\d\) を挿入します/.test(s)), japanese.join(' | '));
  for (const s of japanese) assert.doesNotMatch(s, /wstawia|odczytuje|inserts|reads|^worker\d: /, s);
  assert.match(await page.textContent('[data-testid=explore-conflict]'), /worker2 の UPDATE が task 1 を書き込む前に worker1 がそれを読み取り/);
  assert.doesNotMatch(await page.textContent('[data-testid=explore-result]'), /Żadne|zadanie/);
  await noMissingKeys(page, 'explore after a switch (ja)');
});

test('i18n: the whole-run strip\'s label is whole in every language, beside one-letter sessions', async (t) => {
  const { page } = t;
  for (const [lang, label] of [['en', 'all'], ['pl', 'cały'], ['ja', '全体']]) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await t.open(`#/lesson/queue-wait-or-skip?readpast=off&lang=${lang}`);
      await settled(page, 'readpast=off');
      const shown = await page.$eval('.overview__label', (el) => ({ text: el.textContent, cut: el.scrollWidth > el.clientWidth }));
      assert.deepEqual(shown, { text: label, cut: false }, `${lang} at ${width}`);
    }
  }
});

test('i18n: the built-in properties (no lesson declares them) are named in the page\'s language', async (t) => {
  const { page } = t;
  await t.open('#/lesson/send-wait-for-lock/schedule?lang=pl');
  await page.waitForSelector('[data-testid=schedule-view]');
  const options = await page.$$eval('[data-testid=explore-property] option', (os) => os.map((o) => o.textContent));
  assert.ok(options.includes('Żadna sesja nie kończy się błędem'), options.join(' | '));
  assert.ok(options.includes('Bez zakleszczenia'), options.join(' | '));
  const listed = await page.textContent('[data-testid=properties]');
  assert.doesNotMatch(listed, /No session ends with an error|No deadlock/, listed);
});

// On the one-screen layout a toggle's help shows one line; a Japanese help is longer.
// With focus on the toggle (Tab, or a tap) the whole help shows, not only in a title.
test('i18n: a toggle with focus shows its whole help (teradata-rules in Japanese)', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/teradata-rules?lang=ja');
  await settled(page);
  const toggle = page.locator('.toggle:has(.toggle__help)').first();
  const clamped = () => toggle.locator('.toggle__help').evaluate((e) => e.scrollHeight > e.clientHeight + 1);
  assert.equal(await clamped(), true, 'the help is cut to one line at rest');
  await toggle.locator('.toggle__value').first().focus();
  assert.equal(await clamped(), false, 'with focus the whole help shows');
});

test('i18n: on a phone a late session\'s lane says when it starts, whole, in every language', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const lang of ['en', 'pl', 'ja']) {
    await t.open(`#/lesson/queue-wait-or-skip?lang=${lang}`);
    await settled(page, 'readpast=on');
    const labels = await page.$$eval('[data-testid=lanes] .seg--idle .seg__label', (els) => els.map((el) => {
      const shown = [...el.children].find((c) => getComputedStyle(c).display !== 'none') ?? el;
      const range = document.createRange();
      range.selectNodeContents(shown);
      return { text: shown.textContent, width: range.getBoundingClientRect().width, room: el.clientWidth - 0.7 * 16 - 0.4 * 16 };
    }));
    assert.ok(labels.length >= 1, `${lang}: no late session`);
    for (const l of labels) {
      assert.ok(l.text && /\d/.test(l.text), `${lang}: ${JSON.stringify(l)}`);
      assert.ok(l.width <= l.room + 1, `${lang}: the label is cut: ${JSON.stringify(l)}`);
    }
  }
});

test(
  'i18n: on a lesson that asks a question, switching the language keeps the focus on the switch',
  async (t) => {
    const { page } = t;
    await t.open('#/lesson/queue-wait-or-skip?lang=pl');
    await page.waitForSelector('.predict__choice');
    await page.focus('[data-testid=lang-switch]');
    await page.selectOption('[data-testid=lang-switch]', 'ja');
    await page.waitForFunction(() => document.documentElement.lang === 'ja');
    await page.waitForSelector('.predict__choice');
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.testid), 'lang-switch');
  },
  { predict: true },
);

test('i18n: a key range in a lock is named in Polish and Japanese; the database\'s own words stay', async (t) => {
  const { page } = t;
  for (const [lang, words] of [['pl', 'KEY send (koniec indeksu)'], ['ja', 'KEY send (インデックスの末尾)']]) {
    await t.open(`#/lesson/send-merge-upsert?holdlock=on&lang=${lang}&tab=events`);
    await page.waitForSelector('[data-testid=event-log]');
    await page.click('[data-testid=end]');
    await page.waitForFunction((w) => document.querySelector('[data-testid=event-log]')?.textContent.includes(w), words, { timeout: 10_000 });
    const log = await page.textContent('[data-testid=event-log]');
    assert.ok(!log.includes('end of index'), `${lang}: ${log.slice(0, 300)}`);
    assert.ok(log.includes('RangeS-U'), `${lang}: the mode keeps its name`);
  }
});

test(
  'i18n: an untranslated lesson\'s own words are marked English on a Japanese page; the interface\'s are not',
  async (t) => {
    const { page } = t;
    await t.open('#/lesson/send-double-click?lang=ja');
    await page.waitForSelector('[data-testid=predict]');
    const langOf = (sel) => page.$eval(sel, (el) => el.closest('[lang]').getAttribute('lang'));
    assert.equal(await langOf('.toggle__label'), 'en');
    assert.equal(await langOf('.toggle__help'), 'en');
    assert.equal(await langOf('.predict__ask'), 'en');
    assert.equal(await langOf('[data-testid=predict-choice]'), 'en');
    assert.equal(await langOf('.predict__title'), 'ja');
    // A translated lesson's words are the page's.
    await t.open('#/lesson/queue-wait-or-skip?lang=ja');
    await page.waitForSelector('[data-testid=predict]');
    assert.equal(await langOf('.toggle__label'), 'ja');
    assert.equal(await langOf('.predict__ask'), 'ja');
  },
  { predict: true },
);
