/**
 * Usage report (§7.3, UR1): a host-side artifact (not a wire envelope) rolling up what a query's
 * context cost, walkable back to the exact FrameId triples behind the billed total.
 *
 * Decisions (recorded in docs/interpretations.md):
 *  - SERVED = every frame the host received from a provider the budget audit ADMITTED (the
 *    provider delivered it; whether composition then used it is attribution's business, §14).
 *    A provider the audit rejected (B1/B3/B4 → B2) is billed nothing: frames_served 0,
 *    token_cost 0, frames_rejected = the number of frames it sent.
 *  - A served frame is billed its B3 cost, ceil(utf8 bytes of content / 4) — for every admitted
 *    frame under the default audit policy this IS its declared token_cost (the audit drops B3
 *    liars); under `onB3Mismatch: 'report'` the declared value is kept beside it as
 *    `declared_token_cost`, and the bill stays the byte-exact cost (§7.3: "the number a
 *    customer is billed is the number the frames actually cost").
 *  - provider_id = the provider's handshake name (docs/interpretations.md §2); answers sharing a name are merged.
 *  - budget_consumed = Σ providers' token_cost = Σ every served frame's token_cost.
 *  - budget_requested = `budgetRequested` if given, else the composed prompt's budgetTokens,
 *    else the largest max_tokens among the answers' queries.
 *  - as_of is the host's accounting time (F4 profile), not query.as_of.
 *  - Deterministic: providers in UTF-8 order of provider_id, served frames in canonical FrameId
 *    order.
 */
import type { FrameId } from '../../generated/types/index.js';
import { isWellFormedDigest } from '../protocol/digest.js';
import { violation, warning, type Finding } from '../protocol/findings.js';
import { compareFrameIds, frameIdKey } from '../protocol/identity.js';
import { formatProtocolTimestamp, isProtocolTimestamp } from '../protocol/timestamp.js';
import { compareUtf8 } from '../protocol/utf8-order.js';
import { auditAnswer, trueTokenCost, type AuditOptions } from './budget-audit.js';
import type { ComposedPrompt } from './compose/types.js';
import type { ProviderAnswer } from './types.js';

export interface ServedFrame {
  frame: FrameId;
  token_cost: number;
  /** Present only when the provider declared a different (B3-violating) cost. */
  declared_token_cost?: unknown;
}

export interface ProviderUsage {
  provider_id: string;
  frames_served: number;
  frames_rejected: number;
  token_cost: number;
  served_frames: ServedFrame[];
}

export interface UsageReport {
  budget_requested: number;
  budget_consumed: number;
  as_of: string;
  providers: ProviderUsage[];
}

export interface UsageOptions {
  /** Accounting time: a protocol timestamp or a Date (default: now). */
  asOf?: string | Date;
  budgetRequested?: number;
  /** Must match the policy the composition used (default 'drop'). */
  audit?: AuditOptions;
}

/** Build the UR1 usage report for one executed query. */
export function buildUsageReport(answers: readonly ProviderAnswer[], composed?: ComposedPrompt, opts: UsageOptions = {}): UsageReport {
  let asOf: string;
  if (typeof opts.asOf === 'string') {
    if (!isProtocolTimestamp(opts.asOf)) throw new RangeError(`usage report as_of ${JSON.stringify(opts.asOf)} is not a protocol timestamp (F4 profile)`);
    asOf = opts.asOf;
  } else asOf = formatProtocolTimestamp(opts.asOf ?? new Date());

  const byProvider = new Map<string, { usage: ProviderUsage; served: { frame: ServedFrame; rank: number }[] }>();
  for (const answer of answers) {
    const name = answer.provider.name;
    let slot = byProvider.get(name);
    if (slot === undefined) {
      slot = { usage: { provider_id: name, frames_served: 0, frames_rejected: 0, token_cost: 0, served_frames: [] }, served: [] };
      byProvider.set(name, slot);
    }
    const frames = answer.frames.map((rf) => rf.frame);
    const audit = auditAnswer(answer.provider, answer.query, { frames, truncated: answer.truncated }, opts.audit);
    if (!audit.admitted) {
      slot.usage.frames_rejected += answer.frames.length;
      continue;
    }
    for (const rf of answer.frames) {
      const cost = trueTokenCost(rf.frame);
      const served: ServedFrame = { frame: rf.frameId, token_cost: cost };
      if (rf.frame.token_cost !== cost) served.declared_token_cost = rf.frame.token_cost;
      slot.served.push({ frame: served, rank: rf.rank });
    }
  }

  const providers: ProviderUsage[] = [];
  let consumed = 0;
  for (const name of [...byProvider.keys()].sort(compareUtf8)) {
    const { usage, served } = byProvider.get(name)!;
    served.sort((a, b) => compareFrameIds(a.frame.frame, b.frame.frame) || a.rank - b.rank || a.frame.token_cost - b.frame.token_cost);
    usage.served_frames = served.map((s) => s.frame);
    usage.frames_served = usage.served_frames.length;
    usage.token_cost = usage.served_frames.reduce((sum, s) => sum + s.token_cost, 0);
    consumed += usage.token_cost;
    providers.push(usage);
  }

  const requested = opts.budgetRequested ?? composed?.budget.budgetTokens ?? answers.reduce((max, a) => Math.max(max, typeof a.query.max_tokens === 'number' ? a.query.max_tokens : 0), 0);
  return { budget_requested: requested, budget_consumed: consumed, as_of: asOf, providers };
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function frameIdProblem(id: unknown): string | undefined {
  if (id === null || typeof id !== 'object') return 'is not a FrameId object';
  const f = id as Record<string, unknown>;
  if (typeof f.provider_id !== 'string' || f.provider_id === '') return 'has no provider_id';
  if (typeof f.frame_id !== 'string' || f.frame_id === '') return 'has no frame_id';
  if (f.content_digest !== undefined && f.content_digest !== null && !isWellFormedDigest(f.content_digest)) {
    return `has a malformed content_digest ${JSON.stringify(f.content_digest)}`;
  }
  return undefined;
}

/** UR1 consistency: consumed = Σ providers = Σ served frames, every billed frame named by FrameId. */
export function checkUsageReport(report: UsageReport): Finding[] {
  const findings: Finding[] = [];
  if (!isCount(report.budget_consumed)) {
    findings.push(violation('UR1', '/budget_consumed', `budget_consumed ${JSON.stringify(report.budget_consumed)} is not a token count`));
  }
  if (!isProtocolTimestamp(report.as_of)) {
    findings.push(warning('UR1', '/as_of', `as_of ${JSON.stringify(report.as_of)} is not a protocol timestamp`));
  }
  const providers = Array.isArray(report.providers) ? report.providers : [];
  if (!Array.isArray(report.providers)) findings.push(violation('UR1', '/providers', 'providers is not an array'));
  let total = 0;
  const names = new Set<string>();
  providers.forEach((p, i) => {
    const at = `/providers/${i}`;
    if (names.has(p.provider_id)) findings.push(warning('UR1', `${at}/provider_id`, `provider ${JSON.stringify(p.provider_id)} is listed twice`));
    names.add(p.provider_id);
    const served = Array.isArray(p.served_frames) ? p.served_frames : [];
    let sum = 0;
    const seen = new Set<string>();
    served.forEach((s, j) => {
      const sat = `${at}/served_frames/${j}`;
      const problem = frameIdProblem(s?.frame);
      if (problem !== undefined) {
        findings.push(violation('UR1', `${sat}/frame`, `a billed frame must be referenced by its FrameId; this one ${problem}`));
      } else {
        if (s.frame.provider_id !== p.provider_id) {
          findings.push(violation('UR1', `${sat}/frame/provider_id`, `frame of provider ${JSON.stringify(s.frame.provider_id)} billed under provider ${JSON.stringify(p.provider_id)}`));
        }
        const key = frameIdKey(s.frame);
        if (seen.has(key)) findings.push(warning('UR1', sat, `FrameId ${key} is billed more than once by this provider`));
        seen.add(key);
      }
      if (!isCount(s?.token_cost)) findings.push(violation('UR1', `${sat}/token_cost`, `token_cost ${JSON.stringify(s?.token_cost)} is not a token count`));
      else sum += s.token_cost;
    });
    if (p.frames_served !== served.length) {
      findings.push(violation('UR1', `${at}/frames_served`, `frames_served ${p.frames_served} ≠ ${served.length} served_frames listed`));
    }
    if (!isCount(p.frames_rejected)) {
      findings.push(violation('UR1', `${at}/frames_rejected`, `frames_rejected ${JSON.stringify(p.frames_rejected)} is not a count`));
    }
    if (p.token_cost !== sum) {
      findings.push(violation('UR1', `${at}/token_cost`, `provider ${JSON.stringify(p.provider_id)} token_cost ${p.token_cost} ≠ Σ served frames' token_cost ${sum}`));
    }
    total += sum;
  });
  if (report.budget_consumed !== total) {
    findings.push(violation('UR1', '/budget_consumed', `budget_consumed ${report.budget_consumed} ≠ Σ token_cost of the served frames reported ${total}`));
  }
  return findings;
}
