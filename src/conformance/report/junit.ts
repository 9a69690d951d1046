/**
 * JUnit XML of one suite run, for CI dashboards (docs/interpretations.md §65), rendered from the run's outcome
 * (outcome.ts), the model every output shares: the suites are named after the target (as it identified
 * itself), one testsuite per feature file, one testcase per scenario. A failure's body carries its message
 * and the wire transcript that proves it; warnings go to <system-out>; a not-applicable scenario is
 * <skipped message="reason"/>; an inconclusive or unverified scenario is an <error> of type Inconclusive /
 * Unverified (never a failure, never a pass). A MUST violation seen only in replies to other probes is a
 * testcase of its own (suite "replies to other probes", testcase "<ID> [seen in replies to other probes]")
 * with a <failure> naming the scenarios that observed it, so a red run never shows green.
 */
import { formatTranscript } from '../evidence/evidence.js';
import { failingIds, FAILING_STATUSES, type ScenarioSummary, type SuiteSummary } from '../provider-suite/summary.js';
import { runOutcome, type ReportFinding } from './outcome.js';

export interface JunitOptions {
  /** The target's name for the suites: "example-docs 0.1.0" or the command/URL/host label. */
  targetName: string;
  /** Scenarios accepted by a baseline: reported as passed with the reason in <system-out>. */
  accepted?: ReadonlyMap<ScenarioSummary, string>;
  /** Ids failed only in replies to other probes accepted by a baseline (id → reason). */
  acceptedIds?: ReadonlyMap<string, string>;
  /** --strict: warnings are failures. */
  strict?: boolean;
}

/**
 * The name the JUnit file gives the target: the provider's `name version` from its ack, else `label` (the
 * run's label for its target).
 */
export function junitTargetName(summary: SuiteSummary, label: string): string {
  const ack = summary.target?.ack;
  const p = ack && typeof ack.provider === 'object' && ack.provider !== null ? (ack.provider as Record<string, unknown>) : undefined;
  if (p && typeof p.name === 'string' && p.name !== '') return `${p.name}${typeof p.version === 'string' ? ` ${p.version}` : ''}`;
  return label;
}

function xml(text: string): string {
  // XML 1.0 forbids most control characters even escaped: they are shown as \uXXXX.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function failureBody(s: ScenarioSummary): string {
  const lines = [s.message ?? `${s.ids.join(', ')}: the scenario ${s.status}`, '', `scenario: ${s.uri}:${s.line} ${s.name}`, `ids: ${failingIds(s).join(', ')}`];
  if (s.transcript && s.transcript.length > 0) lines.push('', 'wire transcript (>> sent to the target, << received from it; ms since the scenario started):', formatTranscript(s.transcript));
  return lines.join('\n');
}

/** The body of the testcase of an id failed only in replies to other probes: each observation and its evidence. */
function otherProbeBody(id: string, findings: readonly ReportFinding[]): string {
  const lines = [`${id} failed in replies the target sent to probes of other ids (a finding under its own id).`];
  for (const f of findings) {
    lines.push('', f.message, `seen by scenario: ${f.scenario.uri}:${f.scenario.line} ${f.scenario.name}`);
    if (f.evidence.length > 0) lines.push('wire evidence (>> sent to the target, << received from it):', formatTranscript(f.evidence));
  }
  return lines.join('\n');
}

export function renderJunit(summary: SuiteSummary, opts: JunitOptions): string {
  const outcome = runOutcome(summary);
  const byFeature = new Map<string, ScenarioSummary[]>();
  for (const s of summary.scenarios) byFeature.set(s.uri, [...(byFeature.get(s.uri) ?? []), s]);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (list: ScenarioSummary[], pred: (s: ScenarioSummary) => boolean) => list.filter(pred).length;
  const isFailure = (s: ScenarioSummary) =>
    !opts.accepted?.has(s) &&
    (FAILING_STATUSES.has(s.status) || (opts.strict === true && s.status !== 'inconclusive' && s.status !== 'unverified' && s.findings.some((f) => f.severity === 'warning')));
  const isError = (s: ScenarioSummary) => s.status === 'inconclusive' || s.status === 'unverified';
  const isSkipped = (s: ScenarioSummary) => s.status === 'not-applicable' || s.status === 'skipped';
  const all = summary.scenarios;
  const elsewhere = outcome.otherProbeIds.map((id) => ({ id, findings: outcome.findings.filter((f) => f.id === id && f.severity === 'error'), accepted: opts.acceptedIds?.get(id) }));
  const elsewhereFailures = elsewhere.filter((e) => e.accepted === undefined).length;
  out.push(
    `<testsuites name="${xml(`cgp-conformance: ${opts.targetName}`)}" tests="${all.length + elsewhere.length}" failures="${count(all, isFailure) + elsewhereFailures}" errors="${count(all, isError)}" skipped="${count(all, isSkipped)}">`,
  );
  for (const [uri, list] of byFeature) {
    out.push(
      `  <testsuite name="${xml(`${opts.targetName} · ${uri}`)}" tests="${list.length}" failures="${count(list, isFailure)}" errors="${count(list, isError)}" skipped="${count(list, isSkipped)}">`,
    );
    for (const s of list) {
      out.push(`    <testcase classname="${xml(`${opts.targetName}.${uri}`)}" name="${xml(`${s.name} [${s.ids.join(' ')}]`)}" file="${xml(uri)}" line="${s.line}">`);
      const warnings = s.findings.filter((f) => f.severity === 'warning');
      if (isError(s)) {
        const type = s.status === 'unverified' ? 'Unverified' : 'Inconclusive';
        const why =
          s.status === 'unverified'
            ? 'The scenario is unverified: the host lacks what it needs to be witnessed. Never a pass, never a failure.'
            : 'The scenario is inconclusive: what it checks could not be observed. Never a pass, never a failure of the target.';
        out.push(`      <error message="${xml(s.harness_error ?? s.status)}" type="${type}">${xml(`${s.harness_error ?? s.status}\n\n${why}`)}</error>`);
      } else if (isFailure(s)) {
        const first = (s.message ?? warnings[0]?.message ?? `${s.ids.join(', ')}: ${s.status}`).split('\n')[0]!;
        out.push(`      <failure message="${xml(first)}" type="${s.status === 'failed' ? 'ConformanceFailure' : s.status}">${xml(failureBody(s))}</failure>`);
      } else if (isSkipped(s)) out.push(`      <skipped message="${xml(s.not_applicable ?? 'skipped')}"/>`);
      const sysout: string[] = warnings.map((w) => `warning: ${w.message}`);
      // an error finding for an id this scenario does not probe (seen in a reply it received)
      for (const f of s.findings) if (f.severity === 'error' && !s.ids.includes(f.id)) sysout.push(`seen in a reply to this scenario's probe (reported under ${f.id}): ${f.message}`);
      // the lines that show them (the exchanges the warnings and the other-probe findings were found in)
      const shown = s.findings.filter((f) => f.severity === 'warning' || !s.ids.includes(f.id));
      const wire = [...new Set(shown.flatMap((f) => f.wire ?? []))].sort((a, b) => a - b).filter((i) => i >= 0 && i < (s.transcript?.length ?? 0));
      if (wire.length > 0) sysout.push('', 'the lines that show them (>> sent to the target, << received from it):', formatTranscript(wire.map((i) => s.transcript![i]!)));
      const accepted = opts.accepted?.get(s);
      if (accepted !== undefined) sysout.push(`known failure (baseline): ${s.message?.split('\n')[0] ?? s.status} — accepted because: ${accepted}`);
      if (sysout.length > 0) out.push(`      <system-out>${xml(sysout.join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  if (elsewhere.length > 0) {
    out.push(`  <testsuite name="${xml(`${opts.targetName} · replies to other probes`)}" tests="${elsewhere.length}" failures="${elsewhereFailures}" errors="0" skipped="0">`);
    for (const e of elsewhere) {
      const first = e.findings[0]!;
      const at = first.scenario;
      out.push(`    <testcase classname="${xml(`${opts.targetName}.replies-to-other-probes`)}" name="${xml(`${e.id} [seen in replies to other probes]`)}" file="${xml(at.uri)}" line="${at.line}">`);
      if (e.accepted === undefined) out.push(`      <failure message="${xml(first.message.split('\n')[0]!)}" type="ConformanceFailure">${xml(otherProbeBody(e.id, e.findings))}</failure>`);
      else out.push(`      <system-out>${xml(`known failure (baseline): ${first.message.split('\n')[0]} — accepted because: ${e.accepted}`)}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
