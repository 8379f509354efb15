// The stage: while stepping, the lanes, each session's current statement and the
// wait-for graph are on one screen at desktop and phone sizes; the timeline zooms down
// to single statements (wheel, two-finger pinch, buttons, the whole-run strip); the
// slider steps by events; quiet stretches play compressed; the dock's tabs work by
// keyboard; big tables filter; another seed is one click away.
// Bounding boxes are read from the DOM.

import { test, assert } from './harness.mjs';
import { settled, position, scrollToStage } from './settle.mjs';

/** Boxes of the parts that must be on screen, and the viewport's size. */
const stageBoxes = (page) =>
  page.evaluate(() => {
    // The part's box, cut by every ancestor that clips (a scrolling panel hides what
    // is outside it just as the window does).
    const box = (el, name) => {
      const r = el.getBoundingClientRect();
      let { top, bottom, left, right } = r;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowY !== 'visible' || style.overflowX !== 'visible') {
          const c = a.getBoundingClientRect();
          if (a !== document.body && a !== document.documentElement) {
            top = Math.max(top, c.top);
            bottom = Math.min(bottom, c.bottom);
            left = Math.max(left, c.left);
            right = Math.min(right, c.right);
          }
        }
      }
      return { name, top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height, shown: bottom - top >= r.height - 1 && right - left >= Math.min(r.width, 40) };
    };
    const parts = [];
    parts.push(box(document.querySelector('[data-testid=lanes]'), 'lanes'));
    for (const el of document.querySelectorAll('[data-testid=stage] [data-testid^="current-"]')) {
      parts.push(box(el, el.dataset.testid));
    }
    const graph = document.querySelector('[data-testid=wait-graph]');
    if (graph) parts.push(box(graph, 'wait graph'));
    return { parts, width: window.innerWidth, height: window.innerHeight };
  });

function assertOnScreen({ parts, width, height }, where) {
  const names = parts.map((p) => p.name);
  assert.ok(names.includes('lanes') && names.includes('wait graph'), `${where}: missing parts: ${names}`);
  assert.ok(names.some((n) => n.startsWith('current-')), `${where}: no current statements: ${names}`);
  for (const p of parts) {
    assert.ok(p.height > 0, `${where}: ${p.name} is not drawn`);
    assert.ok(p.shown, `${where}: ${p.name} is cut off by a scrolling panel: ${JSON.stringify(p)}`);
    assert.ok(
      p.top >= -0.5 && p.bottom <= height + 0.5 && p.left >= -0.5 && p.right <= width + 0.5,
      `${where}: ${p.name} is off screen: ${JSON.stringify(p)} in ${width}×${height}`,
    );
  }
}

const LESSONS = [
  ['queue-claim-race', '', 'claim=two-step'],
  ['queue-wait-or-skip', '?readpast=off', 'readpast=off'],
];

for (const scheme of ['light', 'dark']) {
  test(
    `stage: lanes, current statements and the wait graph stay on one screen while stepping (${scheme})`,
    async (t) => {
      const { page } = t;
      for (const [id, query, setting] of LESSONS) {
        for (const [width, height] of [[1280, 800], [1280, 720], [390, 844]]) {
          const where = `${id} at ${width}×${height}`;
          await page.setViewportSize({ width, height });
          await page.goto('about:blank');
          await t.open(`#/lesson/${id}${query}`);
          await settled(page, setting);
          // On a phone or a short wide window the reader scrolls past the title and
          // toggles once; from then on the stage stays put while stepping (its
          // transport and lanes are pinned).
          const scrolled = () => scrollToStage(page);
          const short = width < 1024 || height < 800;
          if (short) await scrolled();
          for (let i = 1; i <= 25; i++) {
            await page.keyboard.press('ArrowRight');
            await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.events === String(k), i);
            if (i % 6 === 0) assertOnScreen(await stageBoxes(page), `${where}, event ${i}`);
            if (i % 6 === 0) {
              // A statement deep in a procedure starts at the panel's left edge, its
              // indentation taken off, so a narrow card shows its first words.
              const firsts = await page.$$eval('[data-testid=stage] [data-testid^="current-"] pre', (pres) =>
                pres.map((pre) => pre.textContent.split('\n')[0]),
              );
              for (const line of firsts) assert.doesNotMatch(line, /^\s/, `${where}, event ${i}: "${line}"`);
            }
          }
          // A moment with a wait: the graph has its arrow, still on screen.
          if (id === 'queue-wait-or-skip') {
            await page.evaluate(() => {
              location.hash = location.hash.replace(/&t=[^&]*|&e=[^&]*/g, '') + '&t=2000';
            });
            await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.tMs === '2000');
            if (short) await scrolled();
            assert.match(await page.textContent('[data-testid=wait-edges]'), /B waits for A/);
            assert.equal(await page.locator('[data-testid=wait-graph] .edge').count(), 1);
            assertOnScreen(await stageBoxes(page), `${where}, B waiting`);
          }
          await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
          await t.screenshot(`stage-${id}-${scheme}-${width}`);
        }
      }
    },
    { colorScheme: scheme, timeoutMs: 120_000 },
  );
}

test('stage: on a 1280×720 window the transport, narration, lanes and dock stay in sight while each session and the wait graph scroll into sight under them', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 720 });
  // Five sessions: their statements and the wait graph cannot all fit under the lanes.
  await t.open('#/lesson/teradata-consume');
  await settled(page);
  // The top that stays takes about half the window, not 60 % (slimmer lanes).
  const pinnedHeight = await page.$eval('.stage__pinned', (el) => el.getBoundingClientRect().height);
  assert.ok(pinnedHeight <= 0.55 * 720, `the stage's top is ${pinnedHeight} px of 720`);
  // Each segment's label line fits in its slimmer segment.
  const labels = await page.$$eval('[data-testid=lanes] .seg__label', (els) =>
    els.map((el) => ({ line: parseFloat(getComputedStyle(el).lineHeight), room: el.parentElement.clientHeight })));
  assert.ok(labels.length >= 3, `${labels.length} labels`);
  for (const l of labels) assert.ok(l.line <= l.room + 0.5, `a label's line is taller than its segment: ${JSON.stringify(l)}`);
  // A wheel over the lanes that cannot zoom out further scrolls the page.
  const lanesWindow = () => page.$eval('[data-testid=lanes]', (el) => [el.dataset.fromMs, el.dataset.toMs].join('–'));
  const whole = await lanesWindow();
  const track = await page.$eval('[data-testid=lanes] .lane__track', (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.move(track.x, track.y);
  await page.mouse.wheel(0, 120);
  await page.waitForFunction(() => window.scrollY > 0);
  assert.equal(await lanesWindow(), whole, 'the wheel zoomed instead of scrolling');
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 1; i <= 12; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.events === String(k), i);
  }
  const parts = await page.$$eval('[data-testid=stage] [data-testid^="current-"], [data-testid=wait-graph]', (els) => els.map((el) => el.dataset.testid));
  assert.equal(parts.length, 6, parts.join(' '));
  for (const part of parts) {
    await page.$eval(`[data-testid="${part}"]`, (el) => el.scrollIntoView({ block: 'end' }));
    const seen = await page.evaluate((part) => {
      // A box as seen: cut by every ancestor that clips it, and by the window.
      const seenBox = (el) => {
        let { top, bottom } = el.getBoundingClientRect();
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowY !== 'visible') {
            const c = a.getBoundingClientRect();
            top = Math.max(top, c.top);
            bottom = Math.min(bottom, c.bottom);
          }
        }
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, whole: top <= r.top + 0.5 && bottom >= r.bottom - 0.5 && r.top >= -0.5 && r.bottom <= innerHeight + 0.5 };
      };
      const pick = (sel) => seenBox(document.querySelector(sel));
      return {
        transport: pick('[data-testid=transport]'),
        narration: pick('.stage__pinned .narration-slot'),
        lanes: pick('[data-testid=lanes]'),
        pinnedBottom: document.querySelector('.stage__pinned').getBoundingClientRect().bottom,
        part: pick(`[data-testid="${part}"]`),
      };
    }, part);
    for (const name of ['transport', 'narration', 'lanes', 'part']) {
      assert.ok(seen[name].whole, `${part} in sight: ${name} is not whole on screen: ${JSON.stringify(seen)}`);
    }
    assert.ok(seen.part.top >= seen.pinnedBottom - 0.5, `${part} is under the pinned stage: ${JSON.stringify(seen)}`);
  }
  // What takes the focus scrolls into sight below the stage's top, not under it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // (The first session's statement, made focusable as a box that scrolls is.)
  const focused = await page.$eval('[data-testid=stage] [data-testid^="current-"]', (el) => {
    el.tabIndex = -1;
    el.focus();
    return {
      top: el.getBoundingClientRect().top,
      pinned: document.querySelector('.stage__pinned').getBoundingClientRect().bottom,
    };
  });
  assert.ok(focused.top >= focused.pinned - 0.5, `the focused statement is under the stage's top: ${JSON.stringify(focused)}`);
  // Page Down goes by what the stage's top leaves in sight, and so skips nothing.
  await page.evaluate(() => { document.activeElement.blur(); window.scrollTo(0, 0); });
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => window.scrollY > 0);
  const paged = await page.evaluate(() => ({
    by: window.scrollY,
    room: window.innerHeight - document.querySelector('.stage__pinned').getBoundingClientRect().height,
  }));
  assert.ok(paged.by <= paged.room, `Page Down went ${paged.by} px with ${paged.room} px in sight`);
  // Opening the legend while the top is stuck lets that top scroll with the page; the
  // summary just clicked stays under the pointer, and the legend shows below it.
  await page.evaluate(() => window.scrollTo(0, 600));
  const summary = '[data-testid=lanes] .legend-box:not(.legend-box--keys) > summary';
  const before = await page.$eval(summary, (el) => el.getBoundingClientRect().top);
  await page.click(summary);
  await page.waitForFunction((s) => document.querySelector(s).parentElement.open, summary);
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  const opened = await page.$eval(summary, (el) => ({
    top: el.getBoundingClientRect().top,
    legendBottom: el.parentElement.getBoundingClientRect().bottom,
    height: window.innerHeight,
  }));
  assert.ok(Math.abs(opened.top - before) <= 2, `the summary moved from ${before} px to ${JSON.stringify(opened)}`);
  assert.ok(opened.legendBottom <= opened.height, `the legend runs below the window: ${JSON.stringify(opened)}`);
  await page.click(summary);
  // At the page's end the dock beside them is whole too.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const dock = await page.$eval('[data-testid=dock]', (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: window.innerHeight };
  });
  assert.ok(dock.top >= -0.5 && dock.bottom <= dock.height + 0.5, `the dock: ${JSON.stringify(dock)}`);
  await t.screenshot('stage-teradata-consume-1280x720');
});

/** The lanes' window, [from, to] in ms, once it differs from `old` (or after 5 s). */
async function windowAfter(page, old) {
  await page
    .waitForFunction(
      ([f, to]) => {
        const el = document.querySelector('[data-testid=lanes]');
        return Number(el.dataset.fromMs) !== f || Number(el.dataset.toMs) !== to;
      },
      old,
      { timeout: 5000 },
    )
    .catch(() => {});
  return page.$eval('[data-testid=lanes]', (el) => [Number(el.dataset.fromMs), Number(el.dataset.toMs)]);
}

/** Two fingers on the lanes, `from` px apart around the track's middle, moved to `to` px apart. */
const pinch = (page, from, to) =>
  page.evaluate(
    ([from, to]) => {
      const body = document.querySelector('[data-testid=lanes] .lanes__body');
      const r = body.querySelector('.lane__track').getBoundingClientRect();
      const mid = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      const touches = (d) => [
        new Touch({ identifier: 1, target: body, clientX: mid - d / 2, clientY: y }),
        new Touch({ identifier: 2, target: body, clientX: mid + d / 2, clientY: y }),
      ];
      const send = (type, list) =>
        body.dispatchEvent(new TouchEvent(type, { touches: list, changedTouches: list, bubbles: true, cancelable: true }));
      send('touchstart', touches(from));
      send('touchmove', touches((from + to) / 2));
      send('touchmove', touches(to));
      send('touchend', []);
    },
    [from, to],
  );

test('stage: a two-finger pinch on the lanes zooms the window in and out about the fingers', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race');
  await settled(page, 'claim=two-step');
  const full = await page.$eval('[data-testid=lanes]', (el) => [Number(el.dataset.fromMs), Number(el.dataset.toMs)]);
  assert.equal(full[0], 0);
  // Fingers 100 px apart spread to 300 px: a third of the span, centred where they are.
  await pinch(page, 100, 300);
  const zoomed = await windowAfter(page, full);
  const ratio = (zoomed[1] - zoomed[0]) / full[1];
  assert.ok(Math.abs(ratio - 1 / 3) < 0.02, `pinch out: window ${zoomed} of ${full[1]} ms (ratio ${ratio.toFixed(3)})`);
  const centre = (zoomed[0] + zoomed[1]) / 2;
  assert.ok(Math.abs(centre - full[1] / 2) < full[1] * 0.02, `the pinch stays centred on the fingers: ${centre} ms`);
  // Pinching the fingers together again gives the whole run back.
  await pinch(page, 300, 100);
  const back = await windowAfter(page, zoomed);
  assert.ok(back[0] <= 1 && Math.abs(back[1] - full[1]) <= 1, `pinch in: ${back}`);
});

test('stage: two quick arrow keys on the whole-run strip pan twice', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race');
  await settled(page, 'claim=two-step');
  const end = Number(await page.getAttribute('[data-testid=lanes]', 'data-to-ms'));
  await page.click('[data-testid=zoom-in]');
  await page.click('[data-testid=zoom-in]');
  await page.waitForFunction((e) => Number(document.querySelector('[data-testid=lanes]').dataset.toMs) < e / 3, end);
  const before = await windowAfter(page, [-1, -1]);
  const span = before[1] - before[0];
  assert.ok(before[0] >= 0 && span > 0, `zoomed: ${before}`);
  // Both presses reach the strip before the page renders again: each moves on from the
  // previous one (a quarter of the window each).
  await page.$eval('[data-testid=overview-strip]', (el) => {
    el.focus();
    for (let i = 0; i < 2; i++) el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, cancelable: true }));
  });
  const after = await windowAfter(page, before);
  const moved = after[0] - before[0];
  assert.ok(Math.abs(moved - span / 2) < span * 0.02, `two presses moved ${moved} ms of a ${span} ms window`);
});

test('stage: zooming into the first 50 ms of the claim race shows individual statements', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race');
  await settled(page, 'claim=two-step');
  const lanes = page.locator('[data-testid=lanes]');
  const end = Number(await lanes.getAttribute('data-to-ms'));
  assert.ok(end > 5000, `the run ends at ${end} ms`);
  assert.equal(await page.isDisabled('[data-testid=zoom-out]'), true);
  const statements = (lane) =>
    page.$$eval(`[data-testid=lane-${lane}] .seg[data-statement]`, (segs) =>
      segs.map((s) => ({ statement: s.dataset.statement, from: Number(s.dataset.fromMs), to: Number(s.dataset.toMs) })),
    );
  // The whole run: the first 50 ms are a few pixels of "many short steps".
  const before = (await statements('worker2')).filter((s) => s.from < 50);
  assert.ok(before.length <= 1, `whole run: ${JSON.stringify(before)}`);

  // The wheel over the lanes zooms in around the pointer, the − button back out.
  const track = await page.locator('[data-testid=lane-worker1] .lane__track').boundingBox();
  await page.mouse.move(track.x + track.width / 2, track.y + track.height / 2);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((e) => Number(document.querySelector('[data-testid=lanes]').dataset.toMs) < e, end);
  const zoomed = await lanes.evaluate((el) => [Number(el.dataset.fromMs), Number(el.dataset.toMs)]);
  assert.ok(zoomed[0] > 0 && zoomed[1] < end, `wheel zoom: ${zoomed}`);
  await page.click('[data-testid=zoom-out]');
  // Each change re-renders on the app's next tick: wait for it, then check the figures.
  const span = () => lanes.evaluate((el) => Number(el.dataset.toMs) - Number(el.dataset.fromMs));
  const spanChanged = (old) =>
    page
      .waitForFunction(
        (o) => {
          const el = document.querySelector('[data-testid=lanes]');
          return Number(el.dataset.toMs) - Number(el.dataset.fromMs) !== o;
        },
        old,
        { timeout: 5000 },
      )
      .catch(() => {});
  await spanChanged(zoomed[1] - zoomed[0]);
  const wider = await span();
  assert.ok(wider > zoomed[1] - zoomed[0], `zoom out: ${wider}`);
  // A trackpad pinch (a wheel with Ctrl) zooms too; the whole-run strip pans by keys.
  await page.mouse.move(track.x + track.width / 2, track.y + track.height / 2);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await spanChanged(wider);
  const pinched = await span();
  assert.ok(pinched < wider, `pinch: ${pinched} of ${wider}`);
  const from = Number(await lanes.getAttribute('data-from-ms'));
  await page.focus('[data-testid=overview-strip]');
  await page.keyboard.press('ArrowRight');
  await page
    .waitForFunction((f) => Number(document.querySelector('[data-testid=lanes]').dataset.fromMs) !== f, from, { timeout: 5000 })
    .catch(() => {});
  assert.ok(Number(await lanes.getAttribute('data-from-ms')) > from, 'the strip did not pan');
  await page.click('[data-testid=zoom-reset]');
  assert.equal(Number(await lanes.getAttribute('data-to-ms')), end);
  assert.equal(await page.isDisabled('[data-testid=zoom-reset]'), true);

  // A brush over the overview strip from 0 to 50 ms (a pixel there is about 16 ms).
  const strip = await page.locator('[data-testid=overview-strip]').boundingBox();
  const x = (ms) => strip.x + (strip.width * ms) / end;
  await page.mouse.move(strip.x + 0.05, strip.y + strip.height / 2);
  await page.mouse.down();
  await page.mouse.move(x(25), strip.y + strip.height / 2, { steps: 4 });
  await page.mouse.move(x(50), strip.y + strip.height / 2, { steps: 4 });
  await page.mouse.up();
  const window = await lanes.evaluate((el) => [Number(el.dataset.fromMs), Number(el.dataset.toMs)]);
  const px = end / strip.width;
  assert.ok(window[0] <= px + 1 && Math.abs(window[1] - 50) <= px + 1, `brushed window ${window}`);
  assert.match(await page.textContent('[data-testid=zoom-window]'), /ms/);

  // Now each statement is its own segment: the sleep, the UPDATE (a tenth of a millisecond and more), the INSERT…
  const after = await statements('worker2');
  const kinds = new Set(after.map((s) => s.statement.split(' ')[0]));
  assert.ok(after.length >= 3, `zoomed: ${JSON.stringify(after)}`);
  for (const k of ['WAITFOR', 'UPDATE']) assert.ok(kinds.has(k), `no ${k} segment in ${[...kinds]}`);
  const update = after.find((s) => s.statement.startsWith('UPDATE'));
  assert.ok(update.to - update.from > 0.1, `the UPDATE is drawn across ${update.to - update.from} ms`);
  // worker1's wait for worker2 is its own segment, with the holder named.
  assert.ok((await page.locator('[data-testid=lane-worker1] .seg[data-state=waiting][data-holders=worker2]').count()) > 0);

  // Stepping past the window turns the page; a click in the lanes seeks inside it.
  await page.keyboard.press('End');
  const turned = await lanes.evaluate((el) => [Number(el.dataset.fromMs), Number(el.dataset.toMs)]);
  assert.ok(turned[1] >= end - 0.01 && turned[1] - turned[0] < 60, `after End: ${turned}`);
});

test('stage: the slider steps one event per arrow key; the dock tabs work by keyboard', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip');
  await settled(page, 'readpast=on');
  await page.focus('[data-testid=scrub]');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal((await position(page)).events, 2);
  await page.keyboard.press('ArrowLeft');
  assert.equal((await position(page)).events, 1);

  // Tabs: a tablist with one tab in the tab order; arrows move between them and do
  // not step the player.
  assert.equal(await page.getAttribute('[data-testid=tab-lesson]', 'aria-selected'), 'true');
  assert.equal(await page.locator('[role=tablist] [role=tab][tabindex="0"]').count(), 1);
  await page.focus('[data-testid=tab-lesson]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('[data-testid=tab-tables]', 'aria-selected'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'tab-tables');
  assert.ok(await page.isVisible('[data-testid=tables]'));
  assert.ok(!(await page.isVisible('[data-testid=narrative]')));
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('[data-testid=tab-events]', 'aria-selected'), 'true');
  assert.ok(await page.isVisible('[data-testid=event-log]'));
  assert.equal((await position(page)).events, 1, 'the tab keys moved the playhead');
  const panel = await page.getAttribute('[data-testid=tab-events]', 'aria-controls');
  assert.equal(await page.getAttribute(`#${panel}`, 'role'), 'tabpanel');
  // The stage did not move: the lanes are where they were.
  const lanes = await page.locator('[data-testid=lanes]').boundingBox();
  await page.click('[data-testid=tab-outcome]');
  assert.deepEqual(await page.locator('[data-testid=lanes]').boundingBox(), lanes);
});

test('stage: the dock\'s tab is in the URL: a link opens it, a choice and a toggle keep it', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip?tab=tables');
  await settled(page, 'readpast=on');
  assert.equal(await page.getAttribute('[data-testid=tab-tables]', 'aria-selected'), 'true');
  assert.ok(await page.isVisible('[data-testid=tables]'));
  // A click writes the tab into the address; the lesson's tab, the default, leaves it.
  await page.click('[data-testid=tab-outcome]');
  await page.waitForFunction(() => location.hash.includes('tab=outcome'));
  await page.click('[data-testid=toggle-readpast-off]');
  await page.waitForFunction(() => location.hash.includes('readpast=off') && location.hash.includes('tab=outcome'));
  assert.equal(await page.getAttribute('[data-testid=tab-outcome]', 'aria-selected'), 'true');
  await page.reload();
  await page.waitForSelector('[data-testid=tab-outcome][aria-selected=true]');
  await page.click('[data-testid=tab-lesson]');
  await page.waitForFunction(() => !location.hash.includes('tab='));
  // A tab the dock does not have is named, and the lesson's text shows.
  await t.open('#/lesson/queue-wait-or-skip?tab=locks');
  await page.waitForSelector('[data-testid=url-warnings]');
  assert.match(await page.textContent('[data-testid=url-warnings]'), /tab=locks is not one of tab=lesson, tab=tables, tab=outcome or tab=events/);
  assert.equal(await page.getAttribute('[data-testid=tab-lesson]', 'aria-selected'), 'true');
});

test('stage: a quiet stretch plays compressed and says so, on the time\'s line', async (t) => {
  const { page } = t;
  const transport = () => page.$eval('[data-testid=transport]', (el) => Math.round(el.getBoundingClientRect().height));
  for (const [width, height] of [[1000, 640], [1024, 700], [1280, 720], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.goto('about:blank');
    await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000');
    await settled(page, 'readpast=off');
    // B waits 2.5 s for A: no event happens between 1500.021 and 4000.173 ms.
    assert.match(await page.textContent('[data-testid=idle]'), /quiet for 2\.5 s/);
    const quiet = await transport();
    // The note shares the time's line: the transport, and so the lanes, keep their place.
    const lines = await page.$eval('[data-testid=idle]', (el) => [
      Math.round(el.getBoundingClientRect().top),
      Math.round(document.querySelector('[data-testid=position]').getBoundingClientRect().top),
    ]);
    assert.ok(Math.abs(lines[0] - lines[1]) <= 4, `${width}×${height}: the note is not on the time's line: ${lines}`);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.$('[data-testid=idle]'), null);
    assert.equal(await transport(), quiet, `${width}×${height}: the transport changed height`);
  }
});

test('stage: another seed and a different interleaving without editing the URL', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race');
  await settled(page, 'claim=two-step');
  const seed = Number(await page.getAttribute('[data-testid=seed]', 'data-seed'));
  await page.click('[data-testid=seed-next]');
  await page.waitForFunction((s) => document.querySelector('[data-testid=seed]')?.dataset.seed === String(s + 1), seed);
  await settled(page, 'claim=two-step');
  assert.match(page.url(), new RegExp(`[?&]seed=${seed + 1}(&|$)`));
  await page.click('[data-testid=seed-random]');
  await page.waitForFunction((s) => document.querySelector('[data-testid=seed]')?.dataset.seed !== String(s + 1), seed);
  await settled(page, 'claim=two-step');
  const random = Number(await page.getAttribute('[data-testid=seed]', 'data-seed'));
  assert.ok(random !== seed + 1 && page.url().includes(`seed=${random}`));
  await page.fill('[data-testid=seed-input]', '42');
  await page.press('[data-testid=seed-input]', 'Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid=seed]')?.dataset.seed === '42');
  await page.click('[data-testid=seed-reset]');
  await page.waitForFunction((s) => document.querySelector('[data-testid=seed]')?.dataset.seed === String(s), seed);
  assert.ok(!page.url().includes('seed='), page.url());
});

test('stage: big tables filter by id, session and locks now', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-claim-race');
  await settled(page, 'claim=two-step');
  await page.keyboard.press('End');
  await page.click('[data-testid=tab-tables]');
  const keys = (table) => page.$$eval(`[data-testid=table-${table}] tbody tr[data-key]`, (rows) => rows.map((r) => r.dataset.key));
  await page.fill('[data-testid=table-search]', '117');
  await page.waitForFunction(() => document.querySelector('[data-testid=table-task]')?.dataset.matches !== undefined);
  const found = await keys('task');
  assert.ok(found.includes('117') && found.length < 20, `task rows: ${found}`);
  assert.match(await page.textContent('[data-testid=table-task] .table__count'), /of 500 rows match/);
  await page.fill('[data-testid=table-search]', '');
  await page.selectOption('[data-testid=table-session]', 'worker1');
  const processes = await page.$$eval('[data-testid=table-claim] tbody tr[data-key]', (rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent.trim())),
  );
  assert.ok(processes.length > 10, `${processes.length} claim rows of worker1`);
  assert.ok(processes.every((cells) => cells.includes('worker1') && !cells.includes('worker2')), JSON.stringify(processes.slice(0, 3)));
  // Rows locked now: none at the end of the run; some in the middle of an UPDATE.
  await page.selectOption('[data-testid=table-session]', '');
  await page.check('[data-testid=table-locked]');
  assert.equal((await keys('task')).length, 0);
  await page.click('[data-testid=table-filter-clear]');
  assert.equal(await page.$('[data-testid=table-task][data-matches]'), null);
});

test('stage: the wait-for graph shows every name whole, however many sessions', async (t) => {
  const { page } = t;
  for (const id of ['teradata-consume', 'teradata-rules', 'queue-claim-race']) {
    await t.open(`#/lesson/${id}`);
    await page.waitForSelector('[data-testid=wait-graph]');
    const cut = await page.$eval('[data-testid=wait-graph]', (svg) => {
      const frame = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('.node')].flatMap((node) => {
        const r = node.getBoundingClientRect();
        const inside = r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5 && r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5;
        return inside ? [] : [node.textContent];
      });
    });
    const nodes = await page.locator('[data-testid=wait-graph] .node').count();
    assert.ok(nodes >= 2, `${id}: ${nodes} nodes`);
    assert.deepEqual(cut, [], `${id}: names cut off`);
    await page.goto('about:blank');
  }
});

test('stage: on a 1920×1080 window two sessions share the panel and a three-line statement shows whole', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1920, height: 1080 });
  // A's claim: UPDATE ... WHERE id = (SELECT ...) RETURNING ..., three lines.
  await t.open('#/lesson/pg-isolation?isolation=repeatable-read&t=0.033&e=7');
  await settled(page, 'isolation=repeatable-read');
  const seen = await page.evaluate(() => {
    const panel = document.querySelector('[data-testid=stage] .code-panel--now .sessions').getBoundingClientRect();
    const card = document.querySelector('[data-testid=session-A]').getBoundingClientRect();
    const code = document.querySelector('[data-testid=current-A] .code');
    return { panel: panel.width, card: card.width, height: code.clientHeight, content: code.scrollHeight };
  });
  assert.ok(seen.card >= 0.45 * seen.panel, `A's card is ${seen.card} px of ${seen.panel}: an empty column beside B`);
  assert.ok(seen.height >= seen.content - 1, `A's statement is cut: ${JSON.stringify(seen)}`);
});

// Beside the Why panel at 1280×800 each card is about 210 px wide: a MERGE's first line
// was cut at "MERGE dbo.send WI" behind a sideways scroll. Long lines now wrap.
test('stage: at 1280×800 beside the Why panel a session\'s statement wraps instead of scrolling sideways', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/send-merge-upsert?holdlock=on&e=14&why=1');
  await settled(page, 'holdlock=on');
  await page.waitForSelector('[data-testid=why]');
  const code = await page.$eval('[data-testid=current-user1] .code', (el) => ({
    sideways: el.scrollWidth - el.clientWidth,
    width: el.clientWidth,
    text: el.textContent,
  }));
  assert.ok(code.width < 260, `the card is wider than the case this covers: ${JSON.stringify(code)}`);
  assert.match(code.text, /MERGE dbo\.send WITH \(HOLDLOCK\) AS t/);
  assert.ok(code.sideways <= 1, `the statement scrolls sideways by ${code.sideways} px`);
});

// SQL Server lists a key-range lock's mode as RangeS-U, not U: the Why panel said "U is
// not compatible with U" of a MERGE's HOLDLOCK wait, where a DBA reads RangeS-U against
// RangeS-U, and its matrix had no row for a range.
test('stage: a wait on a key range names SQL Server\'s range modes in the Why panel and the lock list', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/send-merge-upsert?holdlock=on&e=14&why=1');
  await settled(page, 'holdlock=on');
  await page.waitForSelector('[data-testid=why]');
  const why = await page.textContent('[data-testid=why]');
  assert.match(why, /user2 asks for RangeS-U on send end of index/);
  assert.match(why, /RangeS-U is not compatible with RangeS-U/);
  const heads = await page.$$eval('[data-testid=why-matrix] thead th', (ths) => ths.map((th) => th.textContent.trim()));
  assert.deepEqual(heads.slice(1), ['RangeS-S', 'RangeS-U', 'RangeI-N']);
  const waits = await page.textContent('[data-testid=waits]');
  assert.match(waits, /KEY send \(end of index\)\s*user1 RangeS-U/);
  assert.doesNotMatch(waits, /user1 U\b/);
});

test('stage: on a 1024 px window the time line keeps the current time whole', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1024, height: 700 });
  await t.open('#/lesson/queue-claim-race?e=200');
  await settled(page, 'claim=two-step');
  const time = await page.$eval('[data-testid=stage] [data-testid=position]', (el) => ({
    now: el.querySelector('strong').getBoundingClientRect().right,
    right: el.getBoundingClientRect().right,
    text: el.textContent,
  }));
  assert.ok(time.now <= time.right + 0.5, `the current time is cut: ${JSON.stringify(time)}`);
  // The speed's select keeps its name without the word beside it.
  assert.equal(await page.getAttribute('[data-testid=speed]', 'aria-label'), 'Speed');
});

test('stage: inside an engine step, the lock and table panels say they show where it ends', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race?claim=two-step&e=37');
  await settled(page, 'claim=two-step');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.events === '37');
  // Event 37 (worker2 finishes its UPDATE) starts worker2's step at 20.288 ms: its
  // commit hands worker1 the lock it waits for, and worker2 inserts its claim, all in
  // one step (events 37–42), whose end the panels show.
  assert.match(await page.textContent('[data-testid=narration]'), /worker2 finishes UPDATE/);
  const note = page.locator('[data-testid=waits] [data-testid=instant-note]');
  assert.equal(
    await note.textContent(),
    'Shown as after event 42, where this step ends: events 37–42 happen together at 20.288 ms.',
  );
  await page.click('[data-testid=tab-tables]');
  assert.equal(await page.getAttribute('[data-testid=tables] [data-testid=instant-note]', 'data-through'), '42');
  await page.evaluate(() => document.activeElement.blur());
  // At the step's last event the panels and the log agree: no note.
  for (let i = 38; i <= 42; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((k) => document.querySelector('[data-testid=position]').dataset.events === String(k), i);
  }
  assert.match(await page.textContent('[data-testid=narration]'), /worker2 inserts claim \(1\)/);
  assert.equal(await page.locator('[data-testid=instant-note]').count(), 0);
});

// Screen-reader text is absolutely positioned: inside a scroller that is not its
// containing block it stretched the page past the viewport (an empty strip under the
// lesson page after answering a question; a phone's matrix page 1 380 px wide).
test('stage: the page never scrolls past its scrollers, on a lesson or a phone\'s matrix', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-wait-or-skip');
  await page.waitForSelector('[data-testid=predict][data-question=b-wait-readpast-on]');
  await page.click('[data-testid=toggle-readpast-off]');
  await page.waitForSelector('[data-testid=predict][data-question=b-wait-readpast-off]');
  await page.click('[data-testid=predict-choice][data-index="1"]');
  await page.waitForSelector('[data-testid=predict-verdict] [data-testid=predict-result]');
  await page.waitForSelector('[data-testid=transport]');
  const size = () => page.evaluate(() => ({
    height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth,
    viewHeight: innerHeight, viewWidth: document.documentElement.clientWidth,
  }));
  const lesson = await size();
  assert.equal(lesson.height, lesson.viewHeight, `the lesson page scrolls: ${JSON.stringify(lesson)}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await t.open('#/lesson/queue-wait-or-skip/matrix');
  await page.waitForSelector('[data-testid=matrix-table]');
  const matrix = await size();
  assert.equal(matrix.width, matrix.viewWidth, `the matrix page is wider than the phone: ${JSON.stringify(matrix)}`);
}, { predict: true });

test('stage: every toggle\'s buttons are one height, with help text under them or not', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race');
  await page.waitForSelector('[data-testid=transport]');
  const heights = await page.$$eval('.toggle__value', (bs) => bs.map((b) => Math.round(b.getBoundingClientRect().height)));
  assert.ok(heights.length > 6, `${heights}`);
  assert.equal(Math.max(...heights) - Math.min(...heights), 0, `button heights ${heights}`);
});

test('stage: an anomaly\'s diamond on a segment\'s start leaves its label\'s first letter clear', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 800 });
  await t.open('#/lesson/queue-claim-race?claim=two-step&tasks=3&e=40');
  await settled(page, 'tasks=3');
  const overlaps = await page.evaluate(() => {
    const found = [];
    let checked = 0;
    for (const mark of document.querySelectorAll('[data-testid=lanes] .anomaly-mark')) {
      const m = mark.getBoundingClientRect();
      // A labelled segment that starts under the diamond (after the instant's short
      // statements).
      for (const label of mark.closest('.lane__track').querySelectorAll('.seg__label')) {
        const seg = label.parentElement.getBoundingClientRect();
        if (seg.left < m.left || seg.left > m.right || !label.textContent) continue;
        const range = document.createRange();
        range.selectNodeContents(label);
        const text = range.getClientRects()[0];
        checked += 1;
        if (m.right > text.left) found.push(`${label.textContent}: diamond to ${m.right.toFixed(1)}, text from ${text.left.toFixed(1)}`);
      }
    }
    return { checked, found };
  });
  assert.ok(overlaps.checked >= 2, `only ${overlaps.checked} labels start at a diamond`);
  assert.deepEqual(overlaps.found, []);
});
