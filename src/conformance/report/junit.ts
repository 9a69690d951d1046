/**
 * JUnit XML of one suite run, for CI dashboards (docs/interpretations.md §65): the suites are named after the target (as it
 * identified itself), one testsuite per feature file, one testcase per scenario. A failure's body carries
 * its message and the wire transcript that proves it; warnings go to <system-out>; a not-applicable
 * scenario is <skipped message="reason"/>; a harness error is an <error> (inconclusive, not a finding).
 */
import { formatTranscript } from '../evidence/evidence.js';
import { failingIds } from './known-failures.js';
import type { ScenarioSummary, SuiteSummary } from '../suite/summary.js';

export interface JunitOptions {
  /** The target's name for the suites: "example-docs 0.1.0" or the command/URL/host label. */
  targetName: string;
  /** Scenarios accepted by a baseline: reported as passed with the reason in <system-out>. */
  accepted?: ReadonlyMap<ScenarioSummary, string>;
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

export function renderJunit(summary: SuiteSummary, opts: JunitOptions): string {
  const byFeature = new Map<string, ScenarioSummary[]>();
  for (const s of summary.scenarios) byFeature.set(s.uri, [...(byFeature.get(s.uri) ?? []), s]);
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (list: ScenarioSummary[], pred: (s: ScenarioSummary) => boolean) => list.filter(pred).length;
  const isFailure = (s: ScenarioSummary) =>
    s.harness_error === undefined && !opts.accepted?.has(s) && (['failed', 'undefined', 'pending', 'ambiguous'].includes(s.status) || (opts.strict === true && s.findings.some((f) => f.severity === 'warning')));
  const isError = (s: ScenarioSummary) => s.harness_error !== undefined;
  const isSkipped = (s: ScenarioSummary) => s.status === 'not-applicable' || s.status === 'skipped';
  const all = summary.scenarios;
  out.push(`<testsuites name="${xml(`cgp-conformance: ${opts.targetName}`)}" tests="${all.length}" failures="${count(all, isFailure)}" errors="${count(all, isError)}" skipped="${count(all, isSkipped)}">`);
  for (const [uri, list] of byFeature) {
    out.push(
      `  <testsuite name="${xml(`${opts.targetName} · ${uri}`)}" tests="${list.length}" failures="${count(list, isFailure)}" errors="${count(list, isError)}" skipped="${count(list, isSkipped)}">`,
    );
    for (const s of list) {
      out.push(`    <testcase classname="${xml(`${opts.targetName}.${uri}`)}" name="${xml(`${s.name} [${s.ids.join(' ')}]`)}" file="${xml(uri)}" line="${s.line}">`);
      const warnings = s.findings.filter((f) => f.severity === 'warning');
      if (isError(s)) out.push(`      <error message="${xml(s.harness_error!)}" type="HarnessError">${xml(`${s.harness_error}\n\nThe run is inconclusive: this is a harness problem, not a finding against the target.`)}</error>`);
      else if (isFailure(s)) {
        const first = (s.message ?? warnings[0]?.message ?? `${s.ids.join(', ')}: ${s.status}`).split('\n')[0]!;
        out.push(`      <failure message="${xml(first)}" type="${s.status === 'failed' ? 'ConformanceFailure' : s.status}">${xml(failureBody(s))}</failure>`);
      } else if (isSkipped(s)) out.push(`      <skipped message="${xml(s.not_applicable ?? 'skipped')}"/>`);
      const sysout: string[] = warnings.map((w) => `warning: ${w.message}`);
      const accepted = opts.accepted?.get(s);
      if (accepted !== undefined) sysout.push(`known failure (baseline): ${s.message?.split('\n')[0] ?? s.status} — accepted because: ${accepted}`);
      if (sysout.length > 0) out.push(`      <system-out>${xml(sysout.join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
