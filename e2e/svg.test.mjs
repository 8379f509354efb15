// The static fallback: `lockstep run <lesson> --svg FILE` writes the timeline as one
// self-contained SVG. Chromium opens it and the test reads the lanes from its text.

import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test, assert } from './harness.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function exportSvg(readpast) {
  const out = join(ROOT, 'target', 'e2e', `queue-wait-or-skip-readpast-${readpast}.svg`);
  mkdirSync(dirname(out), { recursive: true });
  execFileSync(
    'cargo',
    ['run', '--quiet', '-p', 'lockstep-cli', '--', 'run', 'lessons/queue-wait-or-skip.md', '--set', `readpast=${readpast}`, '--svg', out],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return out;
}

test('svg: the exported timeline of queue-wait-or-skip opens in Chromium and shows both lanes', async (t) => {
  const { page } = t;
  for (const readpast of ['on', 'off']) {
    const file = exportSvg(readpast);
    await page.goto(pathToFileURL(file).href);
    const text = await page.evaluate(() => document.documentElement.textContent);
    assert.equal(await page.evaluate(() => document.documentElement.localName), 'svg');
    assert.match(text, /\bA\b/, 'lane A');
    assert.match(text, /\bB\b/, 'lane B');
    if (readpast === 'off') {
      assert.match(text, /waiting on KEY task \(1\) for A/, 'B waits for A, said in words');
    }
    const size = await page.evaluate(() => {
      const r = document.documentElement.getBoundingClientRect();
      return [r.width, r.height];
    });
    assert.ok(size[0] > 300 && size[1] > 100, `rendered at ${size}`);
    await page.screenshot({ path: file.replace(/\.svg$/, '.png') });
  }
});
