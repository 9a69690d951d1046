/**
 * The CI kit shared by every suite command (stdio, http, host, certify, report): `--junit FILE`, `--html FILE`,
 * `--bug-report DIR`, `--strict`, `--baseline FILE`. A command adds the options with addCiKitOptions(cmd),
 * checks them before running with prepareCiKit(opts) (a bad baseline file is a usage error, exit 2, before
 * anything runs), and after the run calls applyCiKit(result, opts, prepared): it writes the files and returns
 * the exit code, the lines for stderr, and the members to merge into the JSON report.
 *
 *   exit code (docs/interpretations.md §64): a run that did not conclude (never answered, harness error)
 *   keeps its code; otherwise 1 if a failure is not in the baseline, a baseline entry is stale, or (--strict)
 *   a warning is not in the baseline; else 0.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Command } from 'commander';
import type { RunSuiteResult } from '../conformance/run/run-suite.js';
import { EXIT_HARNESS_ERROR, EXIT_MUST_FAILED, EXIT_OK } from '../conformance/run/exit-codes.js';
import { exitCodeOf } from '../conformance/provider-suite/cli-report.js';
import { reportFindings, runOutcome } from '../conformance/report/outcome.js';
import type { ScenarioSummary, SuiteSummary } from '../conformance/provider-suite/summary.js';
import { junitTargetName, renderJunit } from '../conformance/report/junit.js';
import { applyKnownFailures, describeEntry, failingIds, readKnownFailures, type KnownFailure, type KnownFailuresOutcome } from '../conformance/report/known-failures.js';
import { toolVersion } from '../util/tool-version.js';

export interface CiKitOptions {
  junit?: string;
  html?: string;
  bugReport?: string;
  strict?: boolean;
  baseline?: string;
}

export interface PreparedCiKit {
  baseline?: KnownFailure[];
}

export interface CiKitOutcome {
  exitCode: number;
  /** Lines for stderr: known failures, stale entries, files written. */
  lines: string[];
  /** Members for the JSON report (exit_code, baseline, strict, files). */
  json: Record<string, unknown>;
  baseline?: KnownFailuresOutcome;
}

export function addCiKitOptions(cmd: Command): Command {
  return cmd
    .option('--junit <file>', 'also write the JUnit XML here (suites named after the target; failures carry the wire transcript)')
    .option('--html <file>', 'write the report page (coverage.html: failures first, transcripts, filters) here')
    .option('--bug-report <dir>', 'write one Markdown bug report per failed or warned id into this directory')
    .option('--strict', 'warnings (SHOULD not met) fail the run too')
    .option('--baseline <file>', 'known failures (YAML or JSON list of {id or scenario, reason}): listed failures exit 0, unlisted ones 1, a listed one that passed 1 (stale)');
}

/** Check the options before the run: throws KnownFailuresError (a usage error) for a bad baseline file. */
export function prepareCiKit(opts: CiKitOptions): PreparedCiKit {
  return opts.baseline !== undefined ? { baseline: readKnownFailures(opts.baseline) } : {};
}

/** The target as the reports name it: "name version" from its handshake_ack, else its label. */
export function targetName(result: RunSuiteResult): string {
  return junitTargetName(result.summary, result.targetLabel ?? result.config.target.label);
}

function shellWord(w: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs exactly the scenarios of one id against the same target. */
export function reproCommand(result: RunSuiteResult, id: string): string {
  const t = result.config.target;
  const timeout = result.config.timeouts.requestMs !== 10_000 ? ` --timeout ${result.config.timeouts.requestMs}` : '';
  const tags = `--tags @${id}`;
  if (result.side === 'host') {
    const label = result.targetLabel ?? '';
    const cmd = /^host process: (.*)$/.exec(label);
    const adapter = /^host adapter: (.*)$/.exec(label);
    const mis = /\(misbehaving: ([^)]+)\)/.exec(label);
    const which = cmd ? ` --cmd ${shellWord(cmd[1]!)}` : adapter ? ` --adapter ${shellWord(adapter[1]!)}` : mis ? ` --misbehave ${mis[1]}` : '';
    return `npx cgp-conformance host ${tags}${timeout}${which}`;
  }
  if (t.kind === 'http') return `npx cgp-conformance http ${tags}${timeout} ${shellWord(t.url)}`;
  if (t.bundled) return `npx cgp-conformance stdio ${tags}${timeout} -- npx cgp-conformance provider${t.misbehave ? ` --misbehave ${t.misbehave}` : ''}`;
  return `npx cgp-conformance stdio ${tags}${timeout} -- ${[t.command, ...t.args].map(shellWord).join(' ')}`;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function applyCiKit(result: RunSuiteResult, opts: CiKitOptions, prepared: PreparedCiKit = {}): Promise<CiKitOutcome> {
  return applyCiKitToRuns([result], opts, prepared, { baseCode: exitCodeOf(result) });
}

/** Several runs judged as one (certify): one summary over all their scenarios, the first run's target. */
function mergedSummary(runs: readonly RunSuiteResult[]): SuiteSummary {
  if (runs.length === 1) return runs[0]!.summary;
  const rank = { failed: 4, warning: 3, witnessed: 2, 'not-applicable': 1, unwitnessed: 0 } as const;
  const ids = new Map<string, SuiteSummary['ids'][number]>();
  for (const r of runs) {
    for (const i of r.summary.ids) {
      const prev = ids.get(i.id);
      if (!prev) ids.set(i.id, { ...i, scenarios: [...i.scenarios] });
      else ids.set(i.id, { id: i.id, status: rank[i.status] > rank[prev.status] ? i.status : prev.status, scenarios: [...prev.scenarios, ...i.scenarios] });
    }
  }
  const totals: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.summary.totals)) totals[k] = (totals[k] ?? 0) + (v ?? 0);
  const target = runs.find((r) => r.summary.target)?.summary.target;
  return {
    success: runs.every((r) => r.summary.success),
    scenarios: runs.flatMap((r) => r.summary.scenarios),
    ids: [...ids.values()],
    totals: totals as SuiteSummary['totals'],
    harness_errors: runs.reduce((n, r) => n + r.summary.harness_errors, 0),
    ...(target ? { target } : {}),
  };
}

/**
 * The CI kit over one or several runs (certify passes its three). `baseCode` is the exit code the command
 * would have without the kit; `targetName` names the target(s) in the JUnit file and the bug reports.
 */
export async function applyCiKitToRuns(results: readonly RunSuiteResult[], opts: CiKitOptions, prepared: PreparedCiKit = {}, how: { baseCode: number; targetName?: string }): Promise<CiKitOutcome> {
  const lines: string[] = [];
  const json: Record<string, unknown> = {};
  const base = how.baseCode;
  const ran = results.filter((r) => r.ran);
  const name = how.targetName ?? (results.length > 0 ? targetName(results[0]!) : 'target');
  if (ran.length === 0) {
    // Nothing ran: the JUnit file still tells CI why (one error testcase).
    const reason = results.map((r) => r.reason ?? '').join('; ');
    const junit = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="cgp-conformance: ${xmlAttr(name)}" tests="1" failures="0" errors="1">\n  <testsuite name="${xmlAttr(name)}" tests="1" errors="1">\n    <testcase classname="${xmlAttr(name)}" name="handshake">\n      <error message="${xmlAttr(`the target never answered the handshake: ${reason}`)}" type="NeverAnswered"/>\n    </testcase>\n  </testsuite>\n</testsuites>\n`;
    if (opts.junit !== undefined) write(opts.junit, junit);
    return { exitCode: base, lines, json: { exit_code: base } };
  }
  const summary = mergedSummary(ran);
  const accepted = new Map<ScenarioSummary, string>();
  const acceptedIds = new Map<string, string>();
  const outcomeAll = runOutcome(summary);
  const firstSeen = (id: string) => outcomeAll.findings.find((f) => f.id === id && f.severity === 'error')?.scenario;
  let outcome: KnownFailuresOutcome | undefined;
  let code = base;
  const warnings = summary.scenarios.flatMap((s) => s.findings.filter((f) => f.severity === 'warning').map((f) => ({ s, f })));
  const strictFailures = opts.strict ? warnings : [];
  if (prepared.baseline !== undefined) {
    outcome = applyKnownFailures(summary, prepared.baseline);
    for (const a of outcome.accepted) accepted.set(a.scenario, a.entry.reason);
    for (const a of outcome.acceptedIds) acceptedIds.set(a.id, a.entry.reason);
    // --strict: a warning whose id is listed is accepted too (and keeps its entry from being stale)
    const listedIds = new Set(prepared.baseline.filter((e) => e.id !== undefined).map((e) => e.id!));
    const strictUnlisted = strictFailures.filter((w) => !listedIds.has(w.f.id));
    if (opts.strict) outcome.stale = outcome.stale.filter((e) => !(e.id !== undefined && warnings.some((w) => w.f.id === e.id)));
    for (const a of outcome.accepted) lines.push(`known failure (baseline): ${failingIds(a.scenario).join(', ')} in ${a.scenario.uri}:${a.scenario.line} ${a.scenario.name} — ${a.entry.reason}`);
    for (const e of outcome.stale) lines.push(`stale baseline entry: remove it — ${describeEntry(e)} (${e.where}) passed in this run`);
    for (const e of outcome.notExercised) lines.push(`baseline entry not exercised by this run: ${describeEntry(e)} (${e.where})`);
    for (const a of outcome.acceptedIds) lines.push(`known failure (baseline): ${a.id} (seen in replies to other probes) — ${a.entry.reason}`);
    for (const s of outcome.unlisted) lines.push(`not in the baseline: ${failingIds(s).join(', ')} in ${s.uri}:${s.line} ${s.name}`);
    for (const id of outcome.unlistedIds)
      lines.push(`not in the baseline: ${id} (seen in replies to other probes, e.g. by ${firstSeen(id)?.uri ?? '?'}:${firstSeen(id)?.line ?? 0} ${firstSeen(id)?.name ?? ''})`);
    for (const w of strictUnlisted) lines.push(`--strict: warning not in the baseline: ${w.f.message}`);
    // Only a concluded run (0 / 1) is re-judged; never answered (3) and harness error (4) keep their code,
    // but a --strict warning not in the baseline is a definite failure, which outranks an inconclusive run.
    if (base === EXIT_HARNESS_ERROR && strictUnlisted.length > 0) code = 1;
    if (base === 0 || base === 1) {
      const definite = outcome.unlisted.length > 0 || outcome.unlistedIds.length > 0 || outcome.stale.length > 0 || strictUnlisted.length > 0;
      // every failure accepted, but scenarios left inconclusive or unverified: the run still did not conclude
      const open = outcomeAll.inconclusive.length + outcomeAll.unverified.length > 0;
      code = definite ? EXIT_MUST_FAILED : open && base === 1 ? EXIT_HARNESS_ERROR : EXIT_OK;
      // a failure the baseline cannot see (nothing failed that it could list, yet the run did not succeed) keeps failing
      if (base === 1 && outcome.accepted.length + outcome.acceptedIds.length + outcome.unlisted.length + outcome.unlistedIds.length === 0) code = EXIT_MUST_FAILED;
    }
    json.baseline = {
      file: opts.baseline,
      accepted: [
        ...outcome.accepted.map((a) => ({ ids: failingIds(a.scenario), scenario: { name: a.scenario.name, uri: a.scenario.uri, line: a.scenario.line }, reason: a.entry.reason })),
        ...outcome.acceptedIds.map((a) => ({ ids: [a.id], scenario: scenarioAt(firstSeen(a.id)), seen_in: 'other-probe', reason: a.entry.reason })),
      ],
      unlisted: [
        ...outcome.unlisted.map((s) => ({ ids: failingIds(s), scenario: { name: s.name, uri: s.uri, line: s.line } })),
        ...outcome.unlistedIds.map((id) => ({ ids: [id], scenario: scenarioAt(firstSeen(id)), seen_in: 'other-probe' })),
      ],
      stale: outcome.stale.map((e) => ({ ...(e.id !== undefined ? { id: e.id } : { scenario: e.scenario }), reason: e.reason, message: 'stale baseline entry: remove it' })),
      not_exercised: outcome.notExercised.map((e) => ({ ...(e.id !== undefined ? { id: e.id } : { scenario: e.scenario }), reason: e.reason })),
    };
  } else if (opts.strict && strictFailures.length > 0 && (base === 0 || base === EXIT_HARNESS_ERROR)) {
    // a --strict warning is a definite failure, and a definite failure outranks an inconclusive run (exit 4)
    code = 1;
    for (const w of strictFailures) lines.push(`--strict: ${w.f.message}`);
  }
  if (opts.strict) json.strict = true;

  // The enriched JUnit replaces cucumber's in the reports dir (per run), and goes to --junit (all runs).
  const junitOf = (s: SuiteSummary, n: string) => renderJunit(s, { targetName: n, accepted, acceptedIds, ...(opts.strict ? { strict: true } : {}) });
  for (const r of ran) write(r.junitPath, junitOf(r.summary, ran.length === 1 ? name : targetName(r)));
  const files: Record<string, unknown> = {};
  if (opts.junit !== undefined) {
    write(opts.junit, junitOf(summary, name));
    files.junit = opts.junit;
    lines.push(`junit:      ${opts.junit}`);
  }
  if (opts.html !== undefined) {
    const sides = new Set(ran.map((r) => (r.side === 'host' ? 'host' : 'provider')));
    const side = sides.size > 1 ? 'both' : [...sides][0]!;
    // the page and bug-report writers load only when asked for
    const { buildCoverage } = await import('../conformance/report/build.js');
    const { renderHtml } = await import('../conformance/report/render-html.js');
    const report = buildCoverage({ messages: ran.map((r) => r.messagesPath), target: name, side, toolVersion: toolVersion() });
    const target = ran.length === 1 ? summary.target : undefined;
    write(opts.html, renderHtml(report, undefined, { scenarios: summary.scenarios, ...(target ? { target } : {}) }));
    files.html = opts.html;
    lines.push(`html:       ${opts.html}`);
  }
  if (opts.bugReport !== undefined) {
    // each finding reproduces against the run that found it
    const findings = ran.flatMap((r) => reportFindings(r.summary).map((f) => ({ f, r })));
    const runOf = new Map<string, RunSuiteResult>();
    for (const { f, r } of findings) {
      if (f.severity !== 'error') continue;
      // an id seen in a reply to another probe reproduces with that probe's ids
      for (const id of [f.id, ...f.scenario.ids]) if (!runOf.has(id)) runOf.set(id, r);
    }
    const { writeBugReports } = await import('../conformance/report/bug-report.js');
    const written = writeBugReports(
      opts.bugReport,
      findings.map((x) => x.f),
      {
        targetName: name,
        targetLabel: ran.length === 1 ? (ran[0]!.targetLabel ?? ran[0]!.config.target.label) : name,
        toolVersion: toolVersion(),
        repro: (id) => reproCommand(runOf.get(id) ?? ran[0]!, id),
      },
    );
    files.bug_reports = written;
    lines.push(`bug reports: ${written.length === 0 ? 'none (no failed or warned id)' : written.join(', ')}`);
  }
  if (Object.keys(files).length > 0) json.files = files;
  json.exit_code = code;
  return { exitCode: code, lines, json, ...(outcome ? { baseline: outcome } : {}) };
}

function scenarioAt(s: { name: string; uri: string; line: number } | undefined): { name: string; uri: string; line: number } {
  return s ? { name: s.name, uri: s.uri, line: s.line } : { name: '', uri: '', line: 0 };
}

function xmlAttr(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * `report --bug-report DIR`: bug reports from the message files of earlier runs. The target is what the run
 * attached (its label and transport); a host run's reproduction names no host (the files do not say which).
 */
export async function bugReportsFromMessages(dir: string, messages: readonly string[]): Promise<string[]> {
  const { detailsFromMessages } = await import('../conformance/report/page-details.js');
  const { writeBugReports } = await import('../conformance/report/bug-report.js');
  const details = detailsFromMessages(messages);
  const scenarios = details.scenarios ?? [];
  const summary = { scenarios: [...scenarios] };
  const t = details.target;
  const ack = t?.ack;
  const p = ack && typeof ack.provider === 'object' && ack.provider !== null ? (ack.provider as Record<string, unknown>) : undefined;
  const name = p && typeof p.name === 'string' ? `${p.name}${typeof p.version === 'string' ? ` ${p.version}` : ''}` : (t?.label ?? 'the host under test');
  const label = t?.label ?? name;
  return writeBugReports(dir, reportFindings(summary), {
    targetName: name,
    targetLabel: label,
    toolVersion: toolVersion(),
    repro: (id) =>
      t === undefined
        ? `npx cgp-conformance host --tags @${id} [--adapter <module> | --cmd "<host command>"]`
        : t.transport === 'http'
          ? `npx cgp-conformance http --tags @${id} ${shellWord(t.label)}`
          : `npx cgp-conformance stdio --tags @${id} -- ${t.label}`,
  });
}
