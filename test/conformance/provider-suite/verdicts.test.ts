// False verdicts seen on implementations nobody here wrote , each reproduced with a scripted peer
// (test/fixtures/provider/scripted-provider.ts: the bundled provider plus one quirk) before it was fixed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSuite, type RunSuiteOptions, type RunSuiteResult } from '../../../src/conformance/run/run-suite.js';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import { findPackageRoot } from '../../../src/util/package-root.js';
import { FAST_TIMEOUTS, SCRIPTED_PROVIDER, scriptedRunner, startScriptedHttp } from '../../fixtures/provider/scripted-runs.js';

const ROOT = findPackageRoot();
const REPORTS = mkdtempSync(join(tmpdir(), 'cgp-verdicts-test-'));

const run = scriptedRunner('v');

function idStatus(s: SuiteSummary, id: string): string | undefined {
  return s.ids.find((i) => i.id === id)?.status;
}

function failures(s: SuiteSummary): string[] {
  return s.scenarios.filter((sc) => sc.status === 'failed').map((sc) => `${sc.uri}:${sc.line} ${sc.message ?? sc.harness_error ?? ''}`);
}

describe('false verdicts, each with a scripted peer', () => {
  it('HTTP: an error envelope sent with status 400 is the reply (no collateral H4, U3, S2-wire-shape)', { timeout: 120_000 }, async () => {
    const url = await startScriptedHttp('http-400');
    const result = await run('http-400', '@H4 or @U3 or @S2-wire-shape', { target: { kind: 'http', url } });
    assert.equal(result.summary.harness_errors, 0);
    assert.deepEqual(failures(result.summary), []);
    for (const id of ['H4', 'U3', 'S2-wire-shape']) assert.notEqual(idStatus(result.summary, id), 'failed', `${id} is not failed`);
    assert.equal(result.success, true);
  });

  it('R1: a correlating provider answering the valid query before the malformed one is not told the malformed input got no reply', { timeout: 120_000 }, async () => {
    const result = await run('r1-out-of-order', '@R1');
    assert.deepEqual(failures(result.summary), []);
    const r1 = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'R1'));
    assert.deepEqual(
      r1.map((f) => f.message),
      [],
    );
    assert.equal(idStatus(result.summary, 'R1'), 'witnessed');
  });

  it('a stray non-envelope line is reported once, against S2-wire-shape with the line, and blamed on no scenario', { timeout: 180_000 }, async () => {
    const result = await run('stray-line', '@B1 or @B4 or @F1 or @F2 or @F3 or @H4 or @U1');
    assert.equal(result.summary.harness_errors, 0);
    assert.deepEqual(failures(result.summary), [], 'no scenario fails for a line it did not cause');
    const wire = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'S2-wire-shape' && f.severity === 'error'));
    assert.equal(wire.length, 1, JSON.stringify(wire));
    assert.match(wire[0]!.message, /warming index 42%/);
    assert.equal(idStatus(result.summary, 'S2-wire-shape'), 'failed');
    for (const id of ['B1', 'B4', 'F1', 'H4', 'U1']) assert.equal(idStatus(result.summary, id), 'witnessed', id);
    assert.equal(result.success, false, 'a MUST (S2-wire-shape) failed');
  });

  it('a provider that prints garbage does not pass "every line the provider writes is exactly one envelope"', { timeout: 120_000 }, async () => {
    const result = await run('garbage', '@S2.1-no-newline');
    const scenario = result.summary.scenarios.find((s) => s.ids.includes('S2.1-no-newline'));
    assert.ok(scenario);
    assert.equal(scenario.status, 'failed', JSON.stringify(scenario));
    assert.equal(idStatus(result.summary, 'S2-wire-shape'), 'failed');
    assert.equal(result.success, false);
  });

  it('a malformed digest on derivation provenance is S2-wire-shape, not F5 (F5 binds file provenance)', { timeout: 120_000 }, async () => {
    const result = await run('derivation-digest', '@F5');
    assert.notEqual(idStatus(result.summary, 'F5'), 'failed');
    const f5 = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'F5'));
    assert.deepEqual(f5, []);
    assert.equal(idStatus(result.summary, 'S2-wire-shape'), 'failed');
    assert.equal(result.success, false);
  });

  it('a contextgraph/1.0-draft ack to a contextgraph/2.0 handshake cites H1 and H3', { timeout: 120_000 }, async () => {
    const result = await run('draft-ack', '@H3');
    assert.equal(idStatus(result.summary, 'H3'), 'failed');
    assert.equal(idStatus(result.summary, 'H1'), 'failed');
    const h1 = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'H1'));
    assert.ok(
      h1.some((f) => /contextgraph\/1\.0-draft/.test(f.message) && /contextgraph\/2/.test(f.message)),
      JSON.stringify(h1),
    );
  });

  it('V4: a replacement_digest naming another rendering the provider serves for that frame id is current', { timeout: 120_000 }, async () => {
    const result = await run('v4-compact', '@V4');
    const v4 = result.summary.scenarios.flatMap((s) => s.findings.filter((f) => f.id === 'V4'));
    assert.deepEqual(
      v4.map((f) => f.message),
      [],
    );
    assert.equal(idStatus(result.summary, 'V4'), 'witnessed');
  });
});

describe('sensitivity: a finding counts for its id wherever it is observed', () => {
  it('a score outside [0, 1] on anchored queries only fails F1 (seen in a G4 scenario)', { timeout: 120_000 }, async () => {
    const result = await runSuite({
      side: 'provider',
      reportName: `v-anchored-score`,
      reportsDir: REPORTS,
      progress: null,
      timeouts: FAST_TIMEOUTS,
      tags: '@G4',
      misbehave: 'bad-score-on-anchored',
    });
    assert.equal(idStatus(result.summary, 'F1'), 'failed');
    assert.equal(result.success, false);
  });
});

describe('a stalled target: a named timeout, then a new connection (docs/interpretations.md §88)', () => {
  it('the timeout names the outstanding request, the time waited and the bytes received; the next scenario is judged on a new shared connection, not failed fast', { timeout: 120_000 }, async () => {
    const result = await run('stall-partial', '@B1 or @B4 or @F1 or @F2 or @F3 or @H4 or @U1 or @D1', { timeouts: { handshakeMs: 6_000, requestMs: 1_500, shutdownGraceMs: 1_000 } });
    const failed = result.summary.scenarios.filter((s) => s.status === 'failed' && s.harness_error === undefined);
    const first = failed.find((s) => /timed out after 1500 ms/.test(s.message ?? ''));
    assert.ok(first, failed.map((s) => s.message).join('\n'));
    assert.match(first.message!, /outstanding: query/);
    assert.match(first.message!, /sent \d+ ms ago/);
    assert.match(first.message!, /the last 98 with no newline/);
    // no cascade: no scenario fails for a stall it did not meet
    for (const s of result.summary.scenarios) assert.doesNotMatch(s.message ?? '', /target unresponsive since scenario/, s.name);
    // each stall is met, and reported, by the scenario whose own exchange timed out (every process of this peer
    // stalls after its 4th reply); the scenario after one gets a new, handshaken shared connection
    for (const s of failed) assert.match(s.message ?? '', /timed out after 1500 ms/, s.name);
    const at = result.summary.scenarios.indexOf(first);
    const next = result.summary.scenarios[at + 1];
    assert.ok(next, 'a scenario runs after the stall');
    assert.ok(
      next.notes?.some((n) => /a new shared connection was opened and handshaken for this scenario: a read on it timed out in scenario/.test(n)),
      JSON.stringify(next.notes),
    );
    assert.ok(
      result.summary.scenarios.some((s) => s.status === 'passed'),
      'scenarios after a stall still pass',
    );
  });
});
