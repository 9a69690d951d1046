/**
 * A compact per-scenario and per-id summary of one suite run, built from the cucumber message stream
 * (what `cgp-conformance stdio|http --json` prints). The full coverage report (all 61 anchors, SPEC order,
 * witnesses with definitions) is built elsewhere from the same messages file (src/conformance/report/).
 *
 * Per scenario: passed / failed / not-applicable (skipped with an applicability attachment) / skipped /
 * undefined / pending / ambiguous, the findings attached, and any harness error (kept apart).
 * Per id: failed > warning > witnessed > not-applicable > unwitnessed, over the scenarios tagged with it.
 */
import type { Finding } from '../../protocol/findings.js';
import { APPLICABILITY_MEDIA_TYPE, FINDING_MEDIA_TYPE, HARNESS_ERROR_MEDIA_TYPE, TARGET_MEDIA_TYPE, TRANSCRIPT_MEDIA_TYPE } from '../evidence/attachments.js';
import { decodeTranscript, type WireEntry } from '../evidence/evidence.js';

/** Cucumber's `this.log` attachments: the scenario's notes. */
const LOG_MEDIA_TYPE = 'text/x.cucumber.log+plain';

/** Side tags (docs/architecture.md "Tags and capabilities"): they say which suite a scenario belongs to, they name no requirement. */
const SIDE_TAGS = new Set(['provider', 'host', 'composition', 'types']);

/** The slice of cucumber's message envelopes this module reads. */
export interface CucumberMessage {
  pickle?: { id: string; uri: string; name: string; tags: Array<{ name: string }>; astNodeIds: string[] };
  gherkinDocument?: { uri?: string; feature?: { children: Array<{ scenario?: { id: string; location: { line: number }; examples?: Array<{ tableBody: Array<{ id: string; location: { line: number } }> }> } }> } };
  testCase?: { id: string; pickleId: string };
  testCaseStarted?: { id: string; testCaseId: string };
  testStepFinished?: { testCaseStartedId: string; testStepResult: { status: string; message?: string } };
  testCaseFinished?: { testCaseStartedId: string; willBeRetried?: boolean };
  attachment?: { testCaseStartedId?: string; mediaType: string; body: string };
  testRunFinished?: { success: boolean };
}

export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable' | 'skipped' | 'undefined' | 'pending' | 'ambiguous';
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
  totals: Record<ScenarioStatus, number>;
  harness_errors: number;
  target?: TargetIdentity;
}

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
      if (a.mediaType === HARNESS_ERROR_MEDIA_TYPE && typeof body?.harness_error === 'string') harness = body.harness_error;
    }
    const raw = result.status.toLowerCase();
    const status: ScenarioStatus =
      raw === 'skipped' ? (notApplicable !== undefined ? 'not-applicable' : 'skipped') : raw === 'unknown' ? 'undefined' : (raw as ScenarioStatus);
    const line = [...pickle.astNodeIds].reverse().map((id) => lines.get(id)).find((l) => l !== undefined) ?? 0;
    const s: ScenarioSummary = { name: pickle.name, uri: pickle.uri, line, ids, status, findings };
    if (result.message && status === 'failed') s.message = result.message.split('\n').filter((l) => !/^\s+at /.test(l)).join('\n');
    if (notApplicable !== undefined) s.not_applicable = notApplicable;
    if (harness !== undefined) s.harness_error = harness;
    if (transcript.length > 0) s.transcript = transcript;
    if (notes.length > 0) s.notes = notes;
    scenarios.push(s);
  }

  const byId = new Map<string, IdSummary>();
  for (const s of scenarios) {
    for (const id of s.ids) {
      const entry = byId.get(id) ?? { id, status: 'unwitnessed' as IdStatus, scenarios: [] };
      entry.scenarios.push({ name: s.name, line: s.line, uri: s.uri, status: s.status });
      const mine = s.findings.filter((f) => f.id === id);
      let st: IdStatus = 'unwitnessed';
      if (s.status === 'failed' && s.harness_error === undefined) {
        // A scenario failing on another id's findings does not fail this one.
        // (findings for untagged ids never fail a scenario: they are credited to their own id below)
        const errors = s.findings.filter((f) => f.severity === 'error' && s.ids.includes(f.id));
        st = errors.length === 0 || mine.some((f) => f.severity === 'error') ? 'failed' : 'witnessed';
      } else if (s.status === 'passed') st = 'witnessed';
      else if (s.status === 'not-applicable') st = 'not-applicable';
      // A finding for this id shows in its status whatever the scenario's own outcome (the coverage report
      // reads the same findings the same way: error ⇒ failed, warning ⇒ at least warning).
      if (mine.some((f) => f.severity === 'error')) st = 'failed';
      else if (st !== 'failed' && mine.some((f) => f.severity === 'warning')) st = 'warning';
      if (RANK[st] > RANK[entry.status]) entry.status = st;
      byId.set(id, entry);
    }
    // Findings for ids the scenario is not tagged with (observed in a reply it received): credited to their id.
    for (const f of s.findings) {
      if (s.ids.includes(f.id) || s.harness_error !== undefined) continue;
      const entry = byId.get(f.id) ?? { id: f.id, status: 'unwitnessed' as IdStatus, scenarios: [] };
      if (!entry.scenarios.some((x) => x.name === s.name && x.line === s.line && x.uri === s.uri)) {
        entry.scenarios.push({ name: s.name, line: s.line, uri: s.uri, status: s.status });
      }
      const st: IdStatus = f.severity === 'error' ? 'failed' : 'warning';
      if (RANK[st] > RANK[entry.status]) entry.status = st;
      byId.set(f.id, entry);
    }
  }
  const totals = { passed: 0, failed: 0, 'not-applicable': 0, skipped: 0, undefined: 0, pending: 0, ambiguous: 0 } as Record<ScenarioStatus, number>;
  for (const s of scenarios) totals[s.status]++;
  return {
    success,
    scenarios,
    ids: [...byId.values()],
    totals,
    harness_errors: scenarios.filter((s) => s.harness_error !== undefined).length,
    ...(target !== undefined ? { target } : {}),
  };
}
