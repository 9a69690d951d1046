// The run's outcome (src/conformance/report/outcome.ts), the one model every output renders, from synthetic
// cucumber messages: scenario statuses (a harness error is inconclusive, "unverified: needs …" unverified,
// neither ever failed), ids[] and findings[] agreeing id by id, the summary line, the JUnit counts, and a
// baseline accepting an id seen only in replies to other probes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FINDING_MEDIA_TYPE, HARNESS_ERROR_MEDIA_TYPE } from '../../../src/conformance/evidence/attachments.js';
import { summarize, type CucumberMessage } from '../../../src/conformance/provider-suite/summary.js';
import { runOutcome, summaryLine } from '../../../src/conformance/report/outcome.js';
import { renderJunit } from '../../../src/conformance/report/junit.js';
import { applyKnownFailures } from '../../../src/conformance/report/known-failures.js';
import { parseMessages } from '../../../src/conformance/report/messages.js';
import { buildCoverageFromScenarios } from '../../../src/conformance/report/build.js';
import { renderBugReport } from '../../../src/conformance/report/bug-report.js';
import { checkReply } from '../../../src/conformance/provider-suite/checks.js';

interface Planned {
  name: string;
  tags: string[];
  status: 'PASSED' | 'FAILED';
  message?: string;
  findings?: Array<{ id: string; severity: 'error' | 'warning'; message: string }>;
  harness?: string;
}

/** Cucumber messages for a run of these scenarios, one step each. */
function messages(planned: readonly Planned[]): CucumberMessage[] {
  const out: CucumberMessage[] = [];
  planned.forEach((p, i) => {
    const n = String(i + 1);
    const envelopes: Array<Record<string, unknown>> = [
      { gherkinDocument: { uri: 'features/provider/x.feature', feature: { children: [{ scenario: { id: `ast${n}`, location: { line: 10 * (i + 1) } } }] } } },
      { pickle: { id: `p${n}`, uri: 'features/provider/x.feature', name: p.name, tags: ['@provider', ...p.tags].map((t) => ({ name: t })), astNodeIds: [`ast${n}`] } },
      { testCase: { id: `tc${n}`, pickleId: `p${n}`, testSteps: [{ id: `ts${n}` }] } },
      { testCaseStarted: { id: `s${n}`, testCaseId: `tc${n}` } },
      ...(p.findings ?? []).map((f) => ({ attachment: { testCaseStartedId: `s${n}`, mediaType: FINDING_MEDIA_TYPE, body: JSON.stringify({ ...f, pointer: '' }) } })),
      ...(p.harness !== undefined ? [{ attachment: { testCaseStartedId: `s${n}`, mediaType: HARNESS_ERROR_MEDIA_TYPE, body: JSON.stringify({ harness_error: p.harness }) } }] : []),
      { testStepFinished: { testCaseStartedId: `s${n}`, testStepId: `ts${n}`, testStepResult: { status: p.status, ...(p.message !== undefined ? { message: p.message } : {}) } } },
      { testCaseFinished: { testCaseStartedId: `s${n}`, willBeRetried: false } },
    ];
    out.push(...(envelopes as CucumberMessage[]));
  });
  out.push({ testRunFinished: { success: false } });
  return out;
}

const RUN: Planned[] = [
  // passes its own B4; a reply it received broke F4 (a MUST) and S6.3-content-digest (a SHOULD)
  {
    name: 'max_frames honoured',
    tags: ['@B4'],
    status: 'PASSED',
    findings: [
      { id: 'F4', severity: 'error', message: 'F4 violated: frame "a" has valid_from "last tuesday"' },
      { id: 'S6.3-content-digest', severity: 'warning', message: 'S6.3-content-digest warning: digest differs' },
    ],
  },
  // a failure that names its ids and no finding
  { name: 'budget held', tags: ['@B1', '@B3'], status: 'FAILED', message: 'B1, B3: the target failed during this step: TimeoutError: no reply' },
  // a failed precondition
  {
    name: 'generous query',
    tags: ['@F2'],
    status: 'FAILED',
    message: 'Inconclusive: could not observe F2: no reply to the baseline query',
    harness: 'could not observe F2: no reply to the baseline query',
  },
  // a host lacking a test hook, through the HarnessError prefix
  { name: 'no credential logged', tags: ['@C8'], status: 'FAILED', harness: 'harness error (not a target finding): unverified: needs http — C8 binds every host' },
];

describe('the run outcome', () => {
  const summary = summarize(messages(RUN));
  const outcome = runOutcome(summary);

  it('statuses: inconclusive and unverified are their own, never failed; the reason loses the harness-error prefix', () => {
    assert.deepEqual(
      summary.scenarios.map((s) => s.status),
      ['passed', 'failed', 'inconclusive', 'unverified'],
    );
    assert.equal(summary.scenarios[3]!.harness_error, 'unverified: needs http — C8 binds every host');
    assert.deepEqual(outcome.totals, { passed: 1, failed: 1, 'not-applicable': 0, inconclusive: 1, unverified: 1, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 });
    assert.equal(summary.harness_errors, 2);
  });

  it('ids[] and findings[] agree: an id is failed exactly when an error finding names it, warning when only a warning does', () => {
    const byStatus = (st: string) =>
      summary.ids
        .filter((i) => i.status === st)
        .map((i) => i.id)
        .sort();
    const errorIds = [...new Set(outcome.findings.filter((f) => f.severity === 'error').map((f) => f.id))].sort();
    assert.deepEqual(byStatus('failed'), errorIds);
    assert.deepEqual(errorIds, ['B1', 'B3', 'F4']);
    assert.deepEqual(byStatus('warning'), ['S6.3-content-digest']);
    assert.deepEqual(byStatus('witnessed'), ['B4']);
    assert.deepEqual(byStatus('unwitnessed'), ['C8', 'F2']);
    const f4 = outcome.findings.find((f) => f.id === 'F4')!;
    assert.equal(f4.seen_in, 'other-probe');
    assert.equal(f4.scenario.name, 'max_frames honoured');
    assert.deepEqual(outcome.otherProbeIds, ['F4']);
    // a failure naming two ids and no finding: one finding per id, from its message
    assert.deepEqual(
      outcome.findings.filter((f) => f.scenario.name === 'budget held').map((f) => [f.id, f.seen_in, f.message]),
      [
        ['B1', 'own-probe', 'B1, B3: the target failed during this step: TimeoutError: no reply'],
        ['B3', 'own-probe', 'B1, B3: the target failed during this step: TimeoutError: no reply'],
      ],
    );
  });

  it('the coverage report charges the same ids', () => {
    const text = messages(RUN)
      .map((m) => JSON.stringify(m))
      .join('\n');
    const report = buildCoverageFromScenarios(parseMessages('run.ndjson', text).scenarios, { target: 't', side: 'both', toolVersion: '0' });
    const status = (id: string) => [...report.anchors, ...report.rules].find((e) => e.id === id)!.status;
    for (const i of summary.ids) assert.equal(status(i.id), i.status, i.id);
    const witness = (id: string) => [...report.anchors, ...report.rules].find((e) => e.id === id)!.witnesses.map((w) => w.status);
    assert.deepEqual(witness('F2'), ['inconclusive']);
    assert.deepEqual(witness('C8'), ['unverified']);
  });

  it('the summary line names the failed and warned ids and counts inconclusive and unverified apart', () => {
    assert.equal(
      summaryLine(outcome),
      '4 scenarios: 1 passed, 1 failed, 0 not applicable, 1 inconclusive, 1 unverified (needs http: 1), 0 other; failed ids: F4 (only in replies to other probes), B1, B3; warned ids: S6.3-content-digest',
    );
  });

  it('JUnit: one failure per failed scenario and per id failed only in replies to other probes; inconclusive and unverified are errors', () => {
    const xml = renderJunit(summary, { targetName: 't' });
    assert.match(xml, /<testsuites name="cgp-conformance: t" tests="5" failures="2" errors="2" skipped="0">/);
    assert.match(xml, /<error message="could not observe F2: no reply to the baseline query" type="Inconclusive">/);
    assert.match(xml, /<error message="unverified: needs http — C8 binds every host" type="Unverified">/);
    assert.match(xml, /name="F4 \[seen in replies to other probes\]"[^>]*>\s*<failure message="F4 violated: frame &quot;a&quot; has valid_from &quot;last tuesday&quot;"/);
    assert.match(xml, /seen in a reply to this scenario&#39;s probe \(reported under F4\)|seen in a reply to this scenario's probe \(reported under F4\)/);
  });

  it('a baseline: an id entry accepts a violation seen only in replies to other probes; without one it is unlisted', () => {
    const listed = applyKnownFailures(summary, [
      { id: 'F4', reason: 'timestamps are fixed in 2.0', where: 'b entry 1' },
      { id: 'B1', reason: 'budget later', where: 'b entry 2' },
      { id: 'B3', reason: 'budget later', where: 'b entry 3' },
    ]);
    assert.deepEqual(
      listed.acceptedIds.map((a) => a.id),
      ['F4'],
    );
    assert.deepEqual(listed.unlistedIds, []);
    assert.deepEqual(listed.unlisted, []);
    assert.deepEqual(listed.stale, []);
    const unlisted = applyKnownFailures(summary, []);
    assert.deepEqual(unlisted.unlistedIds, ['F4']);
    assert.deepEqual(
      unlisted.unlisted.map((s) => s.name),
      ['budget held'],
      'an inconclusive scenario is not a failure to list',
    );
    const xml = renderJunit(summary, { targetName: 't', acceptedIds: new Map([['F4', 'timestamps are fixed in 2.0']]) });
    assert.match(xml, /tests="5" failures="1"/);
    assert.match(xml, /known failure \(baseline\): F4 violated.* — accepted because: timestamps are fixed in 2\.0/);
  });

  it('a violation of another id seen by a scenario that failed on its own: still under its own id, its own testcase, its own baseline entry', () => {
    const mixed = summarize(
      messages([
        {
          name: 'max_frames 1',
          tags: ['@B4'],
          status: 'FAILED',
          message: 'B4 violated: 6 frames returned',
          findings: [
            { id: 'B4', severity: 'error', message: 'B4 violated: 6 frames returned' },
            { id: 'H4', severity: 'error', message: 'H4 violated: the error reply carries no id' },
          ],
        },
      ]),
    );
    const o = runOutcome(mixed);
    assert.deepEqual(
      o.findings.map((f) => [f.id, f.seen_in]),
      [
        ['B4', 'own-probe'],
        ['H4', 'other-probe'],
      ],
    );
    assert.deepEqual(o.otherProbeIds, ['H4']);
    assert.match(summaryLine(o), /; failed ids: B4, H4 \(only in replies to other probes\); warned ids: none$/);
    const xml = renderJunit(mixed, { targetName: 't' });
    assert.match(xml, /tests="2" failures="2"/);
    assert.match(xml, /name="H4 \[seen in replies to other probes\]"/);
    assert.match(xml, /reported under H4\): H4 violated: the error reply carries no id/);
    const b = applyKnownFailures(mixed, [{ id: 'B4', reason: 'later', where: 'b entry 1' }]);
    assert.deepEqual(
      b.accepted.map((a) => a.entry.id),
      ['B4'],
      'the scenario is accepted by its own id',
    );
    assert.deepEqual(b.unlistedIds, ['H4'], 'H4 stays unlisted, once');
    assert.deepEqual(b.unlisted, []);
  });

  it('an error reply without its id reads as a sentence, in the finding and the bug report title', () => {
    const ev = checkReply({ type: 'error', error: { code: 'invalid_request', message: 'bad' } }, { requestId: 'q-7' });
    const h4 = ev.findings.find((f) => f.id === 'H4');
    assert.ok(h4, JSON.stringify(ev.findings));
    assert.match(h4.message, /^H4 violated: the error reply carries no id; the request carried id "q-7"/);
    assert.doesNotMatch(h4.message, /carries id absent/);
    const title = renderBugReport('H4', [{ ...h4, scenario: { name: 's', uri: 'u', line: 1, ids: ['R1'] }, seen_in: 'other-probe', evidence: [] }], {
      targetName: 't',
      targetLabel: 't',
      toolVersion: '0',
      repro: (id) => `repro ${id}`,
    }).split('\n')[0];
    assert.match(title!, /^# `H4` violated: the error reply carries no id; /);
  });
});
