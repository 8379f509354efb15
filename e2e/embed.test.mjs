// Widgets for blogs: the example post embeds two lessons that render inside their
// iframes and are fitted by embed.js; a widget plays; the full player's "copy embed
// code" gives an <iframe> that, pasted into another page, shows the same state; the
// widget follows the host's colour scheme or its theme= parameter; a compact widget
// marks, jumps to and explains anomalies. Real clicks, real
// DOM reads (inside the frames).

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { test, assert } from './harness.mjs';
import { settled, position, atEvents } from './settle.mjs';
import { serveStatic } from './server.mjs';

const SHOTS = join(dirname(dirname(fileURLToPath(import.meta.url))), 'target', 'e2e');

/** The frame of the iframe matching `selector`, once its document has loaded. */
async function frameOf(page, selector) {
  const handle = await page.waitForSelector(selector);
  const frame = await handle.contentFrame();
  assert.ok(frame, `no frame for ${selector}`);
  return frame;
}

/** Heights of an iframe: its attribute, its box, and its content's height inside. */
async function heights(page, selector) {
  const frame = await frameOf(page, selector);
  const box = await page.$eval(selector, (el) => ({
    attr: Number(el.getAttribute('height')),
    shown: el.getBoundingClientRect().height,
    resized: el.dataset.lockstepResized === 'true',
  }));
  const content = await frame.$eval('[data-testid=embed]', (el) => Math.ceil(el.getBoundingClientRect().bottom + scrollY));
  return { ...box, content };
}

/** Waits until embed.js has fitted the iframe to its content (±2 px, the border). */
async function fitted(page, selector) {
  const deadline = Date.now() + 10_000;
  let h;
  while (Date.now() < deadline) {
    h = await heights(page, selector);
    if (h.resized && Math.abs(h.shown - h.content) <= 3) return h;
    await page.waitForTimeout(100);
  }
  throw new Error(`${selector} not fitted: ${JSON.stringify(h)}`);
}

test('embed: the example post shows both widgets in their iframes, fitted by embed.js, and one plays', async (t) => {
  const { page } = t;
  await page.goto(t.url('embed-example.html'), { waitUntil: 'load' });
  assert.match(await page.title(), /Two workers, one queue/);
  assert.equal(await page.locator('iframe.lockstep').count(), 2);

  // Both widgets rendered their lesson, without the site's header.
  const readpast = await frameOf(page, '#widget-readpast');
  const applock = await frameOf(page, '#widget-applock');
  await settled(readpast, 'readpast=off');
  await settled(applock, 'guard=applock');
  for (const [frame, id] of [
    [readpast, 'queue-wait-or-skip'],
    [applock, 'send-double-click'],
  ]) {
    assert.equal(await frame.$eval('[data-testid=embed]', (el) => el.dataset.lesson), id);
    assert.equal(await frame.$('.site-header'), null, `${id}: the site header is shown`);
    assert.ok((await frame.locator('[data-testid=lane-A], [data-testid=lane-user1]').count()) >= 1, `${id}: no lanes`);
  }

  // embed.js fitted each iframe to its content: no longer the height attribute.
  for (const sel of ['#widget-readpast', '#widget-applock']) {
    const h = await fitted(page, sel);
    assert.notEqual(Math.round(h.shown), h.attr, `${sel} kept its height attribute: ${JSON.stringify(h)}`);
    console.log(`     ${sel}: height attribute ${h.attr} px → ${Math.round(h.shown)} px (content ${h.content} px)`);
  }
  // Inside a 680 px column nothing spills sideways.
  for (const frame of [readpast, applock]) {
    const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px in ${frame.url()}`);
  }

  // Play the READPAST widget to the end at the highest speed and read its outcome.
  await readpast.selectOption('[data-testid=speed]', { index: (await readpast.$$('[data-testid=speed] option')).length - 1 });
  await readpast.click('[data-testid=play]');
  // Playing stops at the end, where the End button is disabled (aria-disabled, so a
  // keyboard user who pressed it keeps the focus).
  await readpast.waitForFunction(
    () =>
      document.querySelector('[data-testid=play]').dataset.playing === 'false' &&
      document.querySelector('[data-testid=end]').getAttribute('aria-disabled') === 'true',
    null,
    { timeout: 20_000 },
  );
  const end = await position(readpast);
  assert.ok(end.t >= 4000, `the play stopped at ${end.t} ms`);
  const wait = Number(await readpast.$eval('[data-testid=outcome-B]', (el) => el.dataset.waitMs));
  assert.ok(wait >= 2450 && wait <= 2550, `B waited ${wait} ms`);
  assert.match(await readpast.textContent('[data-testid=wait-B]'), /2,5\d\d/);

  // A toggle in the widget re-simulates there; its URL stays an embed URL.
  await readpast.click('[data-testid=toggle-readpast-on]');
  await settled(readpast, 'readpast=on');
  const after = Number(await readpast.$eval('[data-testid=outcome-B]', (el) => el.dataset.waitMs));
  assert.ok(after <= 1, `with READPAST B waited ${after} ms`);
  await readpast.waitForFunction(() => location.hash.startsWith('#/embed/queue-wait-or-skip') && !location.hash.includes('readpast=off'));
  await fitted(page, '#widget-readpast');

  await page.screenshot({ path: join(SHOTS, 'embed-example-light.png'), fullPage: true });
  await page.locator('#widget-readpast').screenshot({ path: join(SHOTS, 'embed-widget-readpast-light.png') });
  await page.locator('#widget-applock').screenshot({ path: join(SHOTS, 'embed-widget-applock-light.png') });
});

test(
  'embed: the example post in the dark, and on a phone',
  async (t) => {
    const { page } = t;
    await page.goto(t.url('embed-example.html'), { waitUntil: 'load' });
    const readpast = await frameOf(page, '#widget-readpast');
    await settled(readpast, 'readpast=off');
    // The widget follows the reader's (and so the host page's) dark preference.
    assert.equal(await readpast.evaluate(() => document.documentElement.dataset.theme), 'dark');
    await settled(await frameOf(page, '#widget-applock'), 'guard=applock');
    await fitted(page, '#widget-readpast');
    await fitted(page, '#widget-applock');
    await page.screenshot({ path: join(SHOTS, 'embed-example-dark.png'), fullPage: true });
    await page.locator('#widget-applock').screenshot({ path: join(SHOTS, 'embed-widget-applock-dark.png') });

    await page.setViewportSize({ width: 390, height: 844 });
    await fitted(page, '#widget-readpast');
    const overflow = await readpast.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `horizontal overflow of ${overflow} px on a phone`);
    await page.locator('#widget-readpast').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'embed-example-phone-dark.png') });
  },
  { colorScheme: 'dark' },
);

test(
  'embed: theme= wins over the system, view=full shows every panel, and a bad parameter is explained',
  async (t) => {
    const { page } = t;
    await t.open('#/embed/queue-wait-or-skip?theme=light&view=full');
    await settled(page, 'readpast=on');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
    assert.equal(await page.$eval('[data-testid=embed]', (el) => el.dataset.view), 'full');
    assert.ok(await page.$('[data-testid=transport]'));
    assert.ok(await page.$('[data-testid=event-log]'), 'no event log in view=full');
    assert.equal(await page.$('.site-header'), null);

    await t.open('#/embed/queue-wait-or-skip?view=huge');
    await settled(page, 'readpast=on');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.match(await page.textContent('[data-testid=url-warnings]'), /view=huge/);
    assert.equal(await page.$eval('[data-testid=embed]', (el) => el.dataset.view), 'compact');
  },
  { colorScheme: 'dark' },
);

test('embed: without embed.js the iframe keeps its height and still works', async (t) => {
  const { page } = t;
  const host = t.url('no-script.html');
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>No script</title><iframe src="./#/embed/queue-wait-or-skip?readpast=off" width="600" height="400"></iframe>',
    }),
  );
  await page.goto(host);
  const frame = await frameOf(page, 'iframe');
  await settled(frame, 'readpast=off');
  assert.equal(await page.$eval('iframe', (el) => el.clientHeight), 400);
  await frame.click('[data-testid=step-forward]');
  assert.equal((await position(frame)).events, 1);
});

test('embed: a replayed schedule is said so, with the way back to the seeded run in the widget', async (t) => {
  const { page } = t;
  await t.open('#/embed/queue-claim-race?tasks=3&schedule=u.0~6.1~8.0~2');
  const note = page.locator('[data-testid=schedule-note]');
  await note.waitFor();
  assert.equal(await note.getAttribute('data-schedule'), 'u.0~6.1~8.0~2');
  assert.match(await note.textContent(), /^This run replays the schedule u\.0~6\.1~8\.0~2 untimed/);
  assert.match(await note.locator('a').getAttribute('href'), /^#\/embed\/queue-claim-race\?tasks=3(&t=[\d.]+)?$/);
});

// The compare embed is documented as resized by embed.js, as the lesson's is, and
// links to the full page in a new tab.
test('embed: a compare widget is fitted by embed.js and opens the full compare page', async (t) => {
  const { page } = t;
  const frame = await hostPage(t, 'compare-post.html', '/embed/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off', 680);
  await frame.waitForSelector('[data-testid=compare-outcomes]', { timeout: 30_000 });
  const deadline = Date.now() + 10_000;
  let h;
  while (Date.now() < deadline) {
    h = await page.$eval('iframe', (el) => ({ shown: el.getBoundingClientRect().height, resized: el.dataset.lockstepResized === 'true' }));
    h.content = await frame.$eval('[data-testid=compare]', (el) => Math.ceil(el.getBoundingClientRect().bottom + scrollY));
    if (h.resized && Math.abs(h.shown - h.content) <= 6) break;
    await page.waitForTimeout(100);
  }
  assert.ok(h.resized && Math.abs(h.shown - h.content) <= 6, `not fitted: ${JSON.stringify(h)}`);
  assert.ok(h.shown > 300, `${h.shown} px`);
  // Each side's outcome is the widget's compact one (the full panels made it 2 150 px
  // tall in this 680 px column); the right one says what differs from the left.
  assert.equal(await frame.locator('[data-testid=compare-outcomes] [data-testid=outcome-compact]').count(), 2);
  assert.match(
    await frame.textContent('[data-testid=compare-outcome-right] [data-testid=before-after-compact]'),
    /^Against the left: .*B waited 0 ms →\s+became 2,500\.\d{3} ms/,
  );
  assert.ok(h.shown <= 1300, `the widget is ${h.shown} px tall`);
  const open = await frame.$eval('[data-testid=embed-open]', (a) => ({ href: a.getAttribute('href'), target: a.target }));
  assert.deepEqual(open, { href: '#/lesson/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off', target: '_blank' });
  // The link opens the moment the widget shows, as its own address keeps it.
  await frame.click('[data-testid=compare-end]');
  await frame.waitForFunction(() => location.hash.includes('t='));
  const at = new URL(await frame.evaluate(() => location.href)).hash.match(/[?&]t=([\d.]+)/)[1];
  assert.match(await frame.getAttribute('[data-testid=embed-open]', 'href'), new RegExp(`[?&]t=${at.replace('.', '\\.')}(&|$)`));
});

test('embed: the copy-embed code, pasted into another page, restores toggles and playhead', async (t) => {
  const { page, context } = t;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.baseUrl).origin });
  await t.open('#/lesson/queue-wait-or-skip?readpast=off&t=2000');
  await settled(page, 'readpast=off');
  // Move the playhead by hand too: two steps forward from 2 000 ms.
  await page.click('[data-testid=step-forward]');
  await page.click('[data-testid=step-forward]');
  const here = await position(page);
  const url = page.url();

  await page.click('[data-testid=copy-embed-button]');
  await page.waitForSelector('[data-testid=embed-copied][data-copied=true]');
  const code = await page.inputValue('[data-testid=embed-code]');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code, 'the clipboard holds the code');
  assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/#\/embed\/queue-wait-or-skip\?readpast=off&amp;t=[\d.]+(&amp;e=\d+)?" /);
  assert.match(code, /title="Lockstep: [^"]+"/);
  assert.match(code, /height="\d+"/);
  // The second line loads embed.js from the app's own address, so the paste is complete.
  const [iframeLine, scriptLine, ...rest] = code.split('\n');
  assert.match(iframeLine, /^<iframe [^\n]*><\/iframe>$/);
  assert.equal(scriptLine, `<script src="${new URL('embed.js', t.baseUrl).href}" defer></script>`);
  assert.deepEqual(rest, []);
  assert.match(await page.textContent('[data-testid=embed-copied]'), /Copied/);
  await t.screenshot('copy-embed-open');
  console.log(`     embed code: ${code}`);

  // Paste it into somebody's post (another page on this server) with embed.js.
  const post = t.url('pasted-post.html');
  await page.route(post, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><title>Pasted</title><h1>My post</h1><p>Look:</p>\n${code}\n`,
    }),
  );
  await page.goto(post);
  const frame = await frameOf(page, 'iframe');
  await settled(frame, 'readpast=off');
  await frame.waitForFunction((n) => Number(document.querySelector('[data-testid=position]').dataset.events) === n, here.events);
  const there = await position(frame);
  assert.deepEqual(there, here, `the pasted widget shows ${JSON.stringify(there)}, the player showed ${JSON.stringify(here)} (${url})`);
  assert.equal(await frame.getAttribute('[data-testid=toggle-readpast-off]', 'aria-pressed'), 'true');
  await frame.waitForFunction(() => document.querySelector('[data-testid=lane-B] [data-state=waiting]'));
  // Only the pasted script can have fitted it.
  await page.waitForFunction(() => document.querySelector('iframe').dataset.lockstepResized === 'true');
});

/** Samples the host page's iframe heights (and each widget's playhead) every ~250 ms for `ms`. */
async function sampleWhilePlaying(page, frames, ms) {
  const samples = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const row = {};
    for (const [sel, frame] of frames) {
      // One round trip per frame: on a busy machine four of them cost the samples asked for.
      row[sel] = {
        height: await page.$eval(sel, (el) => el.getBoundingClientRect().height),
        ...(await frame.evaluate(() => ({
          content: document.querySelector('[data-testid=embed]').getBoundingClientRect().height,
          events: Number(document.querySelector('[data-testid=position]').dataset.events),
          playing: document.querySelector('[data-testid=play]').dataset.playing === 'true',
        }))),
      };
    }
    samples.push(row);
    await page.waitForTimeout(250);
  }
  return samples;
}

test('embed: a widget keeps its height during 10 s of playback, compact and full, on the example post', async (t) => {
  const { page } = t;
  await page.goto(t.url('embed-example.html'), { waitUntil: 'load' });
  const frames = [
    ['#widget-readpast', await frameOf(page, '#widget-readpast')],
    ['#widget-applock', await frameOf(page, '#widget-applock')],
  ];
  await settled(frames[0][1], 'readpast=off');
  await settled(frames[1][1], 'guard=applock');
  assert.equal(await frames[0][1].$eval('[data-testid=embed]', (el) => el.dataset.view), 'compact');
  assert.equal(await frames[1][1].$eval('[data-testid=embed]', (el) => el.dataset.view), 'full');
  for (const [sel] of frames) await fitted(page, sel);
  // The text under each widget stays where the reader is reading.
  const caption = () => page.$eval('#widget-applock + figcaption', (el) => el.getBoundingClientRect().top + scrollY);
  const captionBefore = await caption();

  // Play both at 1× from the start: the READPAST lesson takes longer than 10 s at 1×.
  for (const [, frame] of frames) {
    assert.equal(await frame.$eval('[data-testid=speed]', (el) => el.selectedOptions[0].textContent), '1×');
    await frame.click('[data-testid=play]');
  }
  const samples = await sampleWhilePlaying(page, frames, 10_000);
  assert.ok(samples.length >= 20, `${samples.length} samples`);
  for (const [sel] of frames) {
    const heights = [...new Set(samples.map((s) => s[sel].height))];
    const contents = [...new Set(samples.map((s) => s[sel].content))];
    const events = samples.map((s) => s[sel].events);
    console.log(`     ${sel}: iframe heights ${heights.join(', ')} px; content ${contents.join(', ')} px; events ${events[0]} → ${events.at(-1)} over ${samples.length} samples`);
    assert.equal(heights.length, 1, `${sel}: the iframe's height changed while playing: ${heights}`);
    assert.ok(events.at(-1) > events[0] + 5, `${sel}: the widget did not play (${events[0]} → ${events.at(-1)})`);
    // Nothing inside moved either (the content, not only the frame, is still).
    assert.equal(contents.length, 1, `${sel}: the content's height changed while playing: ${contents}`);
  }
  assert.ok(samples.filter((s) => s['#widget-readpast'].playing).length >= samples.length - 1, 'the compact widget stopped early');
  assert.equal(await caption(), captionBefore, 'the text after the widgets moved');

  // A reader's own action may grow it, even while it plays: opening the outcome's details.
  const frame = frames[0][1];
  await frame.click('[data-testid=play]');
  await frame.click('[data-testid=home]');
  await frame.click('[data-testid=play]');
  await frame.click('[data-testid=outcome-more] > summary');
  const before = samples[0]['#widget-readpast'].height;
  await page.waitForFunction((h) => document.querySelector('#widget-readpast').getBoundingClientRect().height > h + 100, before);
  assert.equal(await frame.$eval('[data-testid=play]', (el) => el.dataset.playing), 'true', 'it grew only because it stopped');
});

/** A host page with one iframe of `width` px showing `hash`, sized by embed.js. */
test('embed: a mistyped lesson id says so in a widget\'s size, suggests the lesson it likely meant, and opens the list in a new tab', async (t) => {
  const { page } = t;
  const frame = await hostPage(t, 'typo-post.html', '/embed/queue-wait-or-skipp?readpast=off&view=full', 680);
  await frame.waitForSelector('[data-testid=lesson-problem]');
  assert.match(await frame.textContent('[data-testid=lesson-problem]'), /There is no lesson queue-wait-or-skipp\. Check the address/);
  const suggested = await frame.$$eval('[data-testid=embed-suggestion]', (links) => links.map((a) => a.getAttribute('href')));
  assert.deepEqual(suggested, ['#/embed/queue-wait-or-skip?readpast=off&view=full']);
  assert.equal(await frame.$$eval('[data-testid=lesson-problem] a', (links) => links.length), 2, 'not the list of every lesson');
  assert.equal(await frame.$eval('[data-testid=lesson-problem] a[target=_blank]', (a) => a.getAttribute('href')), '#/');
  // Fitted like a widget: the frame takes the message's height.
  await page.waitForFunction(() => document.querySelector('iframe').dataset.lockstepResized === 'true');
  const shown = await page.$eval('iframe', (el) => el.getBoundingClientRect().height);
  const content = await frame.$eval('[data-testid=lesson-problem]', (el) => Math.ceil(el.getBoundingClientRect().bottom + scrollY));
  assert.ok(Math.abs(shown - content) <= 6, `frame ${shown} px, content ${content} px`);
  // The suggestion opens the widget in the same frame.
  await frame.click('[data-testid=embed-suggestion]');
  await frame.waitForSelector('[data-testid=player]');
});

test('embed: an address without a lesson id is named in the widget, not as the site\'s missing page', async (t) => {
  const frame = await hostPage(t, 'no-id-post.html', '/embed/?view=full', 680);
  await frame.waitForSelector('[data-testid=lesson-problem]');
  assert.match(await frame.textContent('[data-testid=lesson-problem]'), /This widget names no lesson: its address should end in #\/embed\/ and a lesson's id/);
  assert.equal(await frame.locator('.not-found').count(), 0);
  assert.equal(await frame.$eval('[data-testid=lesson-problem] a[target=_blank]', (a) => a.getAttribute('href')), '#/');
});

test('embed: on a page of another site, a widget out of view is fitted before the reader scrolls to it', async (t) => {
  const { page } = t;
  // localhost and 127.0.0.1 are two sites: the browser draws no frame for the widget
  // while it is out of view, so no ResizeObserver reports its height.
  const dir = await mkdtemp(join(tmpdir(), 'lockstep-host-'));
  await writeFile(
    join(dir, 'post.html'),
    `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>Post</title><style>body { margin: 0 } iframe { display: block; border: 0 }</style>
    <div style="height: 3000px">A long post.</div>
    <iframe src="${t.url('#/embed/pg-queue-skip-locked?view=full')}" width="680" height="300"></iframe>
    <p id="after">After the widget.</p><script src="${t.url('embed.js')}"></script>`,
  );
  const host = await serveStatic(dir);
  try {
    await page.goto(host.url.replace('127.0.0.1', 'localhost') + 'post.html');
    const frame = await frameOf(page, 'iframe');
    await frame.waitForSelector('[data-testid=player][data-pending=false]', { timeout: 30_000 });
    // Still out of view, and fitted to the whole widget.
    await page.waitForFunction(() => document.querySelector('iframe').getBoundingClientRect().height > 1000, null, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => scrollY), 0);
    const shown = await page.$eval('iframe', (el) => el.getBoundingClientRect().height);
    const content = await frame.$eval('.page', (el) => Math.ceil(el.getBoundingClientRect().bottom + scrollY));
    assert.ok(Math.abs(shown - content) <= 6, `frame ${shown} px, widget ${content} px`);
  } finally {
    await host.close();
  }
});

async function hostPage(t, name, hash, width) {
  const { page } = t;
  const host = t.url(name);
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><meta charset="utf-8"><meta name="color-scheme" content="light dark"><title>Host</title>
        <style>body { margin: 0; padding: 8px; } iframe { display: block; border: 0; }</style>
        <iframe src="./#${hash}" width="${width}" height="300"></iframe><script src="./embed.js"></script>`,
    }),
  );
  await page.goto(host);
  return frameOf(page, 'iframe');
}

test('embed: a compact widget marks anomalies, jumps to them and explains them; opened on the reader\'s click, the why keeps its height while playing', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 760, height: 1000 });
  const frame = await hostPage(t, 'host-why.html', '/embed/send-failure?fail=after-call', 720);
  await settled(frame, 'fail=after-call');
  const closed = await fitted(page, 'iframe');
  assert.ok(closed.shown <= 480, `compact: ${closed.shown} px`);
  assert.equal(await frame.locator('[data-testid=anomaly]').count(), 1);
  assert.equal(await frame.isDisabled('[data-testid=prev-anomaly]'), true);
  await frame.click('[data-testid=next-anomaly]');
  await atEvents(frame, 20);
  assert.equal(await frame.$('[data-testid=why]'), null, 'closed until asked');
  await frame.click('[data-testid=why-toggle]');
  assert.match(await frame.textContent('[data-testid=why]'), /clerk called external_system 1000 \(OrderId 1000\)/);
  // The reader opened it: the widget may grow, once.
  await page.waitForFunction((h) => document.querySelector('iframe').getBoundingClientRect().height > h, closed.shown);
  const open = await fitted(page, 'iframe');
  await page.locator('iframe').screenshot({ path: join(SHOTS, 'embed-why-unmatched-light.png') });
  // Playing on with the panel open moves nothing on the host page.
  await frame.click('[data-testid=home]');
  await frame.click('[data-testid=play]');
  const seen = new Set();
  for (let i = 0; i < 12; i++) {
    await page.waitForTimeout(250);
    seen.add(Math.round((await heights(page, 'iframe')).shown));
  }
  assert.deepEqual([...seen], [Math.round(open.shown)], 'iframe heights while playing');
  assert.ok((await position(frame)).events > 0, 'it played');
});

async function compactHeights(t, theme) {
  const { page } = t;
  await page.setViewportSize({ width: 760, height: 900 });
  await t.open('#/');
  const ids = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((i) => i.dataset.lesson));
  assert.ok(ids.length >= 15, `${ids.length} lessons`);
  const heights = {};
  for (const id of ids) {
    const frame = await hostPage(t, `host-${id}.html`, `/embed/${id}`, 720);
    await frame.waitForSelector('[data-testid=transport], [data-testid=run-error]', { timeout: 20_000 });
    await settled(frame);
    const h = await fitted(page, 'iframe');
    heights[id] = Math.round(h.shown);
    // Compact: toggles, transport, lanes and the outcome line; not code, tables or the log.
    for (const part of ['lanes', 'transport', 'outcome-compact']) {
      assert.ok(await frame.$(`[data-testid=${part}]`), `${id}: no ${part}`);
    }
    for (const part of ['code', 'tables', 'waits', 'event-log']) {
      assert.equal(await frame.$(`[data-testid=${part}]`), null, `${id}: ${part} in the compact view`);
    }
    const overflow = await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `${id}: horizontal overflow of ${overflow} px`);
    // Every toggle's label is whole: the post tells its readers which one to flip.
    const cut = await frame.$$eval('.toggle__label', (labels) =>
      labels.filter((l) => l.scrollWidth > l.clientWidth + 1 || l.scrollHeight > l.clientHeight + 1).map((l) => l.textContent),
    );
    assert.deepEqual(cut, [], `${id}: toggle labels cut short`);
    if (id === 'queue-wait-or-skip') {
      await frame.click('[data-testid=step-forward]');
      await page.locator('iframe').screenshot({ path: join(SHOTS, `embed-compact-${theme}.png`) });
    }
  }
  console.log(`     compact heights at 720 px (${theme}): ${Object.entries(heights).map(([id, h]) => `${id} ${h}`).join(', ')}`);
  for (const [id, h] of Object.entries(heights)) assert.ok(h <= 480, `${id}: the compact embed is ${h} px tall at 720 px wide`);
}

// Every lesson in turn: on a busy machine that takes longer than one page's default.
test('embed: view=compact is at most 480 px tall at 720 px wide, for every lesson (light)', (t) => compactHeights(t, 'light'), {
  timeoutMs: 120_000,
});
test('embed: view=compact is at most 480 px tall at 720 px wide, for every lesson (dark)', (t) => compactHeights(t, 'dark'), {
  colorScheme: 'dark',
  timeoutMs: 120_000,
});

test('embed: the narration keeps a fixed height (two lines in view=full, one in compact) and has all of it in its title', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 390, height: 700 });
  const at = () =>
    page.$eval('[data-testid=narration]', (el) => {
      const style = getComputedStyle(el);
      // What overflow shows is the padding box (clientHeight): the lines and any padding,
      // where the next line would peek out.
      return { text: el.textContent.trim(), title: el.title, height: el.getBoundingClientRect().height, lines: el.clientHeight / parseFloat(style.lineHeight) };
    });
  for (const [view, lines] of [['full', 2], ['compact', 1]]) {
    await t.open(`#/embed/queue-wait-or-skip?readpast=off&e=14&view=${view}`);
    await settled(page, 'readpast=off');
    await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.events === '14');
    const long = await at();
    // The update with its three changed columns: longer than two lines at this width.
    assert.match(long.title, /A updates task \(1\): status 'new' -> 'in_progress', owner NULL -> 'A', taken NULL -> /);
    assert.equal(long.title, long.text);
    // Whole lines: no strip of the next one shows under the last.
    assert.ok(Math.abs(long.lines - lines) < 0.1, `${view}: ${long.lines} lines`);
    // A tap shows the rest over the lanes below, and nothing below moves.
    const lanesTop = () => page.$eval('.lanes', (el) => el.getBoundingClientRect().top);
    const before = await lanesTop();
    await page.click('[data-testid=narration]');
    const open = await page.$eval('[data-testid=narration]', (el) => ({
      focused: document.activeElement === el,
      whole: el.scrollHeight <= el.clientHeight + 1,
      height: el.getBoundingClientRect().height,
    }));
    assert.ok(open.focused && open.whole, `${view}: ${JSON.stringify(open)}`);
    assert.ok(open.height > long.height + 10, `${view}: ${open.height} px open, ${long.height} px cut`);
    assert.equal(await lanesTop(), before, `${view}: the lanes stay where they were`);
    await page.click('[data-testid=home]');
    await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.events === '0');
    assert.equal((await at()).height, long.height, `${view}: a short line keeps the height`);
  }
});

test('embed: on a phone a compact widget shows three lanes and three sessions whole, with their names uncut', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 375, height: 700 });
  // Five sessions: consumer1, consumer2, producer, producer2, auditor.
  await t.open('#/embed/teradata-consume?view=compact');
  await settled(page);
  const seen = await page.evaluate(() => {
    const body = document.querySelector('.lanes__body').getBoundingClientRect();
    const lanes = [...document.querySelectorAll('.lanes__body .lane')].map((lane) => {
      const name = lane.querySelector('.lane__name');
      const box = lane.getBoundingClientRect();
      return { name: name.title, cut: name.scrollWidth > name.clientWidth, whole: box.top >= body.top - 1 && box.bottom <= body.bottom + 1 };
    });
    const list = document.querySelector('.outcome-compact__sessions').getBoundingClientRect();
    const sessions = [...document.querySelectorAll('.outcome-compact__session')].map((s) => {
      const box = s.getBoundingClientRect();
      return box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
    });
    return { lanes, sessions };
  });
  assert.deepEqual(seen.lanes.slice(0, 3).map((l) => [l.name, l.whole, l.cut]), [
    ['consumer1', true, false],
    ['consumer2', true, false],
    ['producer', true, false],
  ]);
  // The rest scroll inside the box (the last lane, with no name, is the time axis).
  const named = seen.lanes.filter((l) => l.name);
  assert.deepEqual(named.slice(3).map((l) => [l.name, l.whole]), [['producer2', false], ['auditor', false]]);
  assert.deepEqual(seen.sessions.slice(0, 3), [true, true, true]);
  // A toggle's label is whole (a phone has no hover for its title).
  const labels = await page.$$eval('.toggle__label', (ls) => ls.map((l) => [l.textContent.trim(), l.scrollWidth > l.clientWidth]));
  assert.ok(labels.length === 3 && labels.every(([, cut]) => !cut), JSON.stringify(labels));
  // A consume's wait for a row is said: consumer2 was delayed until the producer's row.
  assert.match(await page.textContent('[data-testid=outcome-line-consumer2]'), /waited 0 ms · 0 rows · 0 errors · delayed [\d,.]+ ms/);
});

// The compact lanes box holds two sessions and the axis whole: it was 11 px short, so
// every two-session widget scrolled and the sticky axis hid the second lane's foot (an
// error mark ending the run with it). With more sessions the head says how many.
test('embed: a compact widget shows two lanes whole without scrolling, and says when there are more', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 680, height: 800 });
  const box = () =>
    page.evaluate(() => {
      const body = document.querySelector('.lanes__body');
      const axis = body.querySelector('.lane--axis').getBoundingClientRect();
      const lanes = [...body.querySelectorAll('.lane:not(.lane--axis)')].map((l) => l.getBoundingClientRect());
      const more = document.querySelector('[data-testid=lanes-more]');
      return {
        scrolls: body.scrollHeight - body.clientHeight,
        firstTwoClear: lanes.slice(0, 2).every((l) => l.bottom <= axis.top + 0.5),
        more: more && getComputedStyle(more).display !== 'none' ? more.textContent : null,
      };
    });
  await t.open('#/embed/queue-isolation?isolation=snapshot&readpast=on');
  await settled(page, 'isolation=snapshot');
  const two = await box();
  assert.deepEqual(two, { scrolls: 0, firstTwoClear: true, more: null });
  // B's error 650 at the end of the run is whole above the axis.
  const mark = await page.evaluate(() => {
    const m = [...document.querySelectorAll('.lanes__body .mark--error')].pop().getBoundingClientRect();
    const axis = document.querySelector('.lanes__body .lane--axis').getBoundingClientRect();
    return m.bottom <= axis.top + 0.5;
  });
  assert.ok(mark, 'the last error mark runs under the time axis');
  await t.open('#/embed/teradata-consume?end=rollback');
  await settled(page, 'end=rollback');
  const five = await box();
  assert.ok(five.scrolls > 0 && five.firstTwoClear, JSON.stringify(five));
  assert.equal(five.more, '5 sessions ↓');
  // Focused, the scrolling lanes leave Space, Home and End to the player: End went to
  // the end of the box's lanes instead of the run's.
  await page.evaluate(() => document.querySelector('.lanes__body').focus());
  assert.ok(await page.evaluate(() => document.activeElement.classList.contains('lanes__body')));
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('[data-testid=end]')?.getAttribute('aria-disabled') === 'true');
  assert.equal(await page.evaluate(() => document.querySelector('.lanes__body').scrollTop), 0);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('[data-testid=position]')?.dataset.events === '0');
  // On a phone three lanes show whole, so three sessions need no word.
  await page.setViewportSize({ width: 360, height: 800 });
  await t.open('#/embed/send-double-click');
  await settled(page);
  const three = await box();
  assert.deepEqual([three.scrolls, three.more], [0, null]);
  // user2 starts at 1,000 ms of 10 s: too narrow a stretch for even "1,000 ms", which
  // showed as "1,…". It shows nothing there, and its title says when.
  const idle = await page.$$eval('.lanes__body .seg--idle', (segs) =>
    segs.map((seg) => {
      const shown = [...seg.querySelectorAll('.seg__long, .seg__short')].filter((el) => getComputedStyle(el).display !== 'none');
      const label = seg.querySelector('.seg__label');
      return { title: seg.title, shown: shown.map((el) => el.textContent), cut: label.scrollWidth > label.clientWidth + 1 };
    }),
  );
  assert.ok(idle.length >= 1, 'user2 starts late');
  for (const seg of idle) {
    assert.match(seg.title, /^starts at [\d,.]+ ms$/);
    assert.ok(seg.shown.length === 0 || !seg.cut, JSON.stringify(seg));
  }
});

// A Polish line is longer than the English one: it wraps instead of scrolling sideways
// and hiding the next session's line under a scrollbar. Caught errors are counted, as
// the lanes mark them.
test('embed: compact outcome lines wrap in Polish and count caught errors', async (t) => {
  const { page } = t;
  // A 600 px column: the line alone is 613 px.
  await page.setViewportSize({ width: 600, height: 800 });
  await t.open('#/embed/teradata-consume?end=rollback&lang=pl');
  await settled(page, 'end=rollback');
  const list = await page.$eval('.outcome-compact__sessions', (el) => ({ sideways: el.scrollWidth - el.clientWidth }));
  assert.ok(list.sideways <= 0, `the outcome scrolls sideways by ${list.sideways} px`);
  await page.setViewportSize({ width: 680, height: 800 });
  await t.open('#/embed/send-failure?fail=after-call');
  await settled(page, 'fail=after-call');
  assert.match(await page.textContent('[data-testid=outcome-line-clerk]'), /0 errors \(\+2 caught\)/);
});

// A 680 px post column holds three session cards in a row: a long figure breaks before
// its unit instead of running into the figure beside it.
test('embed: outcome figures never overlap in a 682 px full widget', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 682, height: 900 });
  await t.open('#/embed/send-double-click?guard=applock&view=full');
  await settled(page, 'guard=applock');
  const overlaps = await page.$$eval('[data-testid=embed] .figures', (lists) =>
    lists.flatMap((dl) => {
      const boxes = [...dl.querySelectorAll('dd')].map((dd) => {
        const r = document.createRange();
        r.selectNodeContents(dd);
        const b = r.getBoundingClientRect();
        return { text: dd.textContent, left: b.left, right: b.right, top: b.top, bottom: b.bottom };
      });
      return boxes.flatMap((a, i) =>
        boxes.slice(i + 1).filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom).map((b) => `${a.text} / ${b.text}`),
      );
    }),
  );
  assert.ok((await page.locator('[data-testid=embed] .figures').count()) >= 3);
  assert.deepEqual(overlaps, []);
});

// On a phone the position wraps into a fixed two-line box rather than lose its end
// ("… · zdarzenie 59 …"), with the run's longest figures (at its end) too.
test('embed: on a phone the position line is whole, at the start and at the end of a run', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 360, height: 800 });
  await t.open('#/embed/queue-claim-race?lang=pl');
  await settled(page);
  const cut = () => page.$eval('[data-testid=embed] .transport__time', (e) => [e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1, e.getBoundingClientRect().height, e.textContent]);
  const [startCut, startHeight, startText] = await cut();
  assert.equal(startCut, false, startText);
  await page.focus('[data-testid=step-forward]');
  await page.keyboard.press('End');
  await page.waitForFunction((before) => document.querySelector('[data-testid=embed] .transport__time')?.textContent !== before, startText);
  const [endCut, endHeight, endText] = await cut();
  assert.equal(endCut, false, endText);
  assert.equal(endHeight, startHeight, 'the box keeps its height as the playhead moves');
});
