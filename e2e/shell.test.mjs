// The app shell: header, lesson list, theme switch, routes, and the panic panel.

import { test, assert } from './harness.mjs';

const THEME_KEY = 'lockstep.theme';
const PANIC_MESSAGE = 'deliberate panic from #/debug/panic';

const theme = (page) => page.evaluate(() => document.documentElement.dataset.theme);
const label = (page) => page.getAttribute('#theme-switch', 'aria-label');
const bodyColour = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('home: on a phone the header is the name and controls on a line, the tagline under them', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const lang of ['en', 'pl', 'ja']) {
    await t.open(`#/?lang=${lang}`);
    await page.waitForSelector('.site-header__tagline');
    const { header, tagline, name, controls } = await page.$eval('.site-header', (h) => {
      const box = (el) => el.getBoundingClientRect();
      return {
        header: box(h).height,
        tagline: box(h.querySelector('.site-header__tagline')).width,
        name: box(h.querySelector('.site-header__name')).top,
        controls: box(h.querySelector('.site-header__controls')).top,
      };
    });
    // Squeezed beside the controls the tagline took six lines, and the header 215 px.
    assert.ok(header <= 130, `${lang}: the header is ${header} px tall`);
    assert.ok(tagline >= 340, `${lang}: the tagline is ${tagline} px wide`);
    assert.ok(Math.abs(name - controls) < 12, `${lang}: name at ${name}, controls at ${controls}`);
  }
});

test('home: renders the header and the lesson list', async (t) => {
  const { page } = t;
  await t.open('#/');
  assert.equal(await page.title(), 'Lockstep');
  assert.equal((await page.textContent('header h1')).trim(), 'Lockstep');
  const tagline = await page.textContent('header .site-header__tagline');
  assert.ok(tagline.trim().length > 10, `tagline: ${tagline}`);

  // The "Covers" chips are explained once, above the list.
  assert.match(await page.textContent('[data-testid=covers-legend]'), /Q, a SQL Server job queue with READPAST; T, Teradata queue tables/);
  const list = await page.$('#lesson-list');
  assert.ok(list, 'no #lesson-list element');
  assert.equal(await list.evaluate((el) => el.tagName), 'UL');
  assert.equal(await page.textContent('#lessons-heading'), 'Lessons');
  const ids = await page.$$eval('[data-testid=lesson-item]', (items) => items.map((i) => i.dataset.lesson));
  for (const id of ['queue-wait-or-skip', 'queue-claim-race', 'queue-isolation', 'queue-priority']) {
    assert.ok(ids.includes(id), `${id} missing from the list: ${ids}`);
  }
  assert.equal(ids[0], 'queue-wait-or-skip', 'the lessons keep their published order');
  // PostgreSQL's group starts with its wait-or-skip lesson, as SQL Server's does.
  const pg = await page.$$eval('[data-testid=lesson-group][data-database=postgresql] [data-testid=lesson-item]', (items) => items.map((i) => i.dataset.lesson));
  assert.deepEqual(pg.slice(0, 2), ['pg-queue-skip-locked', 'pg-claim-race'], pg.join(', '));
  // A newcomer is told where to start, and meets each exercise after the lessons.
  assert.equal(await page.locator('[data-testid=start-here]').count(), 1);
  assert.match(await page.locator('[data-lesson="queue-wait-or-skip"] [data-testid=start-here]').textContent(), /Start here/);
  // Its text is legible on its fill, in both themes (WCAG AA for small text: 4.5:1).
  for (const theme of ['light', 'dark']) {
    await page.evaluate((th) => { document.documentElement.dataset.theme = th; }, theme);
    const ratio = await page.locator('[data-testid=start-here]').evaluate((el) => {
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => {
        const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      };
      const s = getComputedStyle(el);
      const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))].sort((x, y) => y - x);
      return (a + 0.05) / (b + 0.05);
    });
    assert.ok(ratio >= 4.5, `"Start here" contrast ${ratio.toFixed(2)}:1 in the ${theme} theme`);
  }
  await page.evaluate(() => { delete document.documentElement.dataset.theme; });
  const kinds = await page.$$eval('[data-testid=lesson-group][data-database=sqlserver] [data-testid=lesson-item]', (items) => items.map((i) => i.dataset.kind));
  assert.ok(kinds.lastIndexOf('lesson') < kinds.indexOf('exercise'), `exercises after lessons: ${kinds}`);
  // Each entry: title, summary and the scenario IDs it covers, linking to the player.
  const first = page.locator('[data-lesson="queue-wait-or-skip"]');
  assert.match(await first.locator('.lesson-list__title').textContent(), /READPAST/);
  assert.ok((await first.locator('.lesson-list__summary').textContent()).length > 20);
  assert.match(await first.locator('.lesson-list__covers').textContent(), /Q2/);
  assert.equal(await first.locator('a').getAttribute('href'), '#/lesson/queue-wait-or-skip');
  await t.screenshot('home-light');
});

test('home: loads with no console errors, page errors or failed requests', async (t) => {
  // The harness fails the test on any error it saw; networkidle gives late ones time.
  await t.page.goto(t.url(), { waitUntil: 'networkidle' });
  await t.page.waitForSelector('#lesson-list');
  assert.deepEqual(t.errors, []);
});

test('theme: follows a light system colour scheme', async (t) => {
  await t.open();
  assert.equal(await theme(t.page), 'light');
  assert.equal(await label(t.page), 'Light theme: switch to the dark theme');
});

test(
  'theme: follows a dark system colour scheme',
  async (t) => {
    await t.open();
    assert.equal(await theme(t.page), 'dark');
    assert.equal(await label(t.page), 'Dark theme: switch to the light theme');
    assert.equal(await t.page.evaluate((k) => localStorage.getItem(k), THEME_KEY), null);
  },
  { colorScheme: 'dark' },
);

test('theme: the switch toggles, restyles the page, and persists across reloads', async (t) => {
  const { page } = t;
  await t.open();
  const lightColour = await bodyColour(page);

  await page.click('#theme-switch');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.equal(await label(page), 'Dark theme: switch to the light theme');
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), THEME_KEY), 'dark');
  assert.notEqual(await bodyColour(page), lightColour, 'background did not change');
  await t.screenshot('home-dark');

  await page.reload();
  await page.waitForSelector('#lesson-list');
  assert.equal(await theme(page), 'dark', 'theme lost on reload');
  assert.equal(await label(page), 'Dark theme: switch to the light theme');

  // Keyboard: the switch is a real button, so focus + Space toggles it.
  await page.focus('#theme-switch');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  assert.equal(await label(page), 'Light theme: switch to the dark theme');
  await page.reload();
  await page.waitForSelector('#lesson-list');
  assert.equal(await theme(page), 'light');
  assert.equal(await bodyColour(page), lightColour);
});

test('theme: the switch is labelled and reachable with Tab', async (t) => {
  const { page } = t;
  // Its accessible name starts with the word it shows, in every language, so a voice
  // command that says what it sees ("click Light") finds it.
  for (const lang of ['en', 'pl', 'ja']) {
    await t.open(`#/?lang=${lang}`);
    const shown = (await page.textContent('#theme-switch .theme-switch__text')).trim();
    const name = await page.getByRole('button', { name: shown }).getAttribute('id');
    assert.equal(name, 'theme-switch', `${lang}: no button named after "${shown}"`);
    assert.ok((await label(page)).startsWith(shown), `${lang}: "${await label(page)}" does not start with "${shown}"`);
  }
  await t.open();
  let focused = null;
  for (let i = 0; i < 5 && focused !== 'theme-switch'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.id);
  }
  assert.equal(focused, 'theme-switch');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
});

test('keyboard: the first Tab shows a skip link that moves past the header to the page', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip?lang=pl');
  await page.waitForSelector('[data-testid=player]');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-link');
  assert.equal(await page.textContent('[data-testid=skip-link]'), 'Przejdź do treści');
  const top = await page.$eval('[data-testid=skip-link]', (el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0, `shown when focused (top ${top} px)`);
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
  assert.match(page.url(), /#\/lesson\/queue-wait-or-skip\?lang=pl$/, 'the route stays');
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.getElementById('main').contains(document.activeElement)), 'the next stop is in the page');
});

test('routes: an unknown route says so and links home', async (t) => {
  const { page } = t;
  await t.open('#/no/such/page');
  assert.equal(await page.textContent('main h2'), 'Page not found');
  await page.click('main a[href="#/"]');
  await page.waitForSelector('#lesson-list');
});

async function expectPanicPanel(t) {
  const { page } = t;
  const panel = await page.waitForSelector('#panic-panel');
  assert.equal(await panel.getAttribute('role'), 'alert');
  assert.equal(await page.textContent('#panic-panel h2'), 'Lockstep stopped');
  const message = await page.textContent('#panic-panel pre');
  assert.ok(message.includes(PANIC_MESSAGE), `panel message: ${message}`);
  // console_error_panic_hook logged the panic too.
  assert.ok(
    t.errors.some((e) => e.kind === 'console' && e.text.includes(PANIC_MESSAGE)),
    `no console error with the panic message: ${JSON.stringify(t.errors)}`,
  );
}

test(
  'panic: a panic while starting shows the error panel with the message',
  async (t) => {
    await t.open('#/debug/panic');
    await expectPanicPanel(t);
    await t.screenshot('panic');
  },
  { allowErrors: true },
);

test(
  'panic: a panic in a running app shows the error panel and disables the app',
  async (t) => {
    const { page } = t;
    await t.open('#/');
    await page.waitForSelector('#lesson-list');
    assert.deepEqual(t.errors, []);
    await page.evaluate(() => {
      location.hash = '#/debug/panic';
    });
    await expectPanicPanel(t);
    assert.equal(await page.getAttribute('#main', 'inert'), '');
    // The reload link starts afresh on the home route.
    await page.click('#panic-panel a');
    await page.waitForSelector('#lesson-list');
    assert.equal(await page.$('#panic-panel'), null);
  },
  { allowErrors: true },
);

test(
  'panic: an instance that stops without a panic (out of memory) still shows the error panel',
  async (t) => {
    const { page } = t;
    await t.open('#/lesson/queue-wait-or-skip?lang=pl');
    await page.waitForSelector('[data-testid=lesson]');
    await page.evaluate(() => {
      location.hash = '#/debug/abort?lang=pl';
    });
    const panel = await page.waitForSelector('#panic-panel');
    assert.equal(await panel.getAttribute('role'), 'alert');
    assert.match(await page.textContent('#panic-panel pre'), /RuntimeError: unreachable/);
    // In the page's language, as the app left its texts.
    assert.notEqual(await page.textContent('#panic-panel h2'), 'Lockstep stopped');
    assert.equal(await page.getAttribute('#main', 'inert'), '');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'panic-panel');
  },
  { allowErrors: true },
);

/** Holds the wasm back, as a slow phone would, until the returned function is called. */
async function holdWasm(page) {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('first paint: in the language of lang=, where the lesson has a translation', async (t) => {
  const { page } = t;
  const release = await holdWasm(page);
  await page.goto(t.url('#/lesson/queue-wait-or-skip?lang=pl'), { waitUntil: 'domcontentloaded' });
  const first = await page.waitForSelector('#first-paint [data-lesson="queue-wait-or-skip"]');
  assert.match(await first.textContent(), /Kilka terminali pobiera kolejne zadanie/);
  assert.match(await page.textContent('#first-paint pre code'), /CREATE TABLE dbo\.task/);
  await page.goto('about:blank');
  await page.goto(t.url('#/lesson/teradata-consume?lang=ja'), { waitUntil: 'domcontentloaded' });
  const ja = await page.waitForSelector('#first-paint [data-lesson="teradata-consume"]');
  assert.match(await ja.textContent(), /キューテーブル/);
  // No Japanese translation of this lesson: the English first paint.
  await page.goto('about:blank');
  await page.goto(t.url('#/lesson/send-double-click?lang=ja'), { waitUntil: 'domcontentloaded' });
  const en = await page.waitForSelector('#first-paint [data-lesson="send-double-click"] h1');
  assert.match(await en.textContent(), /Two clicks, one document/);
  release();
  assert.deepEqual(t.errors, []);
});

test('first paint: while the learner is to predict, a lesson that asks shows its title and code, not its text', async (t) => {
  const { page } = t;
  const release = await holdWasm(page);
  const firstPaint = async (route) => {
    await page.goto('about:blank');
    await page.goto(t.url(route), { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('#first-paint h1');
    return page.innerText('#first-paint');
  };
  // Predicting (the default): the title and the code, not the text that answers.
  let shown = await firstPaint('#/lesson/queue-wait-or-skip');
  assert.match(shown, /CREATE TABLE dbo\.task/);
  assert.doesNotMatch(shown, /Several terminals take their next task/);
  assert.ok(await page.isVisible('#first-paint h1'));
  // A link whose toggles choose settings where a question applies (teradata-consume asks
  // only when the consumer rolls back) hides the text as well; its defaults do not.
  shown = await firstPaint('#/lesson/teradata-consume?end=rollback&mode=ansi');
  assert.match(shown, /order_queue/);
  assert.doesNotMatch(shown, /Flip end to rollback/);
  shown = await firstPaint('#/lesson/teradata-consume?lang=en');
  assert.match(shown, /Flip end to rollback/);
  // A lesson without questions hides nothing.
  shown = await firstPaint('#/lesson/pg-isolation');
  assert.match(shown, /PostgreSQL reads from snapshots/);
  // Predictions turned off, or this lesson's questions answered: the whole text.
  await page.evaluate(() => localStorage.setItem('lockstep.predict', 'off'));
  shown = await firstPaint('#/lesson/queue-wait-or-skip');
  assert.match(shown, /Several terminals take their next task/);
  await page.evaluate(() => {
    localStorage.removeItem('lockstep.predict');
    localStorage.setItem('lockstep.answers.queue-wait-or-skip', 'lockstep-answers 1');
  });
  shown = await firstPaint('#/lesson/queue-wait-or-skip');
  assert.match(shown, /Several terminals take their next task/);
  await page.evaluate(() => localStorage.clear());
  release();
  assert.deepEqual(t.errors, []);
}, { predict: true });

test('embed: the app renders inside an iframe on another page', async (t) => {
  const { page } = t;
  // A host page on the same server (as a blog would be), served by interception.
  const host = t.url('blog-post.html');
  await page.route(host, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Blog</title><p>Post</p><iframe src="./#/" width="800" height="500"></iframe>',
    }),
  );
  await page.goto(host);
  const frame = page.frameLocator('iframe');
  await frame.locator('#lesson-list').waitFor();
  assert.equal((await frame.locator('header h1').textContent()).trim(), 'Lockstep');
});

test('first paint: a lesson shows its text and code before the wasm has loaded, then the app takes over', async (t) => {
  const { page } = t;
  const release = await holdWasm(page);
  await page.goto(t.url('#/lesson/queue-wait-or-skip?readpast=off'), { waitUntil: 'domcontentloaded' });
  const first = await page.waitForSelector('#first-paint [data-lesson="queue-wait-or-skip"]');
  assert.match(await first.textContent(), /Several terminals take their next task/);
  assert.match(await page.textContent('#first-paint pre code'), /CREATE TABLE dbo\.task/);
  assert.equal(await page.$('#main'), null, 'the app has not started yet');
  await t.screenshot('first-paint');
  release();
  await page.waitForSelector('[data-testid=player][data-pending=false]');
  assert.equal(await page.$('#first-paint'), null, 'the app removed the first paint');

  // A lesson id that does not exist asks for no prerendered page (no failed request).
  await page.goto('about:blank');
  await page.goto(t.url('#/lesson/no-such-lesson'), { waitUntil: 'load' });
  await page.waitForSelector('[data-testid=lesson-problem]');
  assert.deepEqual(t.errors, []);
});

test('lesson page: headings go down one level at a time, and a lesson\'s SQL is set at the code size', async (t) => {
  const { page } = t;
  await page.setViewportSize({ width: 1280, height: 900 });
  await t.open('#/lesson/queue-claim-race');
  await page.waitForSelector('.prose pre.code code', { state: 'attached' });
  const levels = await page.$$eval('h1, h2, h3, h4, h5, h6', (hs) => hs.map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)]));
  let deepest = 0;
  for (const [level, text] of levels) {
    assert.ok(level <= deepest + 1, `"${text}" is an h${level} under an h${deepest}: ${JSON.stringify(levels)}`);
    deepest = Math.max(deepest, level);
  }
  assert.ok(levels.some(([level, text]) => level === 3 && text === 'What happens'), JSON.stringify(levels));
  const sizes = await page.$eval('.prose pre.code', (pre) => [getComputedStyle(pre).fontSize, getComputedStyle(pre.querySelector('code')).fontSize]);
  assert.equal(sizes[1], sizes[0], 'the code in a block is the block\'s size');
  assert.ok(parseFloat(sizes[1]) >= 12, `SQL at ${sizes[1]}`);
});

test('title: each page names what it shows in the tab, in the page\'s language', async (t) => {
  const { page } = t;
  await t.open('#/');
  await page.waitForSelector('#lesson-list');
  assert.equal(await page.title(), 'Lockstep');
  const routes = [
    '#/lesson/queue-wait-or-skip',
    '#/lesson/queue-wait-or-skip?lang=pl',
    '#/lesson/queue-wait-or-skip/compare?left=readpast:on&right=readpast:off&lang=ja',
    '#/lesson/queue-claim-race/matrix',
    '#/lesson/queue-claim-race/schedule',
    '#/exercise/exercise-skip-locked',
    '#/facilitator',
  ];
  const titles = new Set();
  for (const route of routes) {
    await t.open(route);
    const heading = (await page.textContent('#main h2')).trim();
    await page.waitForFunction((h) => document.title === `${h} · Lockstep`, heading, { timeout: 3000 }).catch(() => {});
    assert.equal(await page.title(), `${heading} · Lockstep`, route);
    titles.add(await page.title());
  }
  assert.equal(titles.size, routes.length, 'every page has a title of its own');
});

test('keyboard: following a link that leaves the page puts the focus on the new page, not on its body', async (t) => {
  const { page } = t;
  await t.open('#/lesson/queue-wait-or-skip');
  await page.waitForSelector('[data-testid=player]');
  const compare = page.locator('a[href*="/compare?"]').first();
  await compare.focus();
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-testid=compare]', { state: 'attached' });
  await page.waitForFunction(() => document.activeElement && document.activeElement !== document.body, null, { timeout: 3000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
  // The first load leaves the focus alone: the first Tab still finds the skip link.
  await t.open('#/lesson/queue-wait-or-skip');
  await page.reload();
  await page.waitForSelector('[data-testid=player]');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-link');
});
