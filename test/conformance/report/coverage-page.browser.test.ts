// coverage.html in a real browser (docs/interpretations.md §65): headless Chromium (Debian's `chromium`, driven by playwright-core)
// opens the page of a FAILING run from file://, applies the side / level / status filters, expands a wire
// transcript, follows an id to its SPEC.md section, checks the print layout, and saves a screenshot.
//
// Without a browser this test FAILS, saying loudly that the browser tests did not run. The one opt-out is
// CGP_SKIP_BROWSER_TESTS=1: the test is then reported SKIPPED (never passed), with the same loud message.
// The browser is /usr/bin/chromium, or CGP_CHROMIUM=<path>. The screenshot goes to CGP_SCREENSHOT_DIR
// (default: a temporary directory); its path is printed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { findPackageRoot } from '../../../src/util/package-root.js';
import { browserPresent, CHROMIUM, CHROMIUM_FLAGS } from '../../fixtures/browser.js';

const ROOT = findPackageRoot();

/** Emoji and pictographs the old page used (and any emoji presentation selector). */
const EMOJI = /[\u{1F000}-\u{1FAFF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}\u{FE0F}]/u;

describe('coverage.html in headless Chromium', () => {
  it('a failing run: failures first, filters, transcript, spec links, print layout, screenshot', { timeout: 180_000 }, async (t) => {
    if (!browserPresent(t)) return;
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'cgp-coverage-page-'));
    const shots = process.env.CGP_SCREENSHOT_DIR ?? dir;
    mkdirSync(shots, { recursive: true });
    const html = join(dir, 'coverage.html');
    // A failing run through the real CLI: B4 fails (ignore-max-frames), H1 passes, S6.2-digested-bytes is N/A
    // (run from a directory of its own, the provider's working directory holds none of the files it cites).
    const tsx = import.meta.resolve('tsx');
    const bundled = bundledProviderCommand(ROOT);
    const elsewhere = mkdtempSync(join(tmpdir(), 'cgp-coverage-page-cwd-'));
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        tsx,
        join(ROOT, 'src', 'cli', 'bin.ts'),
        'stdio',
        '--tags',
        '@B4 or @H1 or @S6.2-digested-bytes or @S6.3-content-digest',
        '--html',
        html,
        '--reports-dir',
        join(dir, 'r'),
        '--',
        bundled.command,
        ...bundled.args.map((a) => (a === 'tsx' ? tsx : a)),
        '--misbehave',
        'ignore-max-frames',
      ],
      { cwd: elsewhere, encoding: 'utf8', env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '', CGP_PROVIDER_FILE_ROOTS: '' }, timeout: 120_000 },
    );
    assert.equal(run.status, 1, `the ignore-max-frames run fails B4\n${run.stderr}`);
    const source = readFileSync(html, 'utf8');
    assert.doesNotMatch(source, EMOJI, 'no emoji on the page');
    assert.doesNotMatch(source, /<link|src=|@import|url\(|https?:\/\//i, 'no external asset');

    const profile = mkdtempSync(join(tmpdir(), 'cgp-chromium-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(pathToFileURL(html).href);

      // header: the target as it identified itself
      await assert.doesNotReject(page.locator('h1', { hasText: 'example-docs 0.1.0' }).waitFor({ state: 'visible', timeout: 5_000 }));
      assert.ok(await page.locator('dl.ack', { hasText: 'contextgraph/1.0' }).isVisible(), 'the ack is shown');

      // failures first: the first finding card comes before the anchors table, names B4 and its message
      const card = page.locator('.finding').filter({ hasText: "B4 violated: 6 frames returned; the query's max_frames is 1" });
      assert.ok(await card.isVisible(), 'the B4 failure is shown with its message');
      // (browser-side code as a string: the test is typechecked without the DOM library)
      const order = await page.evaluate(
        "(() => { const f = document.querySelector('.finding'); const a = document.getElementById('anchors'); return f !== null && a !== null && (f.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0; })()",
      );
      assert.ok(order, 'failures come before the tables');

      // the transcript is collapsed, then expanded: the query with max_frames 1 and the frames reply
      const wire = card.locator('table.wire');
      assert.equal(await wire.isVisible(), false, 'the transcript starts collapsed');
      await card.locator('details.transcript > summary').click();
      assert.ok(await wire.isVisible(), 'the transcript opens');
      assert.ok(await wire.locator('tr.sent', { hasText: '"max_frames":1' }).first().isVisible(), 'the query with max_frames 1 is shown');
      assert.ok(await wire.locator('tr.received', { hasText: '"type":"frames"' }).first().isVisible(), 'the frames reply is shown');
      assert.ok(await wire.locator('tr.proof.received', { hasText: 'this line shows the finding' }).isVisible(), 'the reply that shows the finding is marked');
      await card.screenshot({ path: join(shots, 'coverage-failing-run.finding.png') });

      // N/A reasons are visible in the table
      const na = page.locator('tr#S6\\.2-digested-bytes');
      assert.ok(await na.isVisible());
      assert.match((await na.innerText()).replace(/\s+/g, ' '), /not applicable.*outside every trusted root.*CGP_PROVIDER_FILE_ROOTS/);

      const row = (id: string) => page.locator(`tr[id="${id}"]`);
      // status filter: hide "witnessed" ⇒ H1 (witnessed) disappears, B4 (failed) stays
      assert.ok(await row('H1').isVisible());
      await page.locator('#f-status-witnessed').uncheck();
      assert.equal(await row('H1').isVisible(), false, 'status filter hides witnessed rows');
      assert.ok(await row('B4').isVisible(), 'failed rows stay');
      await page.locator('#f-status-witnessed').check();
      // side filter: hide "host" ⇒ C1 (a host anchor, not applicable here) disappears, B4 stays
      assert.ok(await row('C1').isVisible());
      await page.locator('#f-side-host').uncheck();
      assert.equal(await row('C1').isVisible(), false, 'side filter hides host rows');
      assert.ok(await row('B4').isVisible());
      // level filter: hide MUST ⇒ B4 and its failure card disappear, a SHOULD rule stays
      await page.locator('#f-level-MUST').uncheck();
      assert.equal(await row('B4').isVisible(), false, 'level filter hides MUST rows');
      assert.equal(await card.isVisible(), false, 'and the MUST failure card');
      assert.ok(await row('S6.3-content-digest').isVisible(), 'SHOULD rows stay');
      await page.locator('#f-level-MUST').check();
      await page.locator('#f-side-host').check();
      assert.ok((await row('B4').isVisible()) && (await card.isVisible()), 'all back');

      // the id links to its SPEC.md section, embedded in the page
      await row('B4').locator('a', { hasText: 'B4' }).click();
      assert.match(page.url(), /#spec-7$/);
      assert.ok(await page.locator('section#spec-7', { hasText: 'Budget honesty' }).isVisible(), 'SPEC.md §7 is in the page');
      await page.evaluate('window.scrollTo(0, 0)');

      await page.screenshot({ path: join(shots, 'coverage-failing-run.png'), fullPage: false });
      process.stderr.write(`coverage.html screenshot: ${join(shots, 'coverage-failing-run.png')}\n`);

      // print layout: filters hidden, every transcript open
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.locator('form.filters').isVisible(), false, 'no filters in print');
      await page.evaluate("window.dispatchEvent(new Event('beforeprint'))");
      const closed = await page.locator('details.transcript:not([open])').count();
      assert.equal(closed, 0, 'every transcript is open for printing');
      await page.screenshot({ path: join(shots, 'coverage-failing-run.print.png'), fullPage: false });
      assert.deepEqual(errors, [], 'no script error');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
