// `cgp-conformance stdio|http` as processes: exit codes (0 / 1 / 2 usage / 3 never answered), --json writes
// only JSON to stdout, progress goes to stderr.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type Ran } from '../../helpers/run-process.js';
import { describe, it } from 'node:test';
import { bundledProviderCommand } from '../../../src/conformance/provider-suite/config.js';
import { findPackageRoot } from '../../../src/util/package-root.js';

const ROOT = findPackageRoot();
const MINIMAL = join(ROOT, 'test', 'fixtures', 'provider', 'minimal-provider.mjs');
const ENTRY = ['--import', 'tsx', join(ROOT, 'test', 'conformance', 'provider-suite', 'cli-entry.ts')];

const cli = (args: string[], timeoutMs = 90_000): Promise<Ran> =>
  runProcess([process.execPath, ...ENTRY, ...args], { cwd: ROOT, timeoutMs, env: { ...process.env, CGP_PROVIDER: '', CGP_PROVIDER_URL: '', CGP_MISBEHAVE: '' } });

const REPORTS = mkdtempSync(join(tmpdir(), 'cgp-cli-test-'));
let n = 0;
/** Report options: a fresh name in a temp dir (never the repository's reports/). */
const report = () => [`cli${++n}`, '--reports-dir', REPORTS];

describe('cgp-conformance stdio / http', () => {
  it('--json: exit 0 for a conformant target, stdout is one JSON document, progress on stderr', { timeout: 90_000 }, async () => {
    const r = await cli(['stdio', '--json', '--tags', '@H1 or @R2 or @B4', '--report-name', ...report(), '--', process.execPath, MINIMAL]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as { exit_code: number; success: boolean; ids: Array<{ id: string; status: string }>; transport: string };
    assert.equal(doc.exit_code, 0);
    assert.equal(doc.success, true);
    assert.equal(doc.transport, 'stdio');
    assert.deepEqual(doc.ids.map((i) => i.id).sort(), ['B4', 'H1', 'R2', 'S3.1-compare-families']);
    assert.ok(r.stderr.length > 0, 'progress is written to stderr');
  });

  it('exit 1 when a MUST fails (a misbehaving provider), naming the anchor', { timeout: 90_000 }, async () => {
    const bundled = bundledProviderCommand(ROOT);
    const r = await cli(['stdio', '--tags', '@F1', '--report-name', ...report(), '--', bundled.command, ...bundled.args, '--misbehave', 'bad-score']);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^F1\s+failed$/m);
    assert.match(r.stdout, /F1 violated: frame "[^"]+" has score 1\.5; required a number in \[0, 1\]/);
  });

  it('exit 3 when the target never answers the handshake (spawn failure, or silence)', { timeout: 60_000 }, async () => {
    const missing = await cli(['stdio', '--report-name', ...report(), '--', join(ROOT, 'no-such-provider-binary')]);
    assert.equal(missing.code, 3, missing.stderr);
    const silent = await cli(['stdio', '--json', '--timeout', '800', '--report-name', ...report(), '--', process.execPath, '-e', 'setInterval(() => {}, 1000)']);
    assert.equal(silent.code, 3, silent.stderr);
    const doc = JSON.parse(silent.stdout) as { never_answered: boolean; reason: string };
    assert.equal(doc.never_answered, true);
    assert.match(doc.reason, /handshake timed out after 800 ms/);
  });

  it('exit 2 on usage errors: a bad --timeout, a plaintext non-loopback URL (C7)', { timeout: 60_000 }, async () => {
    const timeout = await cli(['stdio', '--timeout', 'soon', '--', process.execPath, MINIMAL]);
    assert.equal(timeout.code, 2);
    assert.match(timeout.stderr, /--timeout expects a positive number of milliseconds/);
    const c7 = await cli(['http', 'http://provider.example/cgp']);
    assert.equal(c7.code, 2);
    assert.match(c7.stderr, /C7/);
    const none = await cli(['stdio']);
    assert.equal(none.code, 2);
  });
});

describe('cgp-conformance stdio: usage hygiene', () => {
  const oneLine = (r: Ran): string => {
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    return r.stderr;
  };
  it('an unknown option before the target is a usage error with a hint, never spawned', { timeout: 60_000 }, async () => {
    const r = await cli(['stdio', '--tag', '@B1', '--', process.execPath, MINIMAL]);
    assert.match(oneLine(r), /unknown option '--tag' \(Did you mean --tags\?\)/);
  });
  it("options after the target are the target's own (passed through)", { timeout: 60_000 }, async () => {
    const r = await cli(['stdio', '--tags', '@H1', '--report-name', ...report(), process.execPath, MINIMAL, '--some-provider-flag']);
    assert.equal(r.code, 0, r.stderr);
  });
  it('a tag expression selecting nothing, or malformed, is one line naming it', { timeout: 60_000 }, async () => {
    assert.match(oneLine(await cli(['stdio', '--tags', '@NOPE', '--', process.execPath, MINIMAL])), /tag expression "@NOPE" selects no provider scenario/);
    assert.match(oneLine(await cli(['stdio', '--tags', '@B1 and (', '--', process.execPath, MINIMAL])), /malformed tag expression "@B1 and \(": Unmatched \(/);
  });
  it('a provider that exits before the handshake: its exit status and stderr tail, printed once', { timeout: 60_000 }, async () => {
    const r = await cli(['stdio', '--report-name', ...report(), '--', process.execPath, '-e', "console.error('boom: no config file'); process.exit(7)"]);
    assert.equal(r.code, 3, r.stderr);
    const all = r.stdout + r.stderr;
    assert.equal(all.match(/never answered/g)?.length, 1, all);
    assert.match(all, /exit code 7/);
    assert.match(all, /boom: no config file/);
  });
});
