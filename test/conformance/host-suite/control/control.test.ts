// The host control protocol end to end: the host suite run through CGP_HOST_CMD (a host in another
// process) gives the in-process verdicts — the honest bundled host passes, a misbehaving one is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite } from '../../../../src/conformance/run/run-suite.js';
import { findPackageRoot } from '../../../../src/util/package-root.js';

const SERVER = `${process.execPath} --import tsx src/conformance/host-suite/control/control-server.ts`;

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

// The bundle users are told to run (docs/host-control-protocol.md): dist/bundle/control-server.cjs, built by
// `npm run build` / prepare from the same compiled code. Every scenario's verdict over it must equal the
// in-process adapter's, and a misbehaving variant served by it must be caught.
const BUNDLE = join(findPackageRoot(), 'dist', 'bundle', 'control-server.cjs');

test(
  'host control protocol: the bundled control server (dist/bundle) gives every in-process verdict, reused across sessions and fresh per session; a misbehaving variant is caught',
  { timeout: 240_000 },
  async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: npm run build produces it`);
    const reportsDir = mkdtempSync(join(tmpdir(), 'cgp-host-bundle-'));
    const verdicts = (r: Awaited<ReturnType<typeof runSuite>>) => r.summary.scenarios.map((s) => `${s.uri}:${s.line} ${s.status}`).sort();
    const inProcess = await runSuite({ side: 'host', reportName: 'in-process', reportsDir, progress: null });
    const bundled = await runSuite({ side: 'host', hostCommand: `${process.execPath} ${BUNDLE}`, reportName: 'bundle', reportsDir, progress: null });
    assert.equal(bundled.success, true, JSON.stringify(bundled.summary.scenarios.filter((s) => s.status !== 'passed').map((s) => [s.name, s.status, s.message])));
    assert.ok(bundled.summary.scenarios.length >= 60, `${bundled.summary.scenarios.length} scenarios`);
    assert.deepEqual(verdicts(bundled), verdicts(inProcess));
    assert.deepEqual(
      bundled.summary.ids.map((i) => `${i.id} ${i.status}`),
      inProcess.summary.ids.map((i) => `${i.id} ${i.status}`),
    );
    // the bundled server declares sessions "many": the same verdicts with every session in a process of its own
    process.env.CGP_HOST_REUSE = '0';
    let fresh: Awaited<ReturnType<typeof runSuite>>;
    try {
      fresh = await runSuite({ side: 'host', hostCommand: `${process.execPath} ${BUNDLE}`, reportName: 'bundle-fresh', reportsDir, progress: null });
    } finally {
      delete process.env.CGP_HOST_REUSE;
    }
    assert.deepEqual(verdicts(fresh), verdicts(inProcess));
    assert.deepEqual(
      fresh.summary.ids.map((i) => `${i.id} ${i.status}`),
      inProcess.summary.ids.map((i) => `${i.id} ${i.status}`),
    );
    const bad = await runSuite({ side: 'host', hostCommand: `${process.execPath} ${BUNDLE} --misbehave skip-consent-gate`, tags: '@C6', reportName: 'bundle-bad', reportsDir, progress: null });
    assert.equal(bad.success, false);
    assert.match(bad.summary.scenarios.find((s) => s.status === 'failed')?.message ?? '', /^C6 violated/m);
  },
);
