// `cgp-conformance ingest`: the table, `--json` printing exactly {query, frames, report}, `-` for stdin,
// --root anchors, usage errors (exit 2), and `--serve` passing the provider suite with 0 failed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { runSuite } from '../../src/conformance/run/run-suite.js';
import { EXAMPLE_DIR, EXAMPLE_FILES, EXAMPLE_INTENT, ROOT } from './helpers.js';

const BIN = join(ROOT, 'src', 'cli', 'bin.ts');
const FILES = EXAMPLE_FILES.map((f) => join(EXAMPLE_DIR, f));

function cli(args: string[], input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', BIN, 'ingest', ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 26 });
}

/** Every scenario passed or is not applicable (0 failed, nothing undefined or inconclusive), and at least `minPassed` passed. */
function assertPassedOrNotApplicable(result: Awaited<ReturnType<typeof runSuite>>, minPassed: number): void {
  const bad = result.summary.scenarios.filter((s) => !['passed', 'not-applicable'].includes(s.status));
  assert.deepEqual(
    bad.map((s) => `${s.uri}:${s.line} ${s.status} ${s.message ?? ''}`),
    [],
  );
  assert.equal(result.summary.totals.failed, 0);
  assert.ok(result.summary.totals.passed >= minPassed, `${result.summary.totals.passed} passed`);
}
describe('cgp-conformance ingest', () => {
  it('--json prints exactly {query, frames, report}', () => {
    const r = cli(['--intent', EXAMPLE_INTENT, '--json', ...FILES]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['query', 'frames', 'report']);
    assert.equal(out.query.goal, EXAMPLE_INTENT);
    assert.equal(out.frames.length, 4);
    assert.ok(out.query.max_tokens <= 610);
  });
  it('prints the query, a table of frames (kind, title, full → served) and the report', () => {
    const r = cli(['--intent', EXAMPLE_INTENT, ...FILES]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^query\.goal {5}"figure out why the retry loop gives up"\n/);
    assert.match(r.stdout, /frames: 4 served, \d+ tokens of 2288 pasted \(\d+ %\)/);
    assert.match(r.stdout, /frm_bca787198a3e {2}episode {2}stack trace · 14 lines {2}176 → 85 /);
    assert.match(r.stdout, /paths\.txt L1: anchor · \.\/src\/net → anchor \.\/src\/net \(kept as typed\)/);
  });
  it('- reads stdin; --root turns a path inside it into a file:// anchor', () => {
    const root = mkdtempSync(join(tmpdir(), 'cgp-ingest-root-'));
    mkdirSync(join(root, 'src', 'net'), { recursive: true });
    const r = cli(['--intent', 'why', '--root', root, '--json', '-'], './src/net\n');
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).query.anchors, [pathToFileURL(join(root, 'src', 'net')).href]);
    const missing = cli(['--intent', 'why', '--root', root, '--json', '-'], './src/nowhere\n');
    assert.deepEqual(JSON.parse(missing.stdout).query.anchors, ['./src/nowhere'], 'not resolvable: kept exactly as typed');
    const abs = cli(['--intent', 'why', '--json', '-'], '/etc/hosts\n');
    assert.deepEqual(JSON.parse(abs.stdout).query.anchors, ['file:///etc/hosts']);
  });
  it('usage errors exit 2 with one clear message', () => {
    const cases: Array<[string[], RegExp]> = [
      [[...FILES], /--intent "<what you asked>" is required/],
      [['--intent', 'x'], /no attachments/],
      [['--intent', 'x', join(EXAMPLE_DIR, 'missing.txt')], /cannot read attachment ".*missing\.txt": no such file/],
      [['--intent', '', ...FILES], /the intent is empty/],
      [['--serve', '--json', ...FILES], /--json does not apply to --serve/],
      [['--http', '0', '--intent', 'x', ...FILES], /--http applies only to --serve/],
      [['--serve', '--http', 'eighty', ...FILES], /--http expects a port number 0-65535, got "eighty"/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });
  it('--serve passes the provider suite: 0 failed, not-applicable only where a capability is honestly absent', { timeout: 240_000 }, async () => {
    const reports = mkdtempSync(join(tmpdir(), 'cgp-ingest-suite-'));
    writeFileSync(join(reports, '.keep'), '');
    const result = await runSuite({
      side: 'provider',
      target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', BIN, 'ingest', '--serve', ...FILES], cwd: ROOT },
      reportName: 'ingest-serve',
      reportsDir: reports,
      progress: null,
      timeouts: { handshakeMs: 20_000, requestMs: 20_000, shutdownGraceMs: 5_000 },
    });
    assertPassedOrNotApplicable(result, 50);
    const honestlyAbsent =
      /no attester_keys|no frame carried file provenance|no frame carried a relation|does not declare capabilities\.graph|no capabilities\.embeddings_fingerprint|no reference frame was served|reached over a transport binding|no retired frame ids/;
    for (const s of result.summary.scenarios.filter((x) => x.status === 'not-applicable')) {
      assert.match(s.not_applicable ?? '', honestlyAbsent, s.name);
    }
  });
  it('--serve --http 0 passes the provider suite over HTTP: 0 failed', { timeout: 240_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'ingest', '--serve', '--http', '0', ...FILES], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        const timer = setTimeout(() => reject(new Error(`no URL announced within 60 s: ${err}`)), 60_000);
        child.stderr!.on('data', (d: Buffer) => {
          err += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${err}`)));
      });
      const reports = mkdtempSync(join(tmpdir(), 'cgp-ingest-http-'));
      const result = await runSuite({
        side: 'provider',
        target: { kind: 'http', url },
        reportName: 'ingest-serve-http',
        reportsDir: reports,
        progress: null,
        timeouts: { handshakeMs: 20_000, requestMs: 20_000, shutdownGraceMs: 5_000 },
      });
      assertPassedOrNotApplicable(result, 45);
    } finally {
      child.kill();
    }
  });
});
