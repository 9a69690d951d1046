/**
 * What `cgp-conformance stdio|http` print and exit with, from a run-suite result (docs/architecture.md "Exit codes"):
 *   0  no MUST failed (warnings allowed)
 *   1  a MUST failed (a wrong handshake answer included), or a scenario was undefined/pending
 *   3  the target never answered the handshake at all (spawn failure, refused, no bytes before the timeout)
 *   4  harness error: every failure is the harness's own (the run is inconclusive)
 * (2, usage, is decided before a run.) `--json` prints only the JSON document on stdout.
 * Harness errors are counted apart: they fail the run (it is inconclusive) but are never listed as findings.
 */
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { RunSuiteResult } from '../run/run-suite.js';
import type { WireEntry } from '../evidence/evidence.js';
import type { ScenarioSummary, SuiteSummary } from './summary.js';

/**
 * The JSON report's shape version (schema/report/cgp-conformance-report.schema.json). Bumped when a member
 * changes meaning or is removed; adding members does not bump it.
 */
export const REPORT_VERSION = 1;

/** One finding of a run, with the wire evidence of the scenario that produced it. */
export interface ReportFinding {
  id: string;
  severity: 'error' | 'warning';
  pointer: string;
  message: string;
  scenario: { name: string; uri: string; line: number; ids: string[] };
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

/** The first catalogue-looking id a failure message starts with (`B4, S2-wire-shape: …` → B4). */
function leadingId(message: string, fallback: readonly string[]): string {
  const m = /^([A-Z][A-Za-z0-9.]*(?:-[A-Za-z0-9.-]+)?)(?:[ ,:]| violated)/.exec(message);
  if (m && fallback.includes(m[1]!)) return m[1]!;
  return fallback[0] ?? 'unknown';
}

/**
 * Every finding of the run: error findings of failed scenarios (a failed scenario without one gets a finding
 * from its failure message, so a failure is never lost) and warnings of every scenario. Harness errors are
 * not findings (they are counted apart).
 */
export function reportFindings(summary: SuiteSummary): ReportFinding[] {
  const out: ReportFinding[] = [];
  for (const sc of summary.scenarios) {
    if (sc.harness_error !== undefined) continue;
    const scenario = { name: sc.name, uri: sc.uri, line: sc.line, ids: sc.ids };
    const all = sc.transcript ?? [];
    let withEvidence = 0;
    const evidence = (f?: { wire?: number[] }): Pick<ReportFinding, 'evidence' | 'evidence_omitted'> =>
      ++withEvidence <= MAX_FINDINGS_WITH_EVIDENCE
        ? { evidence: minimalEvidence(all, f?.wire) }
        : { evidence: [], evidence_omitted: `the first ${MAX_FINDINGS_WITH_EVIDENCE} findings of this scenario carry their evidence; the scenario's transcript attachment has every line` };
    const errors = sc.findings.filter((f) => f.severity === 'error');
    if (sc.status === 'failed') {
      if (errors.length > 0) for (const f of errors) out.push({ id: f.id, severity: 'error', pointer: f.pointer, message: f.message, scenario, ...evidence(f) });
      else out.push({ id: leadingId(sc.message ?? '', sc.ids), severity: 'error', pointer: '', message: sc.message ?? `${sc.ids.join(', ')}: the scenario failed`, scenario, ...evidence() });
    }
    for (const f of sc.findings.filter((x) => x.severity === 'warning')) out.push({ id: f.id, severity: 'warning', pointer: f.pointer, message: f.message, scenario, ...evidence(f) });
  }
  return out;
}

/** The target as the report names it: its label and, for a provider, its handshake_ack. */
export function reportTarget(result: RunSuiteResult): Record<string, unknown> {
  const label = result.targetLabel ?? result.config.target.label;
  const transport = result.side === 'host' ? 'host' : result.config.target.kind;
  const ack = result.summary.target?.ack ?? null;
  const pick = (k: string) => (ack && k in ack ? ack[k] : null);
  const provider = pick('provider') as Record<string, unknown> | null;
  // data_flow sits in provider (§3); a top-level one is read too
  const dataFlow = provider && typeof provider === 'object' && 'data_flow' in provider ? provider.data_flow : pick('data_flow');
  return { label, transport, provider, protocol_version: pick('protocol_version'), capabilities: pick('capabilities'), data_flow: dataFlow ?? null, ack };
}

export type { ScenarioSummary };

import { EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_NEVER_ANSWERED, EXIT_OK } from '../run/exit-codes.js';

/**
 * 3 never answered; 0 success; 1 when a scenario failed on a finding about the target (a definite MUST
 * failure stands even when other scenarios were inconclusive); 4 when every failure is a harness error.
 */
export function exitCodeOf(result: RunSuiteResult): number {
  if (result.neverAnswered) return EXIT_NEVER_ANSWERED;
  if (result.success) return EXIT_OK;
  const failed = result.summary.scenarios.filter((sc) => sc.status !== 'passed' && sc.status !== 'not-applicable' && sc.status !== 'skipped');
  if (failed.length > 0 && failed.every((sc) => sc.harness_error !== undefined)) return EXIT_HARNESS_ERROR;
  return EXIT_MUST_FAILED;
}

export function jsonReport(result: RunSuiteResult, toolVersion: string): unknown {
  const s = result.summary;
  return {
    report_version: REPORT_VERSION,
    side: result.side ?? 'provider',
    target: reportTarget(result),
    transport: result.side === 'host' ? 'host' : result.config.target.kind,
    protocol_version: PROTOCOL_VERSION,
    tool_version: toolVersion,
    exit_code: exitCodeOf(result),
    success: result.success,
    never_answered: result.neverAnswered,
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    messages: result.ran ? result.messagesPath : null,
    junit: result.ran ? result.junitPath : null,
    totals: s.totals,
    harness_errors: s.harness_errors,
    ids: s.ids.map((i) => ({ id: i.id, status: i.status, scenarios: i.scenarios })),
    findings: reportFindings(s),
    scenarios: s.scenarios.map(({ transcript: _t, ...rest }) => rest),
  };
}

export function textReport(result: RunSuiteResult): string {
  const lines: string[] = [];
  if (result.neverAnswered) {
    lines.push(`the target never answered the handshake: ${result.reason ?? 'no reason recorded'}`);
    return `${lines.join('\n')}\n`;
  }
  const s = result.summary;
  const width = Math.max(4, ...s.ids.map((i) => i.id.length));
  for (const i of s.ids) lines.push(`${i.id.padEnd(width)}  ${i.status}`);
  // host side: a scenario a host cannot be witnessed on (a test hook it lacks) is inconclusive, counted apart
  const unverifiedOf = (sc: (typeof s.scenarios)[number]): string | undefined => /unverified: needs ([^ ]+(?: [^ —]+)*?) —/.exec(sc.harness_error ?? '')?.[1];
  const unverified = s.scenarios.filter((sc) => unverifiedOf(sc) !== undefined);
  const failed = s.scenarios.filter((sc) => (sc.status === 'failed' || sc.status === 'undefined' || sc.status === 'pending' || sc.status === 'ambiguous') && unverifiedOf(sc) === undefined);
  if (failed.length > 0) lines.push('', 'failures:');
  for (const sc of failed) {
    lines.push(`  ${sc.uri}:${sc.line} ${sc.name}`);
    if (sc.harness_error) lines.push(`    ${sc.harness_error}`);
    else if (sc.message) for (const l of sc.message.split('\n').slice(0, 6)) lines.push(`    ${l}`);
    // the lines that show it (--json has them in full: findings[].evidence)
    const first = sc.harness_error === undefined ? sc.findings.find((f) => f.severity === 'error') : undefined;
    const wire = minimalEvidence(sc.transcript ?? [], first?.wire);
    if (first?.wire !== undefined && wire.length > 0) {
      for (const e of wire) {
        const text = e.line.length > 200 ? `${e.line.slice(0, 200)}… (${e.bytes} bytes)` : e.line;
        lines.push(`    ${e.direction === 'sent' ? '>>' : '<<'} ${e.connection} ${text}`);
      }
    }
  }
  const notApplicable = s.scenarios.filter((sc) => sc.status === 'not-applicable');
  if (notApplicable.length > 0) lines.push('', 'not applicable:', ...notApplicable.map((sc) => `  ${sc.uri}:${sc.line} ${sc.name}\n    ${sc.not_applicable ?? ''}`));
  if (unverified.length > 0) lines.push('', 'unverified (inconclusive, never a pass):', ...unverified.map((sc) => `  ${sc.uri}:${sc.line} ${sc.name}\n    ${sc.harness_error ?? ''}`));
  // One line per distinct warning (a reply-level warning can be observed by several scenarios).
  const warnings = [...new Set(s.scenarios.flatMap((sc) => sc.findings.filter((f) => f.severity === 'warning').map((f) => f.message)))];
  if (warnings.length > 0) lines.push('', 'warnings:', ...warnings.map((w) => `  ${w}`));
  // MUST violations observed by a scenario that passed its own ids (credited to their id, listed once).
  const elsewhere = [
    ...new Set(s.scenarios.filter((sc) => sc.status !== 'failed').flatMap((sc) => sc.findings.filter((f) => f.severity === 'error' && !sc.ids.includes(f.id)).map((f) => f.message))),
  ];
  if (elsewhere.length > 0) lines.push('', 'violations observed in replies to other probes:', ...elsewhere.map((m) => `  ${m}`));
  const t = s.totals;
  lines.push(
    '',
    `${s.scenarios.length} scenarios: ${t.passed} passed, ${t.failed - unverified.length} failed, ${t['not-applicable']} not applicable, ${t.skipped + t.undefined + t.pending + t.ambiguous} other` +
      (unverified.length > 0 ? `; ${unverified.length} unverified: ${[...new Set(unverified.map((sc) => unverifiedOf(sc)!))].map((cap) => `needs ${cap} (${unverified.filter((sc) => unverifiedOf(sc) === cap).length})`).join(', ')}` : '') +
      (s.harness_errors - unverified.length > 0 ? `; ${s.harness_errors - unverified.length} HARNESS ERROR(S) — the run is inconclusive` : unverified.length > 0 ? ' — the run is inconclusive' : ''),
    `messages: ${result.messagesPath}`,
    `junit:    ${result.junitPath}`,
  );
  return `${lines.join('\n')}\n`;
}
