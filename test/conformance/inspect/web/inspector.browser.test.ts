// `inspect --web` in a real browser: headless Chromium (Debian's `chromium`, driven by playwright-core) opens
// the inspector against the bundled provider, sends a query with max_frames 1 and sees one frame, switches the
// target to `--misbehave ignore-max-frames` and sees the B4 finding inline (explain one click away), verifies a
// frame, sends a malformed raw line, copies the wire log as NDJSON, downloads it and replays it with `replay`, runs the suite from the page to its verdict, and
// closes the page — after which the inspector stops on its own.
//
// Without a browser this test FAILS, saying loudly that the browser tests did not run. The one opt-out is
// CGP_SKIP_BROWSER_TESTS=1: the test is then reported SKIPPED (never passed), with the same loud message.
// The browser is /usr/bin/chromium, or CGP_CHROMIUM=<path>. Screenshots go to CGP_SCREENSHOT_DIR (default: a
// temporary directory); their paths are printed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundledProviderCommand } from '../../../../src/conformance/provider-suite/config.js';
import { findPackageRoot } from '../../../../src/util/package-root.js';
import { browserPresent, CHROMIUM, CHROMIUM_FLAGS } from '../../../fixtures/browser.js';

const ROOT = findPackageRoot();
const CLEAN_ENV = { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '', CGP_PROVIDER_FILE_ROOTS: '' };

/** The provider command: the one-file build when `npm run build` made it (a cold tsx start is slow on a busy machine). */
function provider(): string[] {
  const bundle = join(ROOT, 'dist', 'bundle', 'provider.cjs');
  if (existsSync(bundle)) return [process.execPath, bundle];
  const b = bundledProviderCommand(ROOT);
  return [b.command, ...b.args];
}

describe('inspect --web in headless Chromium', () => {
  it('query, B4 inline, verify, wire log → replay, the suite to its verdict, page close stops it', { timeout: 300_000 }, async (t) => {
    if (!browserPresent(t)) return;
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'cgp-inspector-browser-'));
    const shots = process.env.CGP_SCREENSHOT_DIR ?? dir;
    mkdirSync(shots, { recursive: true });
    const target = provider();

    const cli = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'inspect', '--web', '--timeout', '10000', '--', ...target], {
      cwd: ROOT,
      env: CLEAN_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    cli.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    cli.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    const exited = new Promise<number | null>((r) => cli.once('exit', (code) => r(code)));
    const profile = mkdtempSync(join(tmpdir(), 'cgp-chromium-profile-'));
    let context;
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /http:\/\/127\.0\.0\.1:[0-9]+\/\?token=\S+/.exec(out);
          if (m) {
            clearInterval(timer);
            resolve(m[0]);
          }
        }, 50);
        void exited.then(() => reject(new Error(`the inspector exited early:\n${out}`)));
      });
      context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1360, height: 900 }, acceptDownloads: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(new URL(url).origin)) elsewhere.push(r.url());
      });
      await page.goto(url);
      await page.locator('#live', { hasText: 'live' }).waitFor({ timeout: 10_000 });

      // connection view: the ack as received, capabilities, data flow
      const conn = page.locator('#connection');
      assert.match(await page.locator('#link-state').innerText(), /connection 1: ready/);
      assert.ok(await conn.locator('dl.kv', { hasText: 'example-docs 0.1.0' }).isVisible(), 'the provider as it identified itself');
      assert.ok(await conn.locator('table.caps', { hasText: 'embeddings_fingerprint' }).isVisible(), 'the capabilities');
      assert.match(await conn.locator('dl.kv').innerText(), /egress: false/);
      await conn.screenshot({ path: join(shots, 'inspector-connection.png') });

      // a query with max_frames 1: one frame
      await page.locator('#max-frames').fill('1');
      await page.locator('#send-query').click();
      const first = page.locator('article.exchange').first();
      await first.waitFor({ timeout: 15_000 });
      assert.equal(await first.locator('table.frames tbody tr.frame').count(), 1, 'one frame');
      assert.match(await first.locator('.budget[data-anchor="B4"] .bnum').innerText(), /^1 \/ 1$/);
      assert.ok(await first.locator('p.clean', { hasText: 'no finding' }).isVisible(), 'an honest answer has no finding');
      await first.locator('tr.frame').first().click();
      assert.ok(await first.locator('tr.frame-detail pre.content').isVisible(), 'a row expands to its content');

      // the misbehaving provider: B4 inline, with its anchor
      const input = page.locator('#target-input');
      await input.fill(`${await input.inputValue()} --misbehave ignore-max-frames`);
      await page.locator('#reconnect').click();
      await page.locator('#link-state', { hasText: 'connection 2: ready' }).waitFor({ timeout: 15_000 });
      await page.locator('#max-frames').fill('1');
      await page.locator('#send-query').click();
      const bad = page.locator('article.exchange#exchange-2-1');
      await bad.waitFor({ timeout: 15_000 });
      const b4 = bad.locator('li.finding.error[data-anchor="B4"]');
      assert.ok(await b4.isVisible(), 'the B4 finding is inline');
      assert.match(await b4.innerText(), /B4 violated: 6 frames returned; the query's max_frames is 1/);
      assert.ok(await bad.locator('.budget.over[data-anchor="B4"]').isVisible(), 'the max_frames bar is over');
      assert.equal(await bad.locator('tr.frame').count(), 6);
      await b4.locator('button.explain').click();
      await page.locator('#explain-dialog[open] .explain-text', { hasText: 'The number of returned frames MUST NOT exceed max_frames' }).waitFor({ timeout: 10_000 });
      await page.locator('#explain-dialog button', { hasText: 'Close' }).click();
      await bad.screenshot({ path: join(shots, 'inspector-frames-finding.png') });

      // verify two frames: one verdict per identity
      await bad.locator('input.pick').nth(0).check();
      await bad.locator('input.pick').nth(1).check();
      await bad.locator('button.verify').click();
      const verified = page.locator('article.exchange[data-reply="verified"]').first();
      await verified.waitFor({ timeout: 15_000 });
      assert.equal(await verified.locator('tr.verdict-row').count(), 2, 'a verdict per identity');
      assert.equal(await verified.locator('tr.verdict-row td.v-valid').count(), 2, 'both valid');

      // the raw editor sends what the form cannot say: a malformed line, answered with an error envelope
      await page.locator('#raw-editor > summary').click();
      await page.locator('#raw-text').fill('{"type":"query","query":{"goal":"unterminated"');
      await page.locator('#send-raw').click();
      const raw = page.locator('article.exchange#exchange-2-3');
      await raw.waitFor({ timeout: 15_000 });
      assert.equal(await raw.getAttribute('data-reply'), 'error', 'the malformed line is answered with an error envelope');

      // the wire log: every line, both directions, copied as NDJSON; then downloaded and replayed
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url).origin });
      await page.locator('#copy-ndjson').click();
      await page.locator('#copy-ndjson', { hasText: 'Copied' }).waitFor({ timeout: 5_000 });
      const copied = String(await page.evaluate('navigator.clipboard.readText()'));
      assert.equal(copied.trimEnd().split('\n').length, await page.locator('#wire-body tr').count(), 'one NDJSON line per wire line');
      assert.ok(copied.includes('"type":"handshake_ack"') && copied.includes('{"type":"query","query":{"goal":"unterminated"'), 'both directions, raw lines as sent');
      const rows = await page.locator('#wire-body tr').count();
      assert.ok(rows >= 8, `the wire log shows both connections (${rows} lines)`);
      assert.ok((await page.locator('#wire-body tr.wire-in').count()) >= 4 && (await page.locator('#wire-body tr.wire-out').count()) >= 4);
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#download-replay').click()]);
      const file = join(dir, 'inspector-replay.ndjson');
      await download.saveAs(file);
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      assert.match(lines[0]!, /"type":"handshake"/);
      assert.ok(
        lines.some((l) => l.includes('"max_frames":1')),
        'the query sent is in the file',
      );
      assert.ok(
        lines.some((l) => l.includes('"type":"verify"')),
        'the verify sent is in the file',
      );
      assert.ok(lines.includes('{"type":"query","query":{"goal":"unterminated"'), 'the malformed line, byte for byte');
      const replay = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'bin.ts'), 'replay', file, '--', ...target, '--misbehave', 'ignore-max-frames'], {
        cwd: ROOT,
        env: CLEAN_ENV,
        encoding: 'utf8',
        timeout: 60_000,
      });
      process.stderr.write(`replay: exit ${replay.status}\n${replay.stderr}${replay.stdout}`);
      assert.equal(replay.status, 0, `replay accepts the file and the provider answers its last query\n${replay.stderr}${replay.stdout}`);
      assert.match(replay.stdout, /replay: not reproduced — the query "inspector-replay-probe" was answered/);
      assert.match(replay.stderr, new RegExp(`handshake \\+ ${lines.length - 2} hostile line\\(s\\)`));

      // the suite from the page: live progress, then the verdict and the coverage page
      await page.locator('#run-suite').click();
      await page.locator('#suite-progress li').first().waitFor({ timeout: 60_000 });
      const verdict = page.locator('.suite-verdict');
      await verdict.waitFor({ timeout: 240_000 });
      assert.equal(await verdict.getAttribute('data-verdict'), 'NOT CONFORMANT');
      assert.match(await verdict.innerText(), /MUST failed: .*B4/);
      const progressed = await page.locator('#suite-progress li').count();
      assert.ok(progressed >= 50, `each finished scenario was listed (${progressed})`);
      assert.ok((await page.locator('#suite-progress li.s-failed').count()) >= 1, 'the failing scenarios are marked');
      const frame = page.frameLocator('#coverage-frame');
      await frame.locator('.finding', { hasText: "B4 violated: 6 frames returned; the query's max_frames is" }).first().waitFor({ timeout: 15_000 });
      await page.locator('#suite').screenshot({ path: join(shots, 'inspector-suite-result.png') });
      process.stderr.write(`inspector screenshots: ${['inspector-connection.png', 'inspector-frames-finding.png', 'inspector-suite-result.png'].map((f) => join(shots, f)).join(', ')}\n`);

      assert.deepEqual(errors, [], 'no script error');
      assert.deepEqual(elsewhere, [], 'the page fetched nothing from anywhere else');

      // closing the page stops the inspector
      await page.close();
      const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 20_000))]);
      assert.equal(code, 0, `the inspector stops once the page is closed\n${out}`);
      assert.match(out, /stopped \(the page was closed\)/);
    } finally {
      await context?.close();
      if (cli.exitCode === null && cli.signalCode === null) cli.kill('SIGKILL');
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
