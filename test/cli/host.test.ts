// `cgp-conformance host`: exit 0 for the honest bundled host, 1 when a variant breaks a MUST, 2 on usage
// errors; --list-misbehaviours names every variant with the ids it breaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOST_MISBEHAVIOURS } from '../../src/conformance/host/variants/manifest.js';

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
