// Reads Cucumber Messages NDJSON (the `message` formatter's output, one envelope per line) into one result per
// planned scenario: its tags, final status, findings, applicability and the step definitions it used.
// Only the envelope members the report needs are typed here (the full types live in @cucumber/messages, a
// transitive dependency we do not import).

import { readFileSync } from 'node:fs';
import { APPLICABILITY_MEDIA_TYPE, FINDING_MEDIA_TYPE, HARNESS_ERROR_MEDIA_TYPE, harnessOutcome } from '../evidence/attachments.js';
import { MalformedMessagesError, type Finding } from './types.js';

/** A scenario's outcome for the last attempt cucumber made. */
export type ScenarioStatus = 'passed' | 'failed' | 'not-applicable' | 'skipped' | 'pending' | 'undefined' | 'ambiguous' | 'inconclusive' | 'unverified' | 'not-run';

export interface StepDefinitionRef {
  uri: string;
  line: number;
}

export interface ScenarioResult {
  /** The message file this came from. */
  source: string;
  scenario: string;
  feature: string;
  line: number;
  /** Tag names including the `@`, as cucumber reports them (feature, rule, scenario and examples tags). */
  tags: string[];
  status: ScenarioStatus;
  /** Reasons from `application/vnd.cgp.applicability+json` attachments (sorted, unique). */
  notApplicable: string[];
  findings: Finding[];
  /** The messages of the failed steps/hooks, in step order. */
  failureMessages: string[];
  /** Harness errors (`application/vnd.cgp.harness-error+json` attachments), in attachment order. */
  harnessErrors: string[];
  /** Step definitions the scenario's steps matched (uri, line), in step order. */
  stepDefinitions: StepDefinitionRef[];
}

export interface ParsedMessages {
  scenarios: ScenarioResult[];
  /** Every step definition the run declared: id is local to the file. */
  stepDefinitions: Array<StepDefinitionRef & { pattern: string }>;
}

interface Loc {
  line?: number;
}
interface AstNode {
  id?: string;
  location?: Loc;
  [key: string]: unknown;
}

// Cucumber's step statuses, worst first: the scenario's status is the worst of its steps'.
const STEP_ORDER = ['FAILED', 'AMBIGUOUS', 'UNDEFINED', 'PENDING', 'SKIPPED', 'PASSED', 'UNKNOWN'] as const;

export function readMessagesFile(path: string): ParsedMessages {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new MalformedMessagesError(path, `cannot read: ${(err as Error).message}`);
  }
  return parseMessages(path, text);
}

export function parseMessages(source: string, text: string): ParsedMessages {
  const astLines = new Map<string, number>();
  const pickles = new Map<string, Record<string, unknown>>();
  const testCases = new Map<string, { pickleId: string; steps: Array<Record<string, unknown>> }>();
  const starts = new Map<string, { testCaseId: string; attempt: number }>();
  const finished = new Map<string, boolean>(); // testCaseStartedId → willBeRetried
  const stepResults = new Map<string, Array<{ testStepId: string; status: string; message?: string }>>();
  const attachments = new Map<string, Array<{ mediaType: string; body: string }>>();
  const stepDefs = new Map<string, StepDefinitionRef & { pattern: string }>();
  let sawMessage = false;

  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let envelope: Record<string, Record<string, unknown>>;
    try {
      envelope = JSON.parse(line) as Record<string, Record<string, unknown>>;
    } catch {
      throw new MalformedMessagesError(`${source}:${index + 1}`, 'not a JSON envelope (is this Cucumber Messages NDJSON?)');
    }
    if (envelope === null || typeof envelope !== 'object') {
      throw new MalformedMessagesError(`${source}:${index + 1}`, 'not an envelope object');
    }
    sawMessage = true;
    if (envelope.gherkinDocument) collectAstLines(envelope.gherkinDocument, astLines);
    const p = envelope.pickle;
    if (p && typeof p.id === 'string') pickles.set(p.id, p);
    const tc = envelope.testCase;
    if (tc && typeof tc.id === 'string') {
      testCases.set(tc.id, {
        pickleId: String(tc.pickleId),
        steps: Array.isArray(tc.testSteps) ? (tc.testSteps as Array<Record<string, unknown>>) : [],
      });
    }
    const st = envelope.testCaseStarted;
    if (st && typeof st.id === 'string') {
      starts.set(st.id, { testCaseId: String(st.testCaseId), attempt: Number(st.attempt ?? 0) });
    }
    const fin = envelope.testCaseFinished;
    if (fin && typeof fin.testCaseStartedId === 'string') finished.set(fin.testCaseStartedId, fin.willBeRetried === true);
    const sf = envelope.testStepFinished;
    if (sf && typeof sf.testCaseStartedId === 'string') {
      const result = (sf.testStepResult ?? {}) as { status?: string; message?: string; exception?: { message?: string } };
      const list = stepResults.get(sf.testCaseStartedId) ?? [];
      list.push({
        testStepId: String(sf.testStepId),
        status: String(result.status ?? 'UNKNOWN'),
        message: result.message ?? result.exception?.message,
      });
      stepResults.set(sf.testCaseStartedId, list);
    }
    const at = envelope.attachment;
    if (at && typeof at.testCaseStartedId === 'string') {
      const mediaType = String(at.mediaType ?? '');
      if (mediaType === FINDING_MEDIA_TYPE || mediaType === APPLICABILITY_MEDIA_TYPE || mediaType === HARNESS_ERROR_MEDIA_TYPE) {
        const body = at.contentEncoding === 'BASE64' ? Buffer.from(String(at.body ?? ''), 'base64').toString('utf8') : String(at.body ?? '');
        const list = attachments.get(at.testCaseStartedId) ?? [];
        list.push({ mediaType, body });
        attachments.set(at.testCaseStartedId, list);
      }
    }
    const sd = envelope.stepDefinition;
    if (sd && typeof sd.id === 'string') {
      const ref = (sd.sourceReference ?? {}) as { uri?: string; location?: Loc };
      const pattern = (sd.pattern ?? {}) as { source?: string };
      stepDefs.set(sd.id, {
        uri: normaliseUri(ref.uri ?? ''),
        line: ref.location?.line ?? 0,
        pattern: pattern.source ?? '',
      });
    }
  });
  if (!sawMessage) throw new MalformedMessagesError(source, 'empty message file');

  // The final attempt per test case: the one not to be retried, else the highest attempt seen.
  const finalStart = new Map<string, string>();
  for (const [startedId, start] of [...starts.entries()].sort((a, b) => a[1].attempt - b[1].attempt)) {
    const current = finalStart.get(start.testCaseId);
    if (current !== undefined && finished.get(current) === false) continue;
    finalStart.set(start.testCaseId, startedId);
  }

  const scenarios: ScenarioResult[] = [];
  for (const [testCaseId, testCase] of testCases) {
    const pickle = pickles.get(testCase.pickleId);
    if (!pickle) throw new MalformedMessagesError(source, `testCase ${testCaseId} names an unknown pickle`);
    const astNodeIds = Array.isArray(pickle.astNodeIds) ? (pickle.astNodeIds as string[]) : [];
    const pickleLoc = pickle.location as Loc | undefined;
    const line = pickleLoc?.line ?? astLines.get(astNodeIds[astNodeIds.length - 1] ?? '') ?? astLines.get(astNodeIds[0] ?? '') ?? 0;
    const tags = Array.isArray(pickle.tags) ? (pickle.tags as Array<{ name?: string }>).map((t) => String(t.name ?? '')).filter((t) => t !== '') : [];
    const stepDefinitions: StepDefinitionRef[] = [];
    for (const step of testCase.steps) {
      if (!Array.isArray(step.stepDefinitionIds)) continue;
      for (const id of step.stepDefinitionIds as string[]) {
        const def = stepDefs.get(id);
        if (def) stepDefinitions.push({ uri: def.uri, line: def.line });
      }
    }
    const startedId = finalStart.get(testCaseId);
    const result: ScenarioResult = {
      source,
      scenario: String(pickle.name ?? ''),
      feature: normaliseUri(String(pickle.uri ?? '')),
      line,
      tags,
      status: 'not-run',
      notApplicable: [],
      findings: [],
      failureMessages: [],
      harnessErrors: [],
      stepDefinitions,
    };
    if (startedId !== undefined) {
      const where = `${result.feature}:${line}`;
      const steps = stepResults.get(startedId) ?? [];
      const stepIndex = new Map(testCase.steps.map((s, i) => [String(s.id), i]));
      steps.sort((a, b) => (stepIndex.get(a.testStepId) ?? 0) - (stepIndex.get(b.testStepId) ?? 0));
      let worst = STEP_ORDER.length - 1;
      for (const s of steps) {
        const rank = STEP_ORDER.indexOf(s.status as (typeof STEP_ORDER)[number]);
        const r = rank < 0 ? STEP_ORDER.length - 1 : rank;
        if (r < worst) worst = r;
        if (s.status === 'FAILED' && s.message) result.failureMessages.push(s.message);
      }
      const reasons = new Set<string>();
      for (const a of attachments.get(startedId) ?? []) {
        if (a.mediaType === FINDING_MEDIA_TYPE) result.findings.push(parseFinding(source, where, a.body));
        else if (a.mediaType === HARNESS_ERROR_MEDIA_TYPE) result.harnessErrors.push(parseHarnessError(a.body));
        else reasons.add(parseApplicability(source, where, a.body));
      }
      result.notApplicable = [...reasons].sort();
      const worstStatus = steps.length === 0 ? 'UNKNOWN' : STEP_ORDER[worst];
      result.status = scenarioStatus(worstStatus, result.notApplicable.length > 0);
      // a harness error (its attachment, or a failure message starting "harness error") is never a failure of
      // the target: unverified ("unverified: needs <capability>") or inconclusive, as in every other output
      const harnessMessage = result.failureMessages.find((m) => /^\s*(?:\w*Error:\s*)?harness error/.test(m));
      if (result.status === 'failed' && (result.harnessErrors.length > 0 || harnessMessage !== undefined)) {
        result.status = harnessOutcome(result.harnessErrors[0] ?? harnessMessage ?? '');
      }
    }
    scenarios.push(result);
  }
  return { scenarios, stepDefinitions: [...stepDefs.values()] };
}

function scenarioStatus(worst: string, notApplicable: boolean): ScenarioStatus {
  switch (worst) {
    case 'FAILED':
      return 'failed';
    case 'AMBIGUOUS':
      return 'ambiguous';
    case 'UNDEFINED':
      return 'undefined';
    case 'PENDING':
      return 'pending';
    case 'SKIPPED':
      return notApplicable ? 'not-applicable' : 'skipped';
    case 'PASSED':
      // A step that declared "not applicable" and still returned normally is not a pass either.
      return notApplicable ? 'not-applicable' : 'passed';
    default:
      return 'not-run';
  }
}

function parseFinding(source: string, where: string, body: string): Finding {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new MalformedMessagesError(source, `finding attachment in ${where} is not JSON`);
  }
  const f = value as Partial<Finding> | null;
  if (f === null || typeof f !== 'object' || typeof f.id !== 'string' || f.id === '' || (f.severity !== 'error' && f.severity !== 'warning')) {
    throw new MalformedMessagesError(source, `finding attachment in ${where} lacks an id or a severity error|warning`);
  }
  return {
    id: f.id,
    severity: f.severity,
    pointer: typeof f.pointer === 'string' ? f.pointer : '',
    message: typeof f.message === 'string' ? f.message : '',
  };
}

function parseHarnessError(body: string): string {
  try {
    const value = JSON.parse(body) as { harness_error?: unknown } | null;
    if (typeof value?.harness_error === 'string') return value.harness_error;
  } catch {
    // not JSON: keep the raw text
  }
  return body;
}

function parseApplicability(source: string, where: string, body: string): string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new MalformedMessagesError(source, `applicability attachment in ${where} is not JSON`);
  }
  const reason = (value as { not_applicable?: unknown } | null)?.not_applicable;
  if (typeof reason !== 'string' || reason === '') {
    throw new MalformedMessagesError(source, `applicability attachment in ${where} lacks "not_applicable": "<reason>"`);
  }
  return reason;
}

function collectAstLines(node: unknown, out: Map<string, number>): void {
  if (Array.isArray(node)) {
    for (const child of node) collectAstLines(child, out);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as AstNode;
  if (typeof n.id === 'string' && typeof n.location?.line === 'number') out.set(n.id, n.location.line);
  for (const [key, value] of Object.entries(n)) {
    if (key !== 'location' && typeof value === 'object') collectAstLines(value, out);
  }
}

function normaliseUri(uri: string): string {
  return uri.replace(/\\/g, '/');
}
