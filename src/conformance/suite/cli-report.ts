/**
 * What `cgp-conformance stdio|http` print and exit with, from a run-suite result (DESIGN "CLI"):
 *   0  no MUST failed (warnings allowed)
 *   1  a MUST failed (a wrong handshake answer included), or a scenario was undefined/pending
 *   3  the target never answered the handshake at all (spawn failure, refused, no bytes before the timeout)
 * (2, usage, is decided before a run.) `--json` prints only the JSON document on stdout.
 * Harness errors are counted apart: they fail the run (it is inconclusive) but are never listed as findings.
 */
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { RunSuiteResult } from '../run-suite.js';

export const EXIT_OK = 0;
export const EXIT_MUST_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_NEVER_ANSWERED = 3;

export function exitCodeOf(result: RunSuiteResult): number {
  if (result.neverAnswered) return EXIT_NEVER_ANSWERED;
  return result.success ? EXIT_OK : EXIT_MUST_FAILED;
}

export function jsonReport(result: RunSuiteResult, toolVersion: string): unknown {
  const s = result.summary;
  return {
    target: result.targetLabel ?? result.config.target.label,
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
    scenarios: s.scenarios,
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
  const failed = s.scenarios.filter((sc) => sc.status === 'failed' || sc.status === 'undefined' || sc.status === 'pending' || sc.status === 'ambiguous');
  if (failed.length > 0) lines.push('', 'failures:');
  for (const sc of failed) {
    lines.push(`  ${sc.uri}:${sc.line} ${sc.name}`);
    if (sc.harness_error) lines.push(`    ${sc.harness_error}`);
    else if (sc.message) for (const l of sc.message.split('\n').slice(0, 6)) lines.push(`    ${l}`);
  }
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
    `${s.scenarios.length} scenarios: ${t.passed} passed, ${t.failed} failed, ${t['not-applicable']} not applicable, ${t.skipped + t.undefined + t.pending + t.ambiguous} other` +
      (s.harness_errors > 0 ? `; ${s.harness_errors} HARNESS ERROR(S) — the run is inconclusive` : ''),
    `messages: ${result.messagesPath}`,
    `junit:    ${result.junitPath}`,
  );
  return `${lines.join('\n')}\n`;
}
