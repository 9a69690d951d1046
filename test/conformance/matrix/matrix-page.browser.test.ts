// The matrix page in a real browser (docs/matrix.md "The site"): headless Chromium (driven by playwright-core,
// through test/fixtures/browser.ts) opens index.html of a matrix with a red cell from file://, sees the grid
// with a column per implementation, clicks the red cell and gets its finding, message and wire transcript,
// follows the panel's link into the run's own coverage page, applies the side, level and status filters, and
// saves screenshots.
//
// Without a browser this test FAILS, saying loudly that the browser tests did not run; CGP_SKIP_BROWSER_TESTS=1
// reports it skipped instead (test/fixtures/browser.ts). Screenshots go to CGP_SCREENSHOT_DIR (default: a
// temporary directory); their paths are printed.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { panelId } from '../../../src/conformance/matrix/render-page.js';
import { browserPresent, CHROMIUM, CHROMIUM_FLAGS } from '../../fixtures/browser.js';
import { cli, scratch, writeMatrix } from './helpers.js';

describe('the matrix page in headless Chromium', () => {
  it('the grid renders; a red cell opens its finding and transcript; filters; screenshots', { timeout: 300_000 }, async (t) => {
    if (!browserPresent(t)) return;
    const { chromium } = await import('playwright-core');
    const dir = scratch('page');
    const shots = process.env.CGP_SCREENSHOT_DIR ?? dir;
    mkdirSync(shots, { recursive: true });
    const file = writeMatrix(
      dir,
      'matrix.yml',
      `implementations:
  - { name: honest provider, side: provider, bundled: true, tags: "@B4 or @H1" }
  - { name: ignore-max-frames, side: provider, bundled: true, misbehave: ignore-max-frames, tags: "@B4 or @H1" }
  - { name: bundled host, side: host, bundled: true, tags: "@C6" }
`,
    );
    const out = join(dir, 'site');
    const r = await cli(['matrix', file, '--out', out]);
    assert.equal(r.code, 0, r.stderr);

    const profile = mkdtempSync(join(tmpdir(), 'cgp-chromium-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1400, height: 900 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(pathToFileURL(join(out, 'index.html')).href);

      // the grid: a column per implementation, a row per id, grouped by section
      const grid = page.locator('table.grid');
      await assert.doesNotReject(grid.waitFor({ state: 'visible', timeout: 5_000 }));
      for (const name of ['honest provider', 'ignore-max-frames', 'bundled host']) assert.ok(await grid.locator('th.impl', { hasText: name }).isVisible(), `a column for ${name}`);
      assert.ok(await grid.locator('tr.sec', { hasText: '§7 — Budget honesty' }).isVisible(), 'rows are grouped by SPEC section, headed by its title');
      const b4 = grid.locator('tr#row-B4');
      assert.match((await b4.innerText()).replace(/\s+/g, ' '), /B4 MUST ok FAIL n\/a/);
      await page.screenshot({ path: join(shots, 'matrix-grid.png') });

      // the red cell opens its panel: the finding's message and the wire transcript that shows it
      const id = panelId('ignore-max-frames', 'B4');
      const panel = page.locator(`section#${id}`);
      assert.equal(await panel.isVisible(), false, 'panels start closed');
      await b4.locator('td.s-failed a').click();
      assert.match(page.url(), new RegExp(`#${id}$`));
      assert.ok(await panel.isVisible(), 'the panel opens');
      assert.ok(await panel.locator('pre.message', { hasText: "B4 violated: 6 frames returned; the query's max_frames is 1" }).isVisible(), 'the finding');
      assert.ok(await panel.locator('table.wire tr.sent', { hasText: '"max_frames":1' }).first().isVisible(), 'the query in the transcript');
      assert.ok(await panel.locator('table.wire tr.received', { hasText: '"type":"frames"' }).first().isVisible(), 'the reply in the transcript');
      await page.screenshot({ path: join(shots, 'matrix-red-cell.png') });
      process.stderr.write(`matrix page screenshots: ${join(shots, 'matrix-grid.png')}, ${join(shots, 'matrix-red-cell.png')}\n`);

      // …and links into the run's own coverage page at the id
      await panel.locator('a', { hasText: 'full report' }).click();
      assert.match(page.url(), /runs\/ignore-max-frames\/coverage\.html#B4$/);
      assert.ok(await page.locator('tr#B4.failed').isVisible(), "the run's page, at B4, failed");
      await page.goBack();
      await page.locator(`section#${id} a.close`).click();
      assert.equal(await panel.isVisible(), false, 'the panel closes');

      // filters: side hides columns, level hides rows, status keeps the rows holding a checked status
      const hostHead = grid.locator('th.impl', { hasText: 'bundled host' });
      await page.locator('#f-side-host').uncheck();
      assert.equal(await hostHead.isVisible(), false, 'side filter hides the host column');
      await page.locator('#f-side-host').check();
      await page.locator('#f-level-MUST').uncheck();
      assert.equal(await b4.isVisible(), false, 'level filter hides MUST rows');
      await page.locator('#f-level-MUST').check();
      for (const s of ['witnessed', 'warning', 'unverified', 'not-applicable']) await page.locator(`#f-status-${s}`).uncheck();
      assert.ok(await b4.isVisible(), 'the row with a failed cell stays');
      assert.equal(await grid.locator('tr#row-H1').isVisible(), false, 'a row with no failed cell goes');
      await page.screenshot({ path: join(shots, 'matrix-failed-only.png') });
      assert.deepEqual(errors, [], 'no script error');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
