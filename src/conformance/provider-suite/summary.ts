/**
 * A compact per-scenario and per-id summary of one suite run, built from the cucumber message stream
 * (what `cgp-conformance stdio|http --json` prints). The full coverage report (all 61 anchors, SPEC order,
 * witnesses with definitions) is built elsewhere from the same messages file (src/conformance/report/).
 *
 * Per scenario: passed / failed / not-applicable (skipped with an applicability attachment) / inconclusive
 * (a harness error: a failed precondition "could not observe <ID>: …", a broken host contract, the suite's
 * own fault) / unverified (a host lacking a test hook: "unverified: needs <capability>") / skipped /
 * undefined / pending / ambiguous, with the findings attached. Inconclusive and unverified are never
 * `failed` and never `passed` (schema/report/cgp-conformance-report.schema.json says what each status means).
 * Per id: failed > warning > witnessed > not-applicable > unwitnessed, over the scenarios tagged with it and
 * the findings that name it (a finding seen in a reply to another probe counts for its own id).
 */
import type { Finding } from '../../protocol/findings.js';
import { APPLICABILITY_MEDIA_TYPE, FINDING_MEDIA_TYPE, HARNESS_ERROR_MEDIA_TYPE, harnessOutcome, harnessReason, TARGET_MEDIA_TYPE, TRANSCRIPT_MEDIA_TYPE } from '../evidence/attachments.js';
import { decodeTranscript, type WireEntry } from '../evidence/evidence.js';
import { looksLikeCatalogueId } from '../report/ids.js';

/** Cucumber's `this.log` attachments: the scenario's notes. */
const LOG_MEDIA_TYPE = 'text/x.cucumber.log+plain';

/** Side tags (docs/architecture.md "Tags and capabilities"): they say which suite a scenario belongs to, they name no requirement. */
const SIDE_TAGS = new Set(['provider', 'host', 'composition', 'types']);

/** The slice of cucumber's message envelopes this module reads. */
export interface CucumberMessage {
  pickle?: { id: string; uri: string; name: string; tags: Array<{ name: string }>; astNodeIds: string[] };
  gherkinDocument?: {
    uri?: string;
    feature?: { children: Array<{ scenario?: { id: string; location: { line: number }; examples?: Array<{ tableBody: Array<{ id: string; location: { line: number } }> }> } }> };
  };
  testCase?: { id: string; pickleId: string };
  testCaseStarted?: { id: string; testCaseId: string };
  testStepFinished?: { testCaseStartedId: string; testStepResult: { status: string; message?: string } };
  testCaseFinished?: { testCaseStartedId: string; willBeRetried?: boolean };
  attachment?: { testCaseStartedId?: string; mediaType: string; body: string };
  testRunFinished?: { success: boolean };
}

export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable' | 'inconclusive' | 'unverified' | 'skipped' | 'undefined' | 'pending' | 'ambiguous';
/** Scenario statuses that are a definite failure of the target (docs/architecture.md "Exit codes": 1). */
export const FAILING_STATUSES: ReadonlySet<ScenarioStatus> = new Set(['failed', 'undefined', 'pending', 'ambiguous']);

/** Counts per scenario status; a summary built before inconclusive and unverified were counted apart may lack them. */
export type ScenarioTotals = Record<Exclude<ScenarioStatus, 'inconclusive' | 'unverified'>, number> & Partial<Record<'inconclusive' | 'unverified', number>>;
export type IdStatus = 'failed' | 'warning' | 'witnessed' | 'not-applicable' | 'unwitnessed';

export interface ScenarioSummary {
  name: string;
  uri: string;
  line: number;
  ids: string[];
  status: ScenarioStatus;
  /** The first failing step's message (starts with the anchor/rule id for a target failure). */
  message?: string;
  findings: Finding[];
  not_applicable?: string;
  /** Why the scenario is inconclusive or unverified (the harness-error attachment, or a failure message starting "harness error"). */
  harness_error?: string;
  /** The wire evidence: what crossed the scenario's connections while it ran. */
  transcript?: WireEntry[];
  /** The scenario's notes (not findings): e.g. a fresh connection that was retried once, started alone. */
  notes?: string[];
}

/** The target as it identified itself (attached once per provider run). */
export interface TargetIdentity {
  label: string;
  transport: string;
  ack: Record<string, unknown> | null;
}

export interface IdSummary {
  id: string;
  status: IdStatus;
  scenarios: Array<{ name: string; line: number; uri: string; status: ScenarioStatus }>;
}

export interface SuiteSummary {
  success: boolean;
  scenarios: ScenarioSummary[];
  ids: IdSummary[];
  totals: ScenarioTotals;
  /** Scenarios inconclusive or unverified. */
  harness_errors: number;
  target?: TargetIdentity;
}

/** A failure message that is the suite's own fault (src/conformance/provider-suite/errors.ts HarnessError). */
const HARNESS_MESSAGE = /^\s*(?:\w*Error:\s*)?harness error/;

const RANK: Record<IdStatus, number> = { failed: 4, warning: 3, witnessed: 2, 'not-applicable': 1, unwitnessed: 0 };
const ORDER = ['UNKNOWN', 'PASSED', 'SKIPPED', 'PENDING', 'UNDEFINED', 'AMBIGUOUS', 'FAILED'];

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export function summarize(messages: readonly CucumberMessage[]): SuiteSummary {
  const pickles = new Map<string, NonNullable<CucumberMessage['pickle']>>();
  const lines = new Map<string, number>();
  const testCases = new Map<string, string>();
  const started = new Map<string, string>();
  const worst = new Map<string, { status: string; message?: string }>();
  const attachments = new Map<string, Array<{ mediaType: string; body: string }>>();
  const finished: string[] = [];
  let success = false;
  let target: TargetIdentity | undefined;
  for (const m of messages) {
    if (m.gherkinDocument?.feature) {
      for (const child of m.gherkinDocument.feature.children) {
        const sc = child.scenario;
        if (!sc) continue;
        lines.set(sc.id, sc.location.line);
        for (const ex of sc.examples ?? []) for (const row of ex.tableBody) lines.set(row.id, row.location.line);
      }
    }
    if (m.pickle) pickles.set(m.pickle.id, m.pickle);
    if (m.testCase) testCases.set(m.testCase.id, m.testCase.pickleId);
    if (m.testCaseStarted) started.set(m.testCaseStarted.id, m.testCaseStarted.testCaseId);
    if (m.testStepFinished) {
      const { testCaseStartedId: id, testStepResult: r } = m.testStepFinished;
      const prev = worst.get(id);
      if (!prev || ORDER.indexOf(r.status) > ORDER.indexOf(prev.status)) worst.set(id, { status: r.status, ...(r.message ? { message: r.message } : {}) });
    }
    if (m.attachment?.mediaType === TARGET_MEDIA_TYPE && target === undefined) {
      const t = parseJson(m.attachment.body) as TargetIdentity | undefined;
      if (t && typeof t.label === 'string') target = t;
    }
    if (m.attachment?.testCaseStartedId) {
      const list = attachments.get(m.attachment.testCaseStartedId) ?? [];
      list.push({ mediaType: m.attachment.mediaType, body: m.attachment.body });
      attachments.set(m.attachment.testCaseStartedId, list);
    }
    if (m.testCaseFinished && !m.testCaseFinished.willBeRetried) finished.push(m.testCaseFinished.testCaseStartedId);
    if (m.testRunFinished) success = m.testRunFinished.success;
  }

  const scenarios: ScenarioSummary[] = [];
  for (const startedId of finished) {
    const pickle = pickles.get(testCases.get(started.get(startedId) ?? '') ?? '');
    if (!pickle) continue;
    const ids = pickle.tags.map((t) => t.name.replace(/^@/, '')).filter((t) => !SIDE_TAGS.has(t) && !t.startsWith('needs-'));
    const result = worst.get(startedId) ?? { status: 'UNKNOWN' };
    const findings: Finding[] = [];
    let notApplicable: string | undefined;
    let harness: string | undefined;
    const transcript: WireEntry[] = [];
    const notes: string[] = [];
    for (const a of attachments.get(startedId) ?? []) {
      if (a.mediaType === LOG_MEDIA_TYPE) notes.push(...a.body.split('\n').filter((l) => l !== ''));
      if (a.mediaType === TRANSCRIPT_MEDIA_TYPE) transcript.push(...decodeTranscript(a.body));
      // only the media types read as one JSON document are parsed (a transcript is one per line)
      const json = a.mediaType === FINDING_MEDIA_TYPE || a.mediaType === APPLICABILITY_MEDIA_TYPE || a.mediaType === HARNESS_ERROR_MEDIA_TYPE;
      const body = json ? (parseJson(a.body) as Record<string, unknown> | undefined) : undefined;
      if (a.mediaType === FINDING_MEDIA_TYPE && body) findings.push(body as unknown as Finding);
      if (a.mediaType === APPLICABILITY_MEDIA_TYPE && typeof body?.not_applicable === 'string') notApplicable = body.not_applicable;
      if (a.mediaType === HARNESS_ERROR_MEDIA_TYPE && typeof body?.harness_error === 'string') harness = harnessReason(body.harness_error);
    }
    const raw = result.status.toLowerCase();
    // a failure message starting "harness error" is the suite's own fault even without its attachment
    if (harness === undefined && raw === 'failed' && result.message && HARNESS_MESSAGE.test(result.message)) harness = result.message.split('\n')[0]!.replace(/^\s*\w*Error:\s*/, '');
    const status: ScenarioStatus =
      raw === 'failed' && harness !== undefined
        ? harnessOutcome(harness)
        : raw === 'skipped'
          ? notApplicable !== undefined
            ? 'not-applicable'
            : 'skipped'
          : raw === 'unknown'
            ? 'undefined'
            : (raw as ScenarioStatus);
    const line =
      [...pickle.astNodeIds]
        .reverse()
        .map((id) => lines.get(id))
        .find((l) => l !== undefined) ?? 0;
    const s: ScenarioSummary = { name: pickle.name, uri: pickle.uri, line, ids, status, findings };
    if (result.message && status === 'failed')
      s.message = result.message
        .split('\n')
        .filter((l) => !/^\s+at /.test(l))
        .join('\n');
    if (notApplicable !== undefined) s.not_applicable = notApplicable;
    if (harness !== undefined) s.harness_error = harness;
    if (transcript.length > 0) s.transcript = transcript;
    if (notes.length > 0) s.notes = notes;
    scenarios.push(s);
  }

  const byId = new Map<string, IdSummary>();
  const credit = (id: string, s: ScenarioSummary, st: IdStatus) => {
    const entry = byId.get(id) ?? { id, status: 'unwitnessed' as IdStatus, scenarios: [] };
    if (!entry.scenarios.some((x) => x.name === s.name && x.line === s.line && x.uri === s.uri)) entry.scenarios.push({ name: s.name, line: s.line, uri: s.uri, status: s.status });
    if (RANK[st] > RANK[entry.status]) entry.status = st;
    byId.set(id, entry);
  };
  for (const s of scenarios) {
    const charged = s.status === 'failed' ? failingIds(s) : [];
    for (const id of s.ids) {
      let st: IdStatus = 'unwitnessed';
      // a scenario failing on other ids it names says nothing about this one (blocked: unwitnessed)
      if (s.status === 'failed') st = charged.includes(id) ? 'failed' : 'unwitnessed';
      else if (s.status === 'passed') st = 'witnessed';
      else if (s.status === 'not-applicable') st = 'not-applicable';
      credit(id, s, st);
    }
    // Every finding counts for its own id, whatever the scenario's outcome and whether or not the scenario is
    // tagged with it (a violation seen in a reply to another probe): error ⇒ failed, warning ⇒ warning. The
    // coverage report (src/conformance/report/build.ts) reads the same findings the same way.
    for (const f of s.findings) credit(f.id, s, f.severity === 'error' ? 'failed' : 'warning');
    for (const id of charged) if (!s.ids.includes(id)) credit(id, s, 'failed');
  }
  const totals: Record<ScenarioStatus, number> = { passed: 0, failed: 0, 'not-applicable': 0, inconclusive: 0, unverified: 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 };
  for (const s of scenarios) totals[s.status]++;
  return {
    success,
    scenarios,
    ids: [...byId.values()],
    totals,
    harness_errors: scenarios.filter((s) => s.status === 'inconclusive' || s.status === 'unverified').length,
    ...(target !== undefined ? { target } : {}),
  };
}

/** `B1, B3: …` / `B4 violated: …` / `Error: S2-wire-shape warning: …` → the ids the message starts with. */
const LEADING_IDS = /^\s*(?:[A-Za-z]*Error(?: \[[^\]]*\])?:\s*)?((?:[A-Z][A-Za-z0-9.-]*[A-Za-z0-9])(?:, [A-Z][A-Za-z0-9.-]*[A-Za-z0-9])*)(?::| violated| warning)/;

/** The ids a failure message starts with (docs/architecture.md "Failure messages"). */
export function leadingIds(message: string): string[] {
  const m = LEADING_IDS.exec(message);
  return m ? m[1]!.split(', ') : [];
}

/**
 * The ids a failed scenario is charged with, one rule for every output (summary, JUnit, JSON, bug reports, the
 * page; the coverage report applies the same rule in src/conformance/report/build.ts): its error findings' ids
 * and the ids its failure message starts with; when it names none, every id it is tagged with (a crash
 * or a timeout that names no id is never hidden).
 */
export function failingIds(s: Pick<ScenarioSummary, 'ids' | 'findings' | 'message'>): string[] {
  const named = new Set(s.findings.filter((f) => f.severity === 'error').map((f) => f.id));
  for (const id of leadingIds(s.message ?? '')) if (s.ids.includes(id) || looksLikeCatalogueId(id)) named.add(id);
  return named.size > 0 ? [...named] : [...s.ids];
}
