// Shapes of the coverage report (docs/architecture.md "Coverage report") and the typed errors the builder throws.
// The JSON written to reports/coverage.json is exactly `CoverageReport`: no timestamps, no durations.

import type { CatalogueLevel, CatalogueSide } from '../../catalogue/index.js';

/** Which side(s) the run(s) certify. `both` = provider run and host run merged (where 61/61 must hold). */
export type RunSide = 'provider' | 'host' | 'both';

export type EntryStatus = 'witnessed' | 'failed' | 'warning' | 'unwitnessed' | 'not-applicable';

/**
 * What one scenario showed about one id.
 * - passed: the scenario passed and carried no finding for the id;
 * - failed: the scenario failed and the failure names the id (an error finding, or the failure message starts
 *   with the id), or the failure names no id at all (a crash or timeout cannot be attributed, so it is charged
 *   to every id the scenario is tagged with — a failure is never hidden); an error finding for the id in a
 *   passed scenario counts too;
 * - warning: a warning finding for the id (SHOULD not met);
 * - blocked: the scenario failed on another id it names, so it says nothing about this one;
 * - not-applicable: the scenario was skipped because the target did not declare a capability it needs;
 * - skipped / pending / undefined / ambiguous: cucumber's own step status — none of them is a pass;
 * - inconclusive: what the scenario checks could not be observed — a failed precondition ("could not observe
 *   <ID>: <cause>"), a host that broke the control contract, an error of the suite itself
 *   (`application/vnd.cgp.harness-error+json` or a failure message starting "harness error"): never counted
 *   against the target, never a pass;
 * - unverified: the host lacks a test hook the scenario needs ("unverified: needs <capability>"): counted
 *   apart, never a pass, never a failure;
 * - not-run: the test case was planned but never started (run aborted).
 */
export type WitnessStatus = 'passed' | 'failed' | 'warning' | 'blocked' | 'not-applicable' | 'skipped' | 'pending' | 'undefined' | 'ambiguous' | 'inconclusive' | 'unverified' | 'not-run';

export interface Witness {
  /** The scenario name (pickle name: an outline row carries its substituted name). */
  scenario: string;
  /** The feature file, as cucumber reports its uri (relative to the run's cwd, `/`-separated). */
  feature: string;
  /** The scenario's line (an outline row's own line). */
  line: number;
  status: WitnessStatus;
}

export interface CoverageEntry {
  id: string;
  level: CatalogueLevel;
  side: CatalogueSide;
  status: EntryStatus;
  /** Why the entry is not-applicable or unwitnessed. */
  reason?: string;
  witnesses: Witness[];
  text: string;
}

export interface CoverageSummary {
  witnessed: number;
  failed: number;
  warning: number;
  unwitnessed: number;
  not_applicable: number;
  /** Anchors that apply to this target: all anchors minus the not-applicable ones. */
  applicable: number;
}

export interface CoverageReport {
  target: string;
  protocol_version: string;
  tool_version: string;
  /** All anchors of generated/anchors.json, in SPEC order. */
  anchors: CoverageEntry[];
  /** All rules of generated/rules.json, in catalogue order. */
  rules: CoverageEntry[];
  /** Counts over `anchors` (the badge's N / applicable). */
  summary: CoverageSummary;
}

/** A finding attached by a step (`application/vnd.cgp.finding+json`). */
export interface Finding {
  id: string;
  severity: 'error' | 'warning';
  pointer: string;
  message: string;
}

/** A tag or a finding names an id that looks like an anchor or a rule id but is not in the catalogue. */
export class UnknownCatalogueIdError extends Error {
  constructor(
    readonly id: string,
    /** Where it was seen: `features/x.feature:12 (tag)` or `… (finding)`. */
    readonly where: string,
  ) {
    super(`unknown anchor or rule id "${id}" at ${where}: it is not in generated/anchors.json or generated/rules.json`);
    this.name = 'UnknownCatalogueIdError';
  }
}

/** A message file is not the Cucumber Messages NDJSON the builder expects (or an attachment is malformed). */
export class MalformedMessagesError extends Error {
  constructor(
    readonly source: string,
    reason: string,
  ) {
    super(`${source}: ${reason}`);
    this.name = 'MalformedMessagesError';
  }
}
