// The host control protocol end to end: the host suite run through CGP_HOST_CMD (a host in another
// process) gives the in-process verdicts — the honest bundled host passes, a misbehaving one is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite } from '../../src/conformance/run-suite.js';

const SERVER = `${process.execPath} --import tsx src/conformance/host/control-server.ts`;

test('host control protocol: the honest bundled host passes C6 through a controlled process; skip-consent-gate is caught', async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-host-control-'));
  const honest = await runSuite({ side: 'host', hostCommand: SERVER, tags: '@C6', reportName: 'honest', reportsDir, progress: null });
  assert.equal(honest.success, true, JSON.stringify(honest.summary.scenarios.map((s) => [s.name, s.status, s.message])));
  assert.ok(honest.summary.totals.passed >= 1);
  assert.match(honest.targetLabel ?? '', /host process/);
  const bad = await runSuite({ side: 'host', hostCommand: `${SERVER} --misbehave skip-consent-gate`, tags: '@C6', reportName: 'bad', reportsDir, progress: null });
  assert.equal(bad.success, false);
  const failed = bad.summary.scenarios.filter((s) => s.status === 'failed');
  assert.ok(failed.length >= 1);
  assert.match(failed[0]!.message ?? '', /^C6 violated/m);
});
