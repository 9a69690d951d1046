// The red team (docs/architecture.md "Misbehaviour manifest", "Red team economics"): for every mode of the ONE manifest,
// run only the scenarios tagged with the ids it `breaks`, against the provider misbehaving that way, and require
// every id to be reported — failed for a MUST, a warning finding for a SHOULD/MAY/advisory rule — by at least
// one of those scenarios. A pass, a skip or not-applicable never counts. A smoke run of the honest provider
// over the same scenarios must pass them; a scenario that reports the id against the honest provider too is no
// evidence that it caught the misbehaviour, so it is not credited.
//
// Known gaps are data: an expected-failures baseline lists modes allowed to be NOT CAUGHT; an unlisted miss
// fails, and a listed mode that is now caught is an error (stale entry). Manifest errors (an unknown id, an id
// with no scenario, a run that could not be evaluated) are never covered by the baseline.

import { readFileSync } from 'node:fs';
import { loadCatalogue, type Catalogue, type CatalogueLevel } from '../../catalogue/index.js';
import { toolVersion as readToolVersion } from '../../util/tool-version.js';
import { collectWitnesses, type WitnessDetail } from './build.js';
import { CatalogueIndex } from './ids.js';
import { readMessagesFile, type ScenarioResult } from './messages.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import type { WitnessStatus } from './types.js';

// ── the suite-runner contract (src/conformance/run/run-suite.ts) ──────────────────────────────────────────────

export interface SuiteRunOptions {
  side: 'provider' | 'host';
  /** A cucumber tag expression, e.g. `@B1 or @B3`. */
  tags?: string;
  /** A plain file name: messages go to `<reportsDir>/<reportName>.messages.ndjson`. */
  reportName: string;
  /** Where the run's files go (the real runner defaults to `<package root>/reports`). */
  reportsDir?: string;
  misbehave?: string;
  /** Cucumber's progress output: the red team passes null (quiet; runs may be in parallel). */
  progress?: null;
  /** Run the scenarios even when the target never answers the preflight handshake: they must report it. */
  runIfNeverAnswered?: boolean;
  /** The handshake and request timeouts (default: the suite's own). */
  timeouts?: { handshakeMs: number; requestMs: number };
}

export interface SuiteRunResult {
  success: boolean;
  messagesPath: string;
  /** False when the real runner did not run the scenarios (the target never answered). */
  ran?: boolean;
  reason?: string;
}

export type SuiteRunner = (options: SuiteRunOptions) => Promise<SuiteRunResult>;

export interface ManifestEntry {
  mode: string;
  breaks: readonly string[];
  description: string;
  /** Host-side ids this (conformant) provider behaviour is a fixture for — not a provider defect. */
  exercises?: readonly string[];
  /** Why no normative id can be named for this behaviour (docs/architecture.md "Rule catalogue": no basis, no finding). */
  unbacked?: string;
  /**
   * Ids whose scenarios the mode's run also needs: the defect only shows in replies those scenarios
   * receive (e.g. a bad score on anchored queries only, seen by the G4 probes), and a finding counts for
   * its own id wherever it is observed.
   */
  alsoRuns?: readonly string[];
  /**
   * The zero-collateral allow-list: ids other than `breaks` the mode may make fail or warn, each with the
   * reason the one defect really violates it too (e.g. a wrong commitment also breaks the Merkle root). Any
   * other id failed or warned by the mode's run (and not by the honest run in the same scenario) fails the
   * red team: one root cause, one finding.
   */
  collateral?: ReadonlyArray<CollateralAllowance>;
}

/** One entry of a mode's zero-collateral allow-list. */
export interface CollateralAllowance {
  id: string;
  reason: string;
}

/** The scenarios a mode's run selects: those tagged with the ids it breaks, plus any it also needs. */
export function modeTags(entry: Pick<ManifestEntry, 'breaks' | 'alsoRuns'>): string {
  return tagExpression([...entry.breaks, ...(entry.alsoRuns ?? [])]);
}

// ── results ─────────────────────────────────────────────────────────────────────────────────────────────

/**
 * - caught: reported failed (MUST) / warning (below MUST) by a scenario the honest run does not flag;
 * - not-caught: scenarios exist but none reported it that way;
 * - unknown-id: not in generated/anchors.json or rules.json (manifest error);
 * - no-scenario: no scenario of the run carries the id (manifest error: "not yet written" is not a pass).
 */
export type IdVerdictStatus = 'caught' | 'not-caught' | 'unknown-id' | 'no-scenario';

export interface IdVerdict {
  id: string;
  level?: CatalogueLevel;
  status: IdVerdictStatus;
  /** What the scenarios reported, `feature:line scenario (status)`, by feature then line. */
  seen: string[];
  /** Scenarios that reported the id but also report it against the honest provider. */
  discredited: string[];
}

/**
 * `fixture`: the entry breaks no provider-side id (it is a fixture for host-side ids, or its behaviour has
 * no normative basis) — it is listed with its reason and runs no provider scenario.
 */
export type ModeVerdict = 'caught' | 'not-caught' | 'known-gap' | 'error' | 'fixture';

export interface ModeResult {
  mode: string;
  breaks: string[];
  description: string;
  tags: string;
  verdict: ModeVerdict;
  ids: IdVerdict[];
  /** Why the mode is an error, or the baseline note for a known gap. */
  problem?: string;
  /** The manifest's allow-list for this mode (ids it may also fail or warn, with why), when it has one. */
  allowed?: CollateralAllowance[];
  /** Ids the run failed or warned that the mode neither breaks nor allows: `id: feature:line scenario (status)`. */
  collateral?: string[];
}

export interface SmokeResult {
  ok: boolean;
  tags: string;
  scenarios: Array<{ scenario: string; feature: string; line: number; status: string }>;
  /** Scenarios the honest provider did not pass (failed, undefined, pending, ambiguous, skipped, not run). */
  problems: string[];
  /** `id: feature:line scenario` for warning findings against the honest provider (reported, not fatal). */
  warnings: string[];
}

export interface BaselineEntry {
  mode: string;
  reason: string;
}

export interface RedTeamReport {
  tool_version: string;
  protocol_version: string;
  side: 'provider' | 'host';
  smoke: SmokeResult;
  modes: ModeResult[];
  baseline: { entries: BaselineEntry[]; stale: string[] };
  summary: { modes: number; caught: number; not_caught: number; known_gaps: number; fixtures: number; errors: number };
  ok: boolean;
}

// ── pure verdict logic ──────────────────────────────────────────────────────────────────────────────────

export function tagExpression(ids: readonly string[]): string {
  return [...new Set(ids)].map((id) => `@${id}`).join(' or ');
}

/** Which (scenario, id) pairs the honest provider already reports failed or warning: they prove nothing. */
export type HonestFlags = ReadonlySet<string>;

export function honestFlags(witnesses: ReadonlyMap<string, readonly WitnessDetail[]>): Set<string> {
  const out = new Set<string>();
  for (const [id, list] of witnesses) {
    for (const w of list) if (w.status === 'failed' || w.status === 'warning') out.add(flagKey(id, w));
  }
  return out;
}

function flagKey(id: string, w: Pick<WitnessDetail, 'feature' | 'line' | 'scenario'>): string {
  return `${id}\u0000${w.feature}\u0000${w.line}\u0000${w.scenario}`;
}

function ref(w: Pick<WitnessDetail, 'feature' | 'line' | 'scenario'>, status?: WitnessStatus): string {
  return `${w.feature}:${w.line} ${w.scenario}${status ? ` (${status})` : ''}`;
}

/** The verdict for one mode from the scenarios its run reported (already tag-filtered to its ids). */
export function evaluateMode(entry: ManifestEntry, scenarios: readonly ScenarioResult[], index: CatalogueIndex, honest: HonestFlags = new Set()): ModeResult {
  const base: Pick<ModeResult, 'mode' | 'breaks' | 'description' | 'tags' | 'allowed'> = {
    mode: entry.mode,
    breaks: [...entry.breaks],
    description: entry.description,
    tags: modeTags(entry),
  };
  let witnesses: Map<string, WitnessDetail[]>;
  try {
    witnesses = collectWitnesses(scenarios, index);
  } catch (err) {
    return { ...base, verdict: 'error', ids: [], problem: (err as Error).message };
  }
  const ids: IdVerdict[] = [];
  for (const id of [...new Set(entry.breaks)]) {
    const catalogued = index.get(id);
    if (!catalogued) {
      ids.push({ id, status: 'unknown-id', seen: [], discredited: [] });
      continue;
    }
    const list = witnesses.get(id) ?? [];
    const tagged = scenarios.some((s) => s.tags.includes(`@${id}`));
    if (!tagged && list.length === 0) {
      ids.push({ id, level: catalogued.level, status: 'no-scenario', seen: [], discredited: [] });
      continue;
    }
    // A MUST is caught by a failure. An anchor that mixes a MUST with a SHOULD (E1, P5, R1, G4:
    // the provider's half is the SHOULD) is also caught by the warning its SHOULD sentence yields;
    // a SHOULD/MAY/advisory rule is caught by a warning, or by a failure.
    const wanted: readonly WitnessStatus[] = catalogued.level !== 'MUST' ? ['warning', 'failed'] : mixesShould(catalogued) ? ['failed', 'warning'] : ['failed'];
    const discredited: string[] = [];
    let caught = false;
    for (const w of list) {
      if (!wanted.includes(w.status)) continue;
      if (honest.has(flagKey(id, w))) discredited.push(ref(w, w.status));
      else caught = true;
    }
    ids.push({
      id,
      level: catalogued.level,
      status: caught ? 'caught' : 'not-caught',
      seen: list.map((w) => ref(w, w.status)),
      discredited,
    });
  }
  const errors = ids.filter((i) => i.status === 'unknown-id' || i.status === 'no-scenario');
  const gate = collateralOf(entry, witnesses, index, honest);
  if (gate.allowed.length > 0) base.allowed = gate.allowed;
  if (errors.length > 0) {
    return {
      ...base,
      verdict: 'error',
      ids,
      problem: errors.map((i) => (i.status === 'unknown-id' ? `${i.id} is not in the rule catalogue` : `no scenario is tagged @${i.id} (the manifest names an id the suite does not test)`)).join('; '),
    };
  }
  const caught = ids.every((i) => i.status === 'caught');
  if (gate.problems.length === 0) return { ...base, verdict: caught ? 'caught' : 'not-caught', ids };
  // caught, but not ONLY its own ids: the zero-collateral gate fails the mode (a miss stays a miss, with the collateral named)
  return { ...base, verdict: caught ? 'error' : 'not-caught', ids, problem: gate.problems.join('; '), ...(gate.collateral.length > 0 ? { collateral: gate.collateral } : {}) };
}

/**
 * The zero-collateral gate: every id the mode's run failed or warned must be one it breaks or one its
 * allow-list names with a reason; a (scenario, id) the honest run flags too is not the mode's doing. An
 * allow-list entry must name a catalogued id, not one of `breaks`, and give a reason.
 */
export function collateralOf(
  entry: Pick<ManifestEntry, 'breaks' | 'collateral'>,
  witnesses: ReadonlyMap<string, readonly WitnessDetail[]>,
  index: CatalogueIndex,
  honest: HonestFlags = new Set(),
): { allowed: CollateralAllowance[]; collateral: string[]; problems: string[] } {
  const problems: string[] = [];
  const allowed = (entry.collateral ?? []).map((c) => ({ id: c.id, reason: c.reason }));
  for (const c of allowed) {
    if (!index.get(c.id)) problems.push(`allow-list: ${c.id} is not in the rule catalogue`);
    else if (entry.breaks.includes(c.id)) problems.push(`allow-list: ${c.id} is already in breaks`);
    if (c.reason.trim() === '') problems.push(`allow-list: ${c.id} gives no reason`);
  }
  const exempt = new Set([...entry.breaks, ...allowed.map((c) => c.id)]);
  const collateral: string[] = [];
  for (const [id, list] of witnesses) {
    if (exempt.has(id)) continue;
    for (const w of list) {
      if ((w.status === 'failed' || w.status === 'warning') && !honest.has(flagKey(id, w))) collateral.push(`${id}: ${ref(w, w.status)}`);
    }
  }
  collateral.sort();
  if (collateral.length > 0) {
    problems.push(
      `collateral: the mode's run also ${collateral.length === 1 ? 'reports' : 'report'} ${collateral.join(', ')} — one root cause, one finding (declare the id in breaks, or in collateral with a reason)`,
    );
  }
  return { allowed, collateral, problems };
}

export function evaluateSmoke(tags: string, scenarios: readonly ScenarioResult[], index: CatalogueIndex): SmokeResult {
  const sorted = [...scenarios].sort((a, b) => cmp(a.feature, b.feature) || a.line - b.line || cmp(a.scenario, b.scenario));
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const s of sorted) {
    if (s.status !== 'passed' && s.status !== 'not-applicable') problems.push(ref(s, s.status));
    for (const f of s.findings) {
      if (f.severity === 'warning') warnings.push(`${f.id}: ${ref(s)}`);
    }
  }
  // Unknown ids in the honest run's tags or findings make the whole smoke unusable: surface them.
  try {
    collectWitnesses(scenarios, index);
  } catch (err) {
    problems.push((err as Error).message);
  }
  return {
    ok: problems.length === 0,
    tags,
    scenarios: sorted.map((s) => ({ scenario: s.scenario, feature: s.feature, line: s.line, status: s.status })),
    problems,
    warnings: [...new Set(warnings)].sort(),
  };
}

export class BaselineError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'BaselineError';
  }
}

/** Reads `red-team.baseline.json`: `{"expected_failures": [{"mode": "...", "reason": "..."}]}`. */
export function readBaseline(path: string): BaselineEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BaselineError(path, `cannot read: ${(err as Error).message}`);
  }
  const list = (parsed as { expected_failures?: unknown } | null)?.expected_failures;
  if (!Array.isArray(list)) throw new BaselineError(path, 'missing "expected_failures" array');
  return list.map((raw, i) => {
    const e = raw as Partial<BaselineEntry> | null;
    if (!e || typeof e.mode !== 'string' || typeof e.reason !== 'string' || e.reason.trim() === '') {
      throw new BaselineError(path, `expected_failures[${i}] needs a "mode" and a non-empty "reason"`);
    }
    return { mode: e.mode, reason: e.reason };
  });
}

/**
 * Applies the expected-failures baseline: a listed NOT CAUGHT mode becomes a known gap; a listed mode that is
 * caught, or that the manifest does not have, is stale. Errors stay errors.
 */
export function applyBaseline(modes: readonly ModeResult[], baseline: readonly BaselineEntry[]): { modes: ModeResult[]; stale: string[] } {
  const listed = new Map(baseline.map((b) => [b.mode, b]));
  const stale: string[] = [];
  const out = modes.map((m) => {
    const entry = listed.get(m.mode);
    if (!entry) return m;
    if (m.verdict === 'not-caught') return { ...m, verdict: 'known-gap' as const, problem: `baseline: ${entry.reason}` };
    if (m.verdict === 'caught') stale.push(`${m.mode}: listed in the baseline but now caught — remove the entry`);
    return m;
  });
  const known = new Set(modes.map((m) => m.mode));
  for (const b of baseline) {
    if (!known.has(b.mode)) stale.push(`${b.mode}: listed in the baseline but not in the manifest — remove the entry`);
  }
  return { modes: out, stale: stale.sort() };
}

export function summariseRedTeam(
  side: 'provider' | 'host',
  smoke: SmokeResult,
  modes: readonly ModeResult[],
  baseline: readonly BaselineEntry[],
  stale: readonly string[],
  toolVersion: string,
): RedTeamReport {
  const count = (v: ModeVerdict): number => modes.filter((m) => m.verdict === v).length;
  const summary = {
    modes: modes.length,
    caught: count('caught'),
    not_caught: count('not-caught'),
    known_gaps: count('known-gap'),
    fixtures: count('fixture'),
    errors: count('error'),
  };
  return {
    tool_version: toolVersion,
    protocol_version: PROTOCOL_VERSION,
    side,
    smoke,
    modes: [...modes],
    baseline: { entries: [...baseline].sort((a, b) => cmp(a.mode, b.mode)), stale: [...stale] },
    summary,
    ok: smoke.ok && summary.not_caught === 0 && summary.errors === 0 && stale.length === 0,
  };
}

// ── orchestration ───────────────────────────────────────────────────────────────────────────────────────

export interface RunRedTeamOptions {
  manifest: readonly ManifestEntry[];
  runner: SuiteRunner;
  side?: 'provider' | 'host';
  concurrency?: number;
  baseline?: readonly BaselineEntry[];
  catalogue?: Catalogue;
  toolVersion?: string;
  /** Only these modes (default: all). */
  only?: readonly string[];
  /** Where the runs' message files go: `<reportsDir>/<mode>.messages.ndjson`, `<reportsDir>/smoke.honest.…`. */
  reportsDir?: string;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  /**
   * The runs' handshake and request timeouts (default: the suite's). The modes that never answer wait them out,
   * so they set how long those modes take; a reply from the bundled targets takes milliseconds.
   */
  timeouts?: { handshakeMs: number; requestMs: number };
}

/** The smoke run's report name (mode names have no dot, so it cannot collide with one). */
export const SMOKE_REPORT_NAME = 'smoke.honest';

export async function runRedTeam(options: RunRedTeamOptions): Promise<RedTeamReport> {
  const side = options.side ?? 'provider';
  const index = new CatalogueIndex(options.catalogue ?? loadCatalogue());
  const log = options.log ?? (() => undefined);
  const selected = options.only ? options.manifest.filter((m) => options.only?.includes(m.mode)) : [...options.manifest];
  const manifest = selected.filter((m) => m.breaks.length > 0);
  const fixtures = selected.filter((m) => m.breaks.length === 0);
  const smokeTags = tagExpression(manifest.flatMap((m) => [...m.breaks, ...(m.alsoRuns ?? [])]));

  type Job = { kind: 'smoke' } | { kind: 'mode'; entry: ManifestEntry };
  const jobs: Job[] = [{ kind: 'smoke' }, ...manifest.map((entry) => ({ kind: 'mode' as const, entry }))];
  const runs = new Map<string, ScenarioResult[] | Error>();
  const run = async (job: Job): Promise<void> => {
    const key = job.kind === 'smoke' ? '' : job.entry.mode;
    const tags = job.kind === 'smoke' ? smokeTags : modeTags(job.entry);
    try {
      const result = await options.runner({
        side,
        tags,
        reportName: job.kind === 'smoke' ? SMOKE_REPORT_NAME : job.entry.mode,
        ...(options.reportsDir !== undefined ? { reportsDir: options.reportsDir } : {}),
        ...(job.kind === 'mode' ? { misbehave: job.entry.mode } : {}),
        progress: null,
        runIfNeverAnswered: true,
        ...(options.timeouts !== undefined ? { timeouts: options.timeouts } : {}),
      });
      if (result.ran === false) throw new Error(`the suite did not run: ${result.reason ?? 'the target never answered'}`);
      runs.set(key, readMessagesFile(result.messagesPath).scenarios);
      log(`red-team: ${job.kind === 'smoke' ? 'smoke (honest provider)' : job.entry.mode} done`);
    } catch (err) {
      runs.set(key, err instanceof Error ? err : new Error(String(err)));
      log(`red-team: ${key || 'smoke'} could not run: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await pool(jobs, Math.max(1, options.concurrency ?? 2), run);

  const smokeRun = runs.get('');
  let smoke: SmokeResult;
  let honest = new Set<string>();
  if (smokeRun instanceof Error || smokeRun === undefined) {
    smoke = {
      ok: false,
      tags: smokeTags,
      scenarios: [],
      problems: [`the smoke run failed to run: ${smokeRun?.message ?? 'no result'}`],
      warnings: [],
    };
  } else {
    smoke = evaluateSmoke(smokeTags, smokeRun, index);
    try {
      honest = honestFlags(collectWitnesses(smokeRun, index));
    } catch {
      // already reported as a smoke problem
    }
  }
  const modes = manifest.map((entry): ModeResult => {
    const result = runs.get(entry.mode);
    if (result instanceof Error || result === undefined) {
      return {
        mode: entry.mode,
        breaks: [...entry.breaks],
        description: entry.description,
        tags: modeTags(entry),
        verdict: 'error',
        ids: [],
        problem: `the run failed: ${result?.message ?? 'no result'}`,
      };
    }
    return evaluateMode(entry, result, index, honest);
  });
  for (const entry of fixtures) {
    const problem =
      entry.exercises && entry.exercises.length > 0
        ? `fixture for host-side ${entry.exercises.join(', ')}: a conformant provider behaviour the host suite uses`
        : `no normative id: ${entry.unbacked ?? 'the manifest entry names no id and gives no reason'}`;
    modes.push({
      mode: entry.mode,
      breaks: [],
      description: entry.description,
      tags: '',
      verdict: entry.exercises?.length || entry.unbacked ? 'fixture' : 'error',
      ids: [],
      problem,
    });
  }
  const { modes: withBaseline, stale } = applyBaseline(modes, options.baseline ?? []);
  return summariseRedTeam(side, smoke, withBaseline, options.baseline ?? [], stale, options.toolVersion ?? readToolVersion());
}

export function serializeRedTeam(report: RedTeamReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The table the CLI prints: mode → caught / NOT CAUGHT with the ids, then the smoke and the totals. */
export function renderRedTeamTable(report: RedTeamReport): string {
  const label = { caught: 'caught', 'not-caught': 'NOT CAUGHT', 'known-gap': 'known gap', error: 'ERROR', fixture: 'fixture' } as const;
  const width = Math.max(4, ...report.modes.map((m) => m.mode.length));
  const lines: string[] = [];
  lines.push(`${'mode'.padEnd(width)}  ${'verdict'.padEnd(10)}  ids`);
  lines.push(`${'-'.repeat(width)}  ${'-'.repeat(10)}  ${'-'.repeat(30)}`);
  for (const m of report.modes) {
    const ids = m.ids.length > 0 ? m.ids.map((i) => `${i.id}:${i.status}`).join(' ') : m.breaks.join(' ');
    const mark = m.verdict === 'caught' ? '  ' : m.verdict === 'known-gap' || m.verdict === 'fixture' ? '~ ' : '❌';
    lines.push(`${m.mode.padEnd(width)}  ${label[m.verdict].padEnd(10)}  ${ids}${mark === '  ' ? '' : `  ${mark}`}`);
    if (m.problem) lines.push(`${' '.repeat(width)}  ${' '.repeat(10)}  ↳ ${m.problem}`);
  }
  lines.push('');
  const smoke = report.smoke;
  lines.push(smoke.ok ? `smoke (honest ${report.side}): passed ${smoke.scenarios.length} scenario(s)` : `❌ smoke (honest ${report.side}) FAILED: ${smoke.problems.join('; ')}`);
  if (smoke.warnings.length > 0) lines.push(`   honest-run warnings: ${smoke.warnings.join('; ')}`);
  for (const s of report.baseline.stale) lines.push(`❌ stale baseline entry: ${s}`);
  const sum = report.summary;
  lines.push(
    `${sum.modes} mode(s): ${sum.caught} caught, ${sum.not_caught} NOT CAUGHT, ${sum.known_gaps} known gap(s), ${sum.fixtures} fixture(s), ${sum.errors} error(s)` +
      ` — ${report.ok ? 'red team OK' : 'RED TEAM FAILED'}`,
  );
  lines.push('');
  return lines.join('\n');
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => worker()));
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when a MUST-level catalogue entry also carries a SHOULD sentence (a mixed-level anchor). */
function mixesShould(entry: { text?: string }): boolean {
  return /\bSHOULD\b/.test(entry.text ?? '');
}
