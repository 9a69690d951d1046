// Isolation (docs/interpretations.md §87, §88): one fault on the shared connection is reported once, by the
// scenario that met it; the next scenario gets a new, handshaken shared connection; a failed precondition is
// inconclusive, never a violation. Each shape reproduced with a scripted peer (test/fixtures/provider/scripted-provider.ts).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import { FAST_TIMEOUTS, SCRIPTED_PROVIDER, scriptedRunner } from '../../fixtures/provider/scripted-runs.js';
import { runSuite } from '../../../src/conformance/run/run-suite.js';
import { findPackageRoot } from '../../../src/util/package-root.js';
import { HarnessError, Inconclusive } from '../../../src/conformance/provider-suite/index.js';

describe('Inconclusive', () => {
  it('is a HarnessError named Inconclusive whose message begins "could not observe <IDs>: " (no "harness error" prefix)', () => {
    const err = new Inconclusive(['F2', 'D1'], 'the generous baseline query: no reply');
    assert.ok(err instanceof HarnessError);
    assert.equal(err.name, 'Inconclusive');
    assert.equal(err.message, 'could not observe F2, D1: the generous baseline query: no reply');
    assert.deepEqual(err.ids, ['F2', 'D1']);
    assert.equal(new Inconclusive('V3', 'x').message, 'could not observe V3: x');
  });
});

const run = scriptedRunner('iso');

/** Shared-connection scenarios before and after the malformed verify (correlation.feature), and the F/G/V ones after. */
const TAGS = '(@H4 and @needs-verify) or @F1 or @F2 or @G1 or @V2 or @S3.2-id-optional';

function failedIds(s: SuiteSummary): string[] {
  return s.ids
    .filter((i) => i.status === 'failed')
    .map((i) => i.id)
    .sort();
}

/** Scenarios failed against the target (a harness error or an inconclusive one is not). */
function targetFailures(s: SuiteSummary): string[] {
  return s.scenarios.filter((sc) => sc.status === 'failed' && sc.harness_error === undefined).map((sc) => `${sc.name}: ${sc.message ?? ''}`);
}

describe('one fault on the shared connection is one finding', () => {
  for (const [quirk, how] of [
    ['silent-malformed-verify', /no reply \(TimeoutError/],
    ['exit-malformed-verify', /no reply \(PeerClosedError: .*exit code 1.*Traceback/s],
  ] as const) {
    it(`${quirk}: H4 fails once, with its evidence; every later scenario is judged on a new connection`, { timeout: 120_000 }, async () => {
      const result = await run(quirk, TAGS);
      const s = result.summary;
      assert.deepEqual(failedIds(s), ['H4'], JSON.stringify(targetFailures(s)));
      const failures = targetFailures(s);
      assert.equal(failures.length, 1, failures.join('\n'));
      assert.match(failures[0]!, /^A malformed verify's id is echoed.*H4: a malformed verify carrying an id/s);
      assert.match(failures[0]!, how);
      assert.equal(s.harness_errors, 0, 'no scenario is inconclusive: the new connection answers');
      const next = s.scenarios[s.scenarios.findIndex((sc) => sc.status === 'failed') + 1]!;
      assert.equal(next.status, 'passed', JSON.stringify(next));
      assert.ok(
        next.notes?.some((n) => /a new shared connection was opened and handshaken for this scenario/.test(n) && /which reported it/.test(n)),
        JSON.stringify(next.notes),
      );
      assert.ok(s.scenarios.filter((sc) => sc.status === 'passed').length >= 5);
      assert.equal(result.success, false);
    });
  }

  it('a defect seen after the fault is not masked: H4 for the fault, F1 for a score of 1.5, each once, nothing else', { timeout: 120_000 }, async () => {
    const result = await run('silent-malformed-verify-bad-score', TAGS);
    const s = result.summary;
    assert.deepEqual(failedIds(s), ['F1', 'H4'], JSON.stringify(targetFailures(s)));
    assert.equal(s.harness_errors, 0);
    const f1 = targetFailures(s).filter((f) => /F1 violated/.test(f));
    assert.ok(f1.length >= 1 && f1.every((f) => /score 1\.5/.test(f)), f1.join('\n'));
  });

  it('a lost connection that cannot be replaced: every later scenario is inconclusive, naming both causes, none failed', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cgp-iso-starts-'));
    const result = await run('exit-malformed-verify-once', TAGS, {
      target: { kind: 'stdio', command: process.execPath, args: ['--import', 'tsx', SCRIPTED_PROVIDER, 'exit-malformed-verify-once', dir], cwd: findPackageRoot() },
    });
    const s = result.summary;
    assert.deepEqual(failedIds(s), ['H4'], JSON.stringify(targetFailures(s)));
    assert.equal(targetFailures(s).length, 1, targetFailures(s).join('\n'));
    const after = s.scenarios.slice(s.scenarios.findIndex((sc) => sc.status === 'failed' && sc.harness_error === undefined) + 1);
    assert.ok(after.length >= 4, `${after.length} scenarios after the fault`);
    for (const sc of after) {
      assert.notEqual(sc.status, 'passed', sc.name);
      assert.match(
        sc.harness_error ?? '',
        /^could not observe [^:]+: the shared connection was lost in scenario "A malformed verify's id is echoed on the error that refuses it" \(the process exited \(exit code 1\)\), and the new connection's handshake got PeerClosedError/,
        sc.name,
      );
      assert.ok(sc.harness_error!.includes(sc.ids.join(', ')), `${sc.harness_error} names ${sc.ids.join(', ')}`);
    }
    assert.equal(s.harness_errors, after.length);
  });
});

describe('a failed precondition is never a violation', () => {
  it('no reply to the baseline query in an F2 scenario: inconclusive "could not observe F2: …", F2 not failed', { timeout: 120_000 }, async () => {
    const result = await runSuite({
      side: 'provider',
      reportName: 'iso-precondition',
      reportsDir: mkdtempSync(join(tmpdir(), 'cgp-iso-pre-')),
      progress: null,
      timeouts: FAST_TIMEOUTS,
      misbehave: 'hang-on-query',
      tags: '@F2',
    });
    const s = result.summary;
    assert.deepEqual(failedIds(s), []);
    assert.deepEqual(targetFailures(s), []);
    const f2 = s.scenarios.filter((sc) => sc.ids.includes('F2'));
    assert.ok(f2.length > 0);
    for (const sc of f2) assert.match(sc.harness_error ?? '', /^could not observe F2: the generous baseline query: no reply \(TimeoutError/, sc.name);
    assert.notEqual(s.ids.find((i) => i.id === 'F2')?.status, 'failed');
  });
});
