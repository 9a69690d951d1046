/**
 * One run's outcome, the ONE model every output is rendered from (docs/architecture.md "How a verdict is
 * made", step 6): the summary line and the text report (src/conformance/provider-suite/cli-report.ts), the JUnit file
 * (junit.ts), the JSON report's `findings[]`, the bug reports (bug-report.ts) and the page's failures
 * (render-html.ts). Every failed or warned id is here with its finding and evidence, so no output can tell
 * a different story:
 *
 * - a failed scenario's findings (or, when it names none, one per id it is charged with: failingIds);
 * - an error finding in a scenario that did not fail on it — a violation seen in a reply to another probe
 *   (`seen_in: "other-probe"`) — is a finding under its own id, naming the scenario that observed it; an id
 *   all of whose findings are such is listed in `otherProbeIds` (JUnit gives it a testcase of its own, the
 *   summary line says "only in replies to other probes");
 * - every warning;
 * - inconclusive and unverified scenarios are counted apart: never failed, never passed.
 */
import type { WireEntry } from '../evidence/evidence.js';
import { unverifiedCapability } from '../evidence/attachments.js';
import { FAILING_STATUSES, failingIds, leadingIds, type ScenarioStatus, type ScenarioSummary } from '../provider-suite/summary.js';

/** One finding of a run, with the wire evidence of the scenario that produced it. */
export interface ReportFinding {
  id: string;
  severity: 'error' | 'warning';
  pointer: string;
  message: string;
  /** The scenario whose exchange showed it. */
  scenario: { name: string; uri: string; line: number; ids: string[] };
  /**
   * `own-probe`: the scenario probes the id (is tagged with it), or its failure message names it;
   * `other-probe`: seen in a reply the scenario received while it probed other ids (its own ids may have passed).
   */
  seen_in: 'own-probe' | 'other-probe';
  evidence: WireEntry[];
  /** Set when this finding's evidence was left out to bound the report (see MAX_FINDINGS_WITH_EVIDENCE). */
  evidence_omitted?: string;
}

/**
 * Findings per scenario that carry their wire evidence. A target that fails thousands of frames in one reply
 * (a 10 000-frame flood) would otherwise copy the same lines into every finding, past what one JSON string
 * can hold ("Invalid string length"); the rest point at the first ones and at the scenario's transcript.
 */
export const MAX_FINDINGS_WITH_EVIDENCE = 25;

/**
 * The lines that show a finding: the exchange it was found in when the probe knows it (the request and its
 * reply), else the scenario's whole transcript.
 */
export function minimalEvidence(all: readonly WireEntry[], wire: readonly number[] | undefined): WireEntry[] {
  if (wire && wire.length > 0 && wire.every((i) => i >= 0 && i < all.length)) return wire.map((i) => all[i]!);
  return [...all];
}

/**
 * Every finding of the run, in scenario order: a failed scenario's error findings (one from its failure
 * message per charged id that no finding names, so a failure is never lost), every error finding of any other
 * scenario (seen in a reply to another probe, or attached before the scenario turned out inconclusive), and
 * every warning.
 */
export function reportFindings(summary: { scenarios: readonly ScenarioSummary[] }): ReportFinding[] {
  const out: ReportFinding[] = [];
  for (const sc of summary.scenarios) {
    const scenario = { name: sc.name, uri: sc.uri, line: sc.line, ids: sc.ids };
    const all = sc.transcript ?? [];
    let withEvidence = 0;
    const evidence = (f?: { wire?: number[] }): Pick<ReportFinding, 'evidence' | 'evidence_omitted'> =>
      ++withEvidence <= MAX_FINDINGS_WITH_EVIDENCE
        ? { evidence: minimalEvidence(all, f?.wire) }
        : { evidence: [], evidence_omitted: `the first ${MAX_FINDINGS_WITH_EVIDENCE} findings of this scenario carry their evidence; the scenario's transcript attachment has every line` };
    const failed = sc.status === 'failed';
    const charged = failed ? failingIds(sc) : [];
    // a finding for an id the scenario does not probe was seen in a reply to its probe of other ids, whatever
    // the scenario's own verdict
    const seenIn = (id: string): ReportFinding['seen_in'] => (sc.ids.includes(id) ? 'own-probe' : 'other-probe');
    const errors = sc.findings.filter((f) => f.severity === 'error');
    for (const f of errors) out.push({ id: f.id, severity: 'error', pointer: f.pointer, message: f.message, scenario, seen_in: seenIn(f.id), ...evidence(f) });
    if (failed) {
      const named = new Set(errors.map((f) => f.id));
      const fromMessage = charged.filter((id) => !named.has(id));
      // the message names the ids it is about; a message naming none is charged to every tagged id, as it is
      const message = sc.message ?? `${sc.ids.join(', ')}: the scenario failed`;
      for (const id of fromMessage)
        out.push({
          id,
          severity: 'error',
          pointer: '',
          message: leadingIds(message).includes(id) || fromMessage.length === 1 ? message : `${id}: ${message}`,
          scenario,
          seen_in: 'own-probe',
          ...evidence(),
        });
    }
    for (const f of sc.findings.filter((x) => x.severity === 'warning'))
      out.push({ id: f.id, severity: 'warning', pointer: f.pointer, message: f.message, scenario, seen_in: seenIn(f.id), ...evidence(f) });
  }
  return out;
}

export interface RunOutcome {
  scenarios: readonly ScenarioSummary[];
  findings: ReportFinding[];
  /** Scenarios that are a definite failure of the target (failed, undefined, pending, ambiguous). */
  failed: ScenarioSummary[];
  inconclusive: ScenarioSummary[];
  unverified: ScenarioSummary[];
  notApplicable: ScenarioSummary[];
  /** Ids with an error finding, in first-seen order. */
  failedIds: string[];
  /** Ids with a warning finding and no error, in first-seen order. */
  warnedIds: string[];
  /** Failed ids whose every error finding was seen in a reply to another probe (no scenario probing the id failed on it). */
  otherProbeIds: string[];
  /** Scenario counts by status. */
  totals: Record<ScenarioStatus, number>;
}

export function runOutcome(summary: { scenarios: readonly ScenarioSummary[] }): RunOutcome {
  const scenarios = summary.scenarios;
  const findings = reportFindings(summary);
  const failed = scenarios.filter((s) => FAILING_STATUSES.has(s.status));
  const failedIds = [...new Set(findings.filter((f) => f.severity === 'error').map((f) => f.id))];
  const warnedIds = [...new Set(findings.filter((f) => f.severity === 'warning' && !failedIds.includes(f.id)).map((f) => f.id))];
  const own = new Set(findings.filter((f) => f.severity === 'error' && f.seen_in === 'own-probe').map((f) => f.id));
  const otherProbeIds = failedIds.filter((id) => !own.has(id));
  const totals: Record<ScenarioStatus, number> = { passed: 0, failed: 0, 'not-applicable': 0, inconclusive: 0, unverified: 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 };
  for (const s of scenarios) totals[s.status]++;
  return {
    scenarios,
    findings,
    failed,
    inconclusive: scenarios.filter((s) => s.status === 'inconclusive'),
    unverified: scenarios.filter((s) => s.status === 'unverified'),
    notApplicable: scenarios.filter((s) => s.status === 'not-applicable'),
    failedIds,
    warnedIds,
    otherProbeIds,
    totals,
  };
}

/** The error findings of an id seen only in replies to other probes, first one first. */
export function otherProbeFindings(outcome: RunOutcome, id: string): ReportFinding[] {
  return outcome.findings.filter((f) => f.id === id && f.severity === 'error');
}

/**
 * The summary line (the text report's last verdict line, certify's per-run line):
 * `83 scenarios: 80 passed, 0 failed, 3 not applicable, 0 inconclusive, 0 unverified, 0 other; failed ids: H4 (only in replies to other probes); warned ids: none`.
 */
export function summaryLine(outcome: RunOutcome): string {
  const t = outcome.totals;
  const caps = new Map<string, number>();
  for (const s of outcome.unverified) {
    const cap = unverifiedCapability(s.harness_error ?? '') ?? 'a capability';
    caps.set(cap, (caps.get(cap) ?? 0) + 1);
  }
  const unverified = `${t.unverified} unverified${caps.size > 0 ? ` (${[...caps].map(([cap, n]) => `needs ${cap}: ${n}`).join(', ')})` : ''}`;
  const ids = (list: readonly string[]) => (list.length === 0 ? 'none' : list.map((id) => (outcome.otherProbeIds.includes(id) ? `${id} (only in replies to other probes)` : id)).join(', '));
  const inconclusiveRun = outcome.failedIds.length === 0 && outcome.failed.length === 0 && t.inconclusive + t.unverified > 0;
  return (
    `${outcome.scenarios.length} scenarios: ${t.passed} passed, ${t.failed} failed, ${t['not-applicable']} not applicable, ${t.inconclusive} inconclusive, ${unverified}, ${t.skipped + t.undefined + t.pending + t.ambiguous} other` +
    `; failed ids: ${ids(outcome.failedIds)}; warned ids: ${ids(outcome.warnedIds)}` +
    (inconclusiveRun ? ' — the run is inconclusive' : '')
  );
}
