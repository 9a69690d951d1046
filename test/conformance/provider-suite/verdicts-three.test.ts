// False verdicts on honest providers (docs/interpretations.md §89–§92), each reproduced red with a scripted
// peer (test/fixtures/provider/scripted-provider.ts: the bundled provider plus one quirk) before it was fixed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import { scriptedRunner } from '../../fixtures/provider/scripted-runs.js';

const run = scriptedRunner('v3-');

function idStatus(s: SuiteSummary, id: string): string | undefined {
  return s.ids.find((i) => i.id === id)?.status;
}

function findings(s: SuiteSummary, id: string): string[] {
  return s.scenarios.flatMap((sc) => sc.findings.filter((f) => f.id === id).map((f) => `${f.severity}: ${f.message}`));
}

function failures(s: SuiteSummary): string[] {
  return s.scenarios.filter((sc) => sc.status === 'failed').map((sc) => `${sc.uri}:${sc.line} ${sc.message ?? sc.harness_error ?? ''}`);
}

describe('false verdicts on honest providers', () => {
  it('P5: a raw-handshake connection is judged against its own ack (compact advertised and served by default)', { timeout: 120_000 }, async () => {
    const result = await run('compact-default', '@S2.1-no-newline');
    assert.deepEqual(findings(result.summary, 'P5'), []);
    assert.deepEqual(failures(result.summary), []);
    assert.equal(result.success, true);
  });

  it('B1: an anchored query answered budget_unsatisfiable by a provider that packs by rank is within the budget', { timeout: 120_000 }, async () => {
    const result = await run('pack-by-rank', '@B1');
    assert.deepEqual(failures(result.summary), []);
    assert.equal(idStatus(result.summary, 'B1'), 'witnessed');
    const notes = result.summary.scenarios.flatMap((sc) => sc.notes ?? []);
    assert.ok(
      notes.some((n) => /budget_unsatisfiable.*accepted/.test(n)),
      JSON.stringify(notes),
    );
  });

  it('R1: an error reply that is not JSON is S2-wire-shape, and at most R1 SHOULD when the next query is answered', { timeout: 120_000 }, async () => {
    const result = await run('non-json-error', '@R1');
    assert.notEqual(idStatus(result.summary, 'R1'), 'failed', JSON.stringify(findings(result.summary, 'R1')));
    assert.ok(
      findings(result.summary, 'R1').some((f) => /^warning: R1 warning: .*not an envelope \(reported under S2-wire-shape\)/.test(f)),
      JSON.stringify(findings(result.summary, 'R1')),
    );
    assert.equal(idStatus(result.summary, 'S2-wire-shape'), 'failed');
  });

  it('V3: stale for a frame served moments ago is the safe direction: a warning, not a MUST failure', { timeout: 120_000 }, async () => {
    const result = await run('stale-served', '@V3');
    assert.notEqual(idStatus(result.summary, 'V3'), 'failed', JSON.stringify(findings(result.summary, 'V3')));
    assert.equal(idStatus(result.summary, 'V3'), 'warning');
    assert.ok(findings(result.summary, 'V3').every((f) => f.startsWith('warning: ')));
  });

  it('S3-handshake-first: a query held until after the handshake and answered then moved no payload early', { timeout: 120_000 }, async () => {
    const result = await run('held-early-query', '@S3-handshake-first');
    assert.deepEqual(findings(result.summary, 'S3-handshake-first'), []);
    assert.deepEqual(failures(result.summary), []);
    const notes = result.summary.scenarios.flatMap((sc) => sc.notes ?? []);
    assert.ok(
      notes.some((n) => /held and answered after the handshake_ack/.test(n)),
      JSON.stringify(notes),
    );
  });

  it('S6.2: a line range digested without its last newline is accepted (the spec is open on it)', { timeout: 120_000 }, async () => {
    const result = await run('range-no-newline', '@S6.2-digested-bytes');
    assert.deepEqual(findings(result.summary, 'S6.2-digested-bytes'), []);
    assert.equal(idStatus(result.summary, 'S6.2-digested-bytes'), 'witnessed');
    const notes = result.summary.scenarios.flatMap((sc) => sc.notes ?? []);
    assert.ok(
      notes.some((n) => /without the last line's newline: accepted/.test(n)),
      JSON.stringify(notes),
    );
  });
});
