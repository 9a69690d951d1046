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
import { runOutcome, summaryLine, minimalEvidence } from '../report/outcome.js';
import type { ScenarioSummary } from './summary.js';

/**
 * The JSON report's shape version (schema/report/cgp-conformance-report.schema.json). Bumped when a member
 * changes meaning or is removed; adding members does not bump it. 2: a scenario that is inconclusive or
 * unverified has that status (it was `failed`, and counted in `totals.failed`); `findings[]` holds every
 * failed or warned id, a violation seen in a reply to another probe included (`seen_in`).
 */
export const REPORT_VERSION = 2;

export { MAX_FINDINGS_WITH_EVIDENCE, minimalEvidence, reportFindings, runOutcome, summaryLine, type ReportFinding, type RunOutcome } from '../report/outcome.js';

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
 * 3 never answered; 1 when the target definitely failed — a scenario failed, or any error finding, one seen in
 * a reply to another probe included (a definite MUST failure stands even when other scenarios were
 * inconclusive); 4 when what kept the run from succeeding is only inconclusive or unverified scenarios; 0 otherwise.
 */
export function exitCodeOf(result: RunSuiteResult): number {
  if (result.neverAnswered) return EXIT_NEVER_ANSWERED;
  const outcome = runOutcome(result.summary);
  if (outcome.failed.length > 0 || outcome.failedIds.length > 0) return EXIT_MUST_FAILED;
  if (outcome.inconclusive.length + outcome.unverified.length > 0) return EXIT_HARNESS_ERROR;
  return result.success ? EXIT_OK : EXIT_MUST_FAILED;
}

export function jsonReport(result: RunSuiteResult, toolVersion: string): unknown {
  const s = result.summary;
  const outcome = runOutcome(s);
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
    totals: outcome.totals,
    harness_errors: outcome.inconclusive.length + outcome.unverified.length,
    ids: s.ids.map((i) => ({ id: i.id, status: i.status, scenarios: i.scenarios })),
    findings: outcome.findings,
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
  const outcome = runOutcome(s);
  const width = Math.max(4, ...s.ids.map((i) => i.id.length));
  for (const i of s.ids) lines.push(`${i.id.padEnd(width)}  ${i.status}`);
  const where = (sc: { uri: string; line: number; name: string }) => `${sc.uri}:${sc.line} ${sc.name}`;
  if (outcome.failed.length > 0) lines.push('', 'failures:');
  for (const sc of outcome.failed) {
    lines.push(`  ${where(sc)}`);
    if (sc.message) for (const l of sc.message.split('\n').slice(0, 6)) lines.push(`    ${l}`);
    else lines.push(`    ${sc.ids.join(', ')}: the scenario is ${sc.status}`);
    // the lines that show it (--json has them in full: findings[].evidence)
    const first = sc.findings.find((f) => f.severity === 'error');
    const wire = minimalEvidence(sc.transcript ?? [], first?.wire);
    if (first?.wire !== undefined && wire.length > 0) {
      for (const e of wire) {
        const text = e.line.length > 200 ? `${e.line.slice(0, 200)}… (${e.bytes} bytes)` : e.line;
        lines.push(`    ${e.direction === 'sent' ? '>>' : '<<'} ${e.connection} ${text}`);
      }
    }
  }
  // MUST violations seen in replies to other probes that no failed scenario is charged with: a finding under
  // their own id, naming the scenario that observed them (listed once per distinct message).
  if (outcome.otherProbeIds.length > 0) {
    lines.push('', 'failed in replies to other probes (each a finding under its own id):');
    for (const id of outcome.otherProbeIds) {
      const seen = new Set<string>();
      for (const f of outcome.findings.filter((x) => x.id === id && x.severity === 'error')) {
        if (seen.has(f.message)) continue;
        seen.add(f.message);
        lines.push(`  ${f.message.split('\n')[0]}`, `    seen by ${where(f.scenario)}`);
      }
    }
  }
  if (outcome.notApplicable.length > 0) lines.push('', 'not applicable:', ...outcome.notApplicable.map((sc) => `  ${where(sc)}\n    ${sc.not_applicable ?? ''}`));
  if (outcome.inconclusive.length > 0) lines.push('', 'inconclusive (never a pass, never a failure):', ...outcome.inconclusive.map((sc) => `  ${where(sc)}\n    ${sc.harness_error ?? ''}`));
  if (outcome.unverified.length > 0) lines.push('', 'unverified (inconclusive, never a pass, never a failure):', ...outcome.unverified.map((sc) => `  ${where(sc)}\n    ${sc.harness_error ?? ''}`));
  // One line per distinct warning (a reply-level warning can be observed by several scenarios).
  const warnings = [...new Set(outcome.findings.filter((f) => f.severity === 'warning').map((f) => f.message))];
  if (warnings.length > 0) lines.push('', 'warnings:', ...warnings.map((w) => `  ${w}`));
  lines.push('', summaryLine(outcome), `messages: ${result.messagesPath}`, `junit:    ${result.junitPath}`);
  return `${lines.join('\n')}\n`;
}
