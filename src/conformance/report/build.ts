// The coverage builder (docs/architecture.md "Coverage report"): Cucumber Messages of one or more runs → one report that
// lists EVERY anchor (SPEC order) and every unanchored rule (catalogue order) with its status and witnesses.
//
// Status of an entry, first match wins:
//   1. a witness failed                              → failed      (never hidden, whatever the side)
//   2. a witness carries a warning finding for it    → warning
//   3. the id binds the other side than the target   → not-applicable "target is a provider" (or host)
//   4. a witness passed                              → witnessed
//   5. every witness is not-applicable               → not-applicable, with the scenarios' reasons
//   6. otherwise                                     → unwitnessed ("no scenario carries this id" when none does)
// Nothing in the result depends on time, durations, message ids or file order of envelopes.

import { loadCatalogue, type Catalogue, type CatalogueEntry, type CatalogueSide } from '../../catalogue/index.js';
import { toolVersion as readToolVersion } from '../../util/tool-version.js';
import { CatalogueIndex, idsFromFailureMessage } from './ids.js';
import { readMessagesFile, type ScenarioResult } from './messages.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { type CoverageEntry, type CoverageReport, type CoverageSummary, type EntryStatus, type RunSide, type Witness, type WitnessStatus } from './types.js';

export interface BuildCoverageOptions {
  /** Cucumber Messages NDJSON files (one per run: provider, host, …), merged into one report. */
  messages: string[];
  /** A human-readable name of the target(s) under test. */
  target: string;
  /** What the run(s) certify: a provider, a host, or both merged. */
  side: RunSide;
  /** Defaults to generated/anchors.json + generated/rules.json. */
  catalogue?: Catalogue;
  /** Defaults to package.json's version. */
  toolVersion?: string;
}

/**
 * The side the runs certify, from the scenarios' side tags: only `@provider` → provider, only `@host` (or
 * `@composition`) → host, both → both; undefined when no scenario carries a side tag.
 */
export function inferSide(messages: readonly string[]): RunSide | undefined {
  let provider = false;
  let host = false;
  for (const path of messages) {
    for (const s of readMessagesFile(path).scenarios) {
      if (s.tags.includes('@provider')) provider = true;
      if (s.tags.includes('@host') || s.tags.includes('@composition')) host = true;
    }
  }
  return provider && host ? 'both' : provider ? 'provider' : host ? 'host' : undefined;
}

/** A witness plus what the builder needs but the report does not show. */
export interface WitnessDetail extends Witness {
  /** not_applicable reasons of the scenario. */
  reasons: string[];
}

export function buildCoverage(options: BuildCoverageOptions): CoverageReport {
  const scenarios = options.messages.flatMap((path) => readMessagesFile(path).scenarios);
  return buildCoverageFromScenarios(scenarios, options);
}

export function buildCoverageFromScenarios(scenarios: readonly ScenarioResult[], options: Omit<BuildCoverageOptions, 'messages'>): CoverageReport {
  const catalogue = options.catalogue ?? loadCatalogue();
  const index = new CatalogueIndex(catalogue);
  const witnesses = collectWitnesses(scenarios, index);
  const entry = (e: CatalogueEntry): CoverageEntry => coverageEntry(e, witnesses.get(e.id) ?? [], options.side);
  const anchors = catalogue.anchors.map(entry);
  const rules = catalogue.rules.map(entry);
  return {
    target: options.target,
    protocol_version: PROTOCOL_VERSION,
    tool_version: options.toolVersion ?? readToolVersion(),
    anchors,
    rules,
    summary: summarise(anchors),
  };
}

/** Per catalogue id, what every scenario showed about it (deduplicated, sorted by feature, line, name). */
export function collectWitnesses(scenarios: readonly ScenarioResult[], index: CatalogueIndex): Map<string, WitnessDetail[]> {
  const out = new Map<string, Map<string, WitnessDetail>>();
  for (const s of scenarios) {
    for (const [id, status] of scenarioWitnessStatuses(s, index)) {
      const w: WitnessDetail = {
        scenario: s.scenario,
        feature: s.feature,
        line: s.line,
        status,
        reasons: status === 'not-applicable' ? s.notApplicable : [],
      };
      const key = `${w.feature}\u0000${w.line}\u0000${w.scenario}\u0000${w.status}`;
      const perId = out.get(id) ?? new Map<string, WitnessDetail>();
      const existing = perId.get(key);
      if (existing) existing.reasons = [...new Set([...existing.reasons, ...w.reasons])].sort();
      else perId.set(key, w);
      out.set(id, perId);
    }
  }
  const sorted = new Map<string, WitnessDetail[]>();
  for (const [id, perId] of out) sorted.set(id, [...perId.values()].sort(compareWitness));
  return sorted;
}

/** What one scenario says about each id it is tagged with or that its findings / failure name. */
export function scenarioWitnessStatuses(s: ScenarioResult, index: CatalogueIndex): Map<string, WitnessStatus> {
  const where = `${s.feature}:${s.line}`;
  const tagged = index.idsFromTags(s.tags, where);
  const errorIds = new Set<string>();
  const warningIds = new Set<string>();
  for (const f of s.findings) {
    index.requireFindingId(f.id, where);
    (f.severity === 'error' ? errorIds : warningIds).add(f.id);
  }
  const statuses = new Map<string, WitnessStatus>();
  if (s.status === 'failed') {
    const named = new Set(errorIds);
    // the same rule as every other output (failingIds, src/conformance/provider-suite/summary.ts): the ids the failure names
    for (const m of s.failureMessages) for (const id of idsFromFailureMessage(m, index)) named.add(id);
    for (const id of new Set([...tagged, ...named, ...warningIds])) {
      if (named.size === 0 && tagged.includes(id)) statuses.set(id, 'failed');
      else if (named.has(id)) statuses.set(id, 'failed');
      else if (warningIds.has(id)) statuses.set(id, 'warning');
      else statuses.set(id, 'blocked');
    }
    return statuses;
  }
  for (const id of new Set([...tagged, ...errorIds, ...warningIds])) {
    if (errorIds.has(id)) statuses.set(id, 'failed');
    else if (warningIds.has(id)) statuses.set(id, 'warning');
    else statuses.set(id, s.status);
  }
  return statuses;
}

/** Why an id does not apply to a run of this side, or undefined when it does. */
export function sideNotApplicable(entry: Pick<CatalogueEntry, 'id' | 'side'>, run: RunSide): string | undefined {
  const side: CatalogueSide = entry.side;
  if (run === 'both' || side === 'both' || side === run) return undefined;
  if (side === 'types') {
    return `target is a ${run}; ${entry.id} binds the published types (applicable in the merged provider + host run)`;
  }
  return `target is a ${run}`;
}

export function deriveStatus(entry: Pick<CatalogueEntry, 'id' | 'side'>, witnesses: readonly WitnessDetail[], run: RunSide): { status: EntryStatus; reason?: string } {
  const has = (s: WitnessStatus): boolean => witnesses.some((w) => w.status === s);
  if (has('failed')) return { status: 'failed' };
  if (has('warning')) return { status: 'warning' };
  const sideReason = sideNotApplicable(entry, run);
  if (sideReason !== undefined) return { status: 'not-applicable', reason: sideReason };
  if (has('passed')) return { status: 'witnessed' };
  if (witnesses.length > 0 && witnesses.every((w) => w.status === 'not-applicable')) {
    const reasons = [...new Set(witnesses.flatMap((w) => w.reasons))].sort();
    return { status: 'not-applicable', reason: reasons.length > 0 ? reasons.join('; ') : 'not applicable' };
  }
  if (witnesses.length === 0) return { status: 'unwitnessed', reason: 'no scenario carries this id' };
  const counts = new Map<string, number>();
  for (const w of witnesses) counts.set(w.status, (counts.get(w.status) ?? 0) + 1);
  const detail = [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  return { status: 'unwitnessed', reason: `no passing witness (${detail})` };
}

function coverageEntry(e: CatalogueEntry, witnesses: readonly WitnessDetail[], run: RunSide): CoverageEntry {
  const { status, reason } = deriveStatus(e, witnesses, run);
  return {
    id: e.id,
    level: e.level,
    side: e.side,
    status,
    ...(reason !== undefined ? { reason } : {}),
    witnesses: witnesses.map(({ scenario, feature, line, status: s }) => ({ scenario, feature, line, status: s })),
    text: e.text,
  };
}

export function summarise(entries: readonly CoverageEntry[]): CoverageSummary {
  const count = (s: EntryStatus): number => entries.filter((e) => e.status === s).length;
  const notApplicable = count('not-applicable');
  return {
    witnessed: count('witnessed'),
    failed: count('failed'),
    warning: count('warning'),
    unwitnessed: count('unwitnessed'),
    not_applicable: notApplicable,
    applicable: entries.length - notApplicable,
  };
}

export interface ConformanceVerdict {
  conformant: boolean;
  /** MUST anchors and MUST rules reported failed. */
  mustFailed: CoverageEntry[];
  /** Applicable anchors with no passing witness (unwitnessed, or failed at a level below MUST). */
  unwitnessed: CoverageEntry[];
}

/**
 * Not conformant when any MUST (anchor or rule) failed, or any applicable anchor lacks a passing witness.
 * A warning (SHOULD not met, scenario passed) does not break conformance.
 */
export function conformanceVerdict(report: CoverageReport): ConformanceVerdict {
  const all = [...report.anchors, ...report.rules];
  const mustFailed = all.filter((e) => e.status === 'failed' && e.level === 'MUST');
  const unwitnessed = report.anchors.filter((e) => e.status === 'unwitnessed' || (e.status === 'failed' && e.level !== 'MUST'));
  return { conformant: mustFailed.length === 0 && unwitnessed.length === 0, mustFailed, unwitnessed };
}

/** The committed form: 2-space JSON and a final newline. */
export function serializeCoverage(report: CoverageReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function compareWitness(a: Witness, b: Witness): number {
  return cmp(a.feature, b.feature) || a.line - b.line || cmp(a.scenario, b.scenario) || cmp(a.status, b.status);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
