// Waiting for the player: what the test files share to open a lesson, wait until its
// run is on screen, and read the playhead. Works on a Page or a Frame (an embed).

/**
 * Waits until the player in `frame` (a Page or Frame) shows a run whose settings include
 * every `name=value` (`seed=N` too).
 * @param {import('playwright-core').Page | import('playwright-core').Frame} frame
 * @param {...string} settings
 */
export async function settled(frame, ...settings) {
  await frame.waitForFunction(
    (want) => {
      const el = document.querySelector('[data-testid=player]');
      if (!el || el.dataset.pending !== 'false' || !document.querySelector('[data-testid=transport]')) return false;
      const shown = (el.dataset.settings || '').split(' ');
      return want.every((s) => shown.includes(s));
    },
    settings,
    // Long runs (the claim race with 4 workers) take a while on a busy machine.
    { timeout: 30_000 },
  );
}

/** Opens the app at `hash` and waits until its player shows a run with `settings`. */
export async function openLesson(t, hash, ...settings) {
  await t.open(hash);
  await settled(t.page, ...settings);
}

/** The playhead: events shown and virtual time in ms. */
export const position = (frame) =>
  frame.$eval('[data-testid=position]', (el) => ({ events: Number(el.dataset.events), t: Number(el.dataset.tMs) }));

/** Waits until the playhead shows `events` events. */
export const atEvents = (frame, events) =>
  frame.waitForFunction((n) => Number(document.querySelector('[data-testid=position]')?.dataset.events) === n, events);

/**
 * Scrolls the stage's top (its transport) to the top of the window, as a reader does
 * on a phone or a short wide window, past the page's scroll-padding and the top's own
 * scroll-margin (which keep what takes the focus clear of that top).
 */
export const scrollToStage = (frame) =>
  frame.$eval('[data-testid=transport]', (el) => {
    const root = document.documentElement;
    root.style.scrollPaddingTop = '0px';
    el.style.scrollMarginTop = '0px';
    el.scrollIntoView({ block: 'start' });
    root.style.scrollPaddingTop = '';
    el.style.scrollMarginTop = '';
  });
