/**
 * `--baseline FILE`: known failures accepted while a target certifies incrementally. The file is YAML or
 * JSON: a list of entries `{id, reason}` or `{scenario, reason}` (a bare list, or `{entries: [...]}`).
 * `scenario` is a scenario name or `features/…feature:LINE`. Rules (docs/interpretations.md §64):
 *   failed and listed      ⇒ reported as a known failure, exit 0
 *   failed and not listed  ⇒ exit 1
 *   passed and listed      ⇒ exit 1 "stale baseline entry: remove it" — baselines burn down instead of rotting
 * An entry whose id or scenario did not run (outside the tag selection, or not applicable) is neither: it is
 * reported as not exercised. Harness errors cannot be baselined (the run is inconclusive, not a finding).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { findCatalogueEntry } from '../../catalogue/index.js';

/** The YAML parser, loaded when a baseline file is YAML (a run without one never loads it). */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}
import { ConfigError } from '../provider-suite/config.js';
import { FAILING_STATUSES, failingIds, type IdSummary, type ScenarioSummary, type SuiteSummary } from '../provider-suite/summary.js';
import { runOutcome } from './outcome.js';

export { failingIds };

export interface KnownFailure {
  id?: string;
  scenario?: string;
  reason: string;
  /** Where it is in the file (`FILE entry 3`). */
  where: string;
}

/** A usage error (exit 2): a ConfigError, so every suite command reports it as one. */
export class KnownFailuresError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'KnownFailuresError';
  }
}

export function readKnownFailures(path: string): KnownFailure[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new KnownFailuresError(`--baseline ${path}: cannot read: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = /^\s*[[{]/.test(text) ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new KnownFailuresError(`--baseline ${path}: neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const list = Array.isArray(doc) ? doc : doc && typeof doc === 'object' && Array.isArray((doc as { entries?: unknown }).entries) ? (doc as { entries: unknown[] }).entries : undefined;
  if (!list) throw new KnownFailuresError(`--baseline ${path}: expected a list of {id or scenario, reason} entries (or {entries: [...]})`);
  return list.map((raw, i) => {
    const where = `${path} entry ${i + 1}`;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new KnownFailuresError(`${where}: expected an object {id or scenario, reason}`);
    const e = raw as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !['id', 'scenario', 'reason'].includes(k));
    if (unknown.length > 0) throw new KnownFailuresError(`${where}: unknown member(s) ${unknown.join(', ')}; an entry has id or scenario, and reason`);
    if ((e.id === undefined) === (e.scenario === undefined)) throw new KnownFailuresError(`${where}: give exactly one of id or scenario`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '') throw new KnownFailuresError(`${where}: reason must be a non-empty string (why the failure is accepted)`);
    if (e.id !== undefined) {
      if (typeof e.id !== 'string' || !findCatalogueEntry(e.id.replace(/^@/, ''))) throw new KnownFailuresError(`${where}: id ${JSON.stringify(e.id)} is not an anchor or rule id of the catalogue`);
      return { id: e.id.replace(/^@/, ''), reason: e.reason, where };
    }
    if (typeof e.scenario !== 'string' || e.scenario.trim() === '') throw new KnownFailuresError(`${where}: scenario must be a scenario name or features/…feature:LINE`);
    return { scenario: e.scenario, reason: e.reason, where };
  });
}

export interface KnownFailuresOutcome {
  /** Failures covered by an entry (reported, accepted). */
  accepted: Array<{ scenario: ScenarioSummary; entry: KnownFailure }>;
  /** Failed scenarios no entry covers. */
  unlisted: ScenarioSummary[];
  /** Ids failed only in replies to other probes (no failed scenario to list) that an id entry covers. */
  acceptedIds: Array<{ id: string; entry: KnownFailure }>;
  /** Ids failed only in replies to other probes that no id entry covers. */
  unlistedIds: string[];
  /** Entries whose id/scenario ran and did not fail. */
  stale: KnownFailure[];
  /** Entries whose id/scenario did not run. */
  notExercised: KnownFailure[];
}

function matchesScenario(entry: KnownFailure, s: ScenarioSummary): boolean {
  return entry.scenario !== undefined && (entry.scenario === s.name || entry.scenario === `${s.uri}:${s.line}`);
}

export function applyKnownFailures(summary: SuiteSummary, entries: readonly KnownFailure[]): KnownFailuresOutcome {
  const out: KnownFailuresOutcome = { accepted: [], unlisted: [], acceptedIds: [], unlistedIds: [], stale: [], notExercised: [] };
  const used = new Set<KnownFailure>();
  const otherProbe = new Set(runOutcome(summary).otherProbeIds);
  for (const s of summary.scenarios.filter((x) => FAILING_STATUSES.has(x.status))) {
    const byScenario = entries.find((e) => matchesScenario(e, s));
    // an id seen only in replies to other probes is listed by id below, not as this scenario's failure
    const own = failingIds(s).filter((id) => !otherProbe.has(id));
    const ids = own.length > 0 ? own : failingIds(s);
    const byIds = ids.map((id) => entries.find((e) => e.id === id));
    if (byScenario) {
      used.add(byScenario);
      out.accepted.push({ scenario: s, entry: byScenario });
    } else if (byIds.every((e) => e !== undefined)) {
      for (const e of byIds) used.add(e!);
      out.accepted.push({ scenario: s, entry: byIds[0]! });
    } else out.unlisted.push(s);
  }
  // a violation seen only in replies to other probes is a failure of its id too: listed by id, or unlisted
  for (const id of otherProbe) {
    const entry = entries.find((e) => e.id === id);
    if (entry) {
      used.add(entry);
      out.acceptedIds.push({ id, entry });
    } else out.unlistedIds.push(id);
  }
  const idStatus = new Map<string, IdSummary['status']>(summary.ids.map((i) => [i.id, i.status]));
  for (const e of entries) {
    if (used.has(e)) continue;
    if (e.id !== undefined) {
      const st = idStatus.get(e.id);
      if (st === 'witnessed' || st === 'warning') out.stale.push(e);
      else out.notExercised.push(e);
    } else {
      const s = summary.scenarios.find((x) => matchesScenario(e, x));
      if (s && s.status === 'passed') out.stale.push(e);
      else out.notExercised.push(e);
    }
  }
  return out;
}

export function describeEntry(e: KnownFailure): string {
  return e.id !== undefined ? `id ${e.id}` : `scenario ${JSON.stringify(e.scenario)}`;
}
