// `cgp-conformance host`: exit 0 for the honest bundled host, 1 when a variant breaks a MUST, 2 on usage
// errors; --list-misbehaviours names every variant with the ids it breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_MISBEHAVIOURS } from '../../src/conformance/host-suite/variants/manifest.js';

function cli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', ...args], { encoding: 'utf8', timeout: 120_000 });
}

test('cgp-conformance host: honest → 0 with a JSON report; skip-consent-gate → 1 naming C6; usage errors → 2', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-host-cli-'));
  const ok = cli('host', '--tags', '@C6', '--json', '--reports-dir', dir);
  assert.equal(ok.status, 0, ok.stderr);
  const report = JSON.parse(ok.stdout) as { target: string; transport: string; success: boolean; ids: Array<{ id: string; status: string }> };
  assert.equal(report.transport, 'host');
  assert.equal(report.success, true);
  assert.deepEqual(report.ids.find((i) => i.id === 'C6')?.status, 'witnessed');
  const bad = cli('host', '--tags', '@C6', '--misbehave', 'skip-consent-gate', '--reports-dir', dir);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /C6 violated/);
  assert.equal(cli('host', '--misbehave', 'no-such-mode').status, 2);
  assert.equal(cli('host', '--adapter', 'x.js', '--cmd', 'y').status, 2);
});

test('cgp-conformance host --list-misbehaviours lists every variant and its ids', () => {
  const r = cli('host', '--list-misbehaviours');
  assert.equal(r.status, 0);
  for (const m of HOST_MISBEHAVIOURS) assert.match(r.stdout, new RegExp(`^${m.mode}\\s+breaks ${m.breaks.join(', ')}`, 'm'));
});

test('a host that cannot be loaded or started is ONE error line and exit 2, before any scenario', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cgp-host-cli-bad-'));
  const oneLine = (r: ReturnType<typeof cli>) => {
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '', 'no scenario report');
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /^\s+at /m, 'no stack trace');
    return r.stderr;
  };
  assert.match(oneLine(cli('host', '--adapter', join(dir, 'missing.mjs'), '--out', dir)), /host adapter .*missing\.mjs does not exist/);
  const broken = join(dir, 'broken.mjs');
  writeFileSync(broken, 'export function createHost() {\n  return {\n    name: "x",,\n  };\n}\n');
  assert.match(oneLine(cli('host', '--adapter', broken, '--out', dir)), new RegExp(`${broken.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: SyntaxError`));
  const noFactory = join(dir, 'nofactory.mjs');
  writeFileSync(noFactory, 'export const x = 1;\n');
  assert.match(oneLine(cli('host', '--adapter', noFactory, '--out', dir)), /exports no createHost\(options\) function/);
  assert.match(oneLine(cli('host', '--cmd', join(dir, 'no-such-host --flag'), '--out', dir)), /could not be started and initialised: SpawnError/);
});

test('host --list-misbehaviours piped into a reader that stops early ends quietly (EPIPE)', () => {
  const r = spawnSync('bash', ['-c', `"${process.execPath}" --import tsx src/cli/bin.ts host --list-misbehaviours | head -1`], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0);
  assert.equal(r.stdout.trimEnd().split('\n').length, 1);
  assert.doesNotMatch(r.stderr, /EPIPE|Error/);
});
