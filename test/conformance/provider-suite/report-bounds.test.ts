// Regression (found by `npm run fuzz`): a reply flooding 10 000 frames made 100 000 findings, each
// of which copied the scenario's whole transcript into the JSON report — "Invalid string length", exit 2
// instead of a report. Only the first MAX_FINDINGS_WITH_EVIDENCE findings of a scenario carry their
// evidence; the rest say where it is, and the report serialises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_FINDINGS_WITH_EVIDENCE, reportFindings } from '../../../src/conformance/provider-suite/cli-report.js';
import type { SuiteSummary } from '../../../src/conformance/provider-suite/summary.js';
import type { WireEntry } from '../../../src/conformance/evidence/evidence.js';

describe('JSON report of a flood', () => {
  it('10 000 findings over a 10 000-line transcript: bounded evidence, the report serialises', () => {
    const line = JSON.stringify({ type: 'frames', result: { frames: [{ id: 'x'.repeat(900) }] } });
    const transcript: WireEntry[] = Array.from({ length: 10_000 }, (_, i) => ({ direction: i === 0 ? 'sent' : 'received', connection: 'shared', t_ms: i, line, bytes: line.length }));
    const summary: SuiteSummary = {
      success: false,
      scenarios: [
        {
          name: 'flood',
          uri: 'features/provider/budget.feature',
          line: 1,
          ids: ['B1'],
          status: 'failed',
          findings: Array.from({ length: 10_000 }, (_, i) => ({ id: 'B1', severity: 'error' as const, pointer: `/result/frames/${i}`, message: `B1: frame ${i} over budget` })),
          transcript,
        },
      ],
      ids: [],
      totals: { passed: 0, failed: 1, 'not-applicable': 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 },
      harness_errors: 0,
    };
    const findings = reportFindings(summary);
    assert.equal(findings.length, 10_000, 'no finding is dropped');
    assert.equal(findings.filter((f) => f.evidence.length > 0).length, MAX_FINDINGS_WITH_EVIDENCE);
    assert.ok(findings.slice(MAX_FINDINGS_WITH_EVIDENCE).every((f) => f.evidence.length === 0 && /transcript attachment has every line/.test(f.evidence_omitted ?? '')));
    const json = JSON.stringify(findings);
    // 25 copies of a ~9 MB transcript at most, never 10 000
    assert.ok(json.length < (MAX_FINDINGS_WITH_EVIDENCE + 1) * transcript.length * (line.length + 100), `${json.length} characters`);
  });
});
