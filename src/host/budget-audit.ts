/**
 * Host budget audit (§7: B1, B3, B4 checked on a provider's answer → B2 acted on by the host).
 *
 * One provider's answer is judged as a whole. A provider that breaks its budget is dropped
 * ENTIRELY — `admitted: false` — with a loud report naming the provider (its `provider.name`
 * and the host-local routing id), what it declared and what was allowed. Nothing is ever
 * silently truncated: the host never keeps "the first frames that fit" of a violator.
 *
 * Drop policy (decision, recorded in docs/interpretations.md):
 *  - B1 (Σ declared token_cost > max_tokens)  ⇒ dropped (B2 mandates it).
 *  - B4 (frame count > max_frames)            ⇒ dropped (a flood is dropped like an overspend).
 *  - B3 (declared token_cost ≠ ceil(utf8 bytes/4), a missing content counting as "") is a
 *    provider MUST violation, reported per frame as an error finding. When the TRUE total
 *    (recomputed costs) exceeds max_tokens, B1 is violated in truth ⇒ always dropped.
 *    A B3 liar whose true total fits is ALSO dropped by default (`onB3Mismatch: 'drop'`):
 *    every declared cost of a provider that misstates one cannot be trusted for billing
 *    (UR1 bills declared costs) and §7.1 says B1 without B3 checks arithmetic, not truth.
 *    A host may choose `onB3Mismatch: 'report'` to keep such a provider (findings stay errors).
 */
import type { ContextFrame, ContextQuery, ContextQueryResult } from '../../generated/types/index.js';
import { violation, type Finding } from '../protocol/findings.js';
import { utf8ByteLength, BYTES_PER_BUDGET_TOKEN } from '../protocol/token-cost.js';
import type { ProviderDescriptor } from './types.js';

/** Why a provider was dropped, structured (the report renders these). */
export type BudgetDropReason =
  | { rule: 'B1'; declaredTokens: number; maxTokens: number }
  | { rule: 'B4'; frames: number; maxFrames: number }
  | { rule: 'B3'; misdeclared: number; trueTokens: number; maxTokens: number; overBudgetInTruth: boolean };

export interface BudgetAudit {
  admitted: boolean;
  findings: Finding[];
  /** One human-readable line (or several joined by "; "), loud when the provider is dropped. */
  report: string;
  /** Structured drop reasons (empty when admitted). */
  reasons?: BudgetDropReason[];
  /** Σ declared token_cost (NaN when a declared cost is not a number). */
  declaredTokens?: number;
  /** Σ recomputed token_cost (B3 rule over the inline content). */
  trueTokens?: number;
  frameCount?: number;
}

export interface AuditOptions {
  /** What to do with a B3 liar whose true total still fits max_tokens (default 'drop'). */
  onB3Mismatch?: 'drop' | 'report';
  /**
   * Each frame's content UTF-8 byte length, already measured by the caller (frame i at
   * `bytesOffset + i`; absent content measured as ""), so a caller that needs them too
   * (composition) reads every content once. The audit trusts them: pass exact figures.
   */
  bytesIn?: Int32Array;
  bytesOffset?: number;
}

/** The B3 cost of a frame's inline content (absent content counts as ""). */
export function trueTokenCost(frame: Pick<ContextFrame, 'content'>): number {
  const content = typeof frame.content === 'string' ? frame.content : '';
  return Math.ceil(utf8ByteLength(content) / BYTES_PER_BUDGET_TOKEN);
}

function who(provider: ProviderDescriptor): string {
  return `provider ${JSON.stringify(provider.name)} (routing ${provider.routingId})`;
}

function isCost(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

const MAX_LISTED = 3;

/**
 * Audit one provider's answer against the query it was sent (B1, B3, B4 → B2).
 * Pure: no I/O; the same input always yields the same audit.
 */
export function auditAnswer(provider: ProviderDescriptor, query: ContextQuery, result: ContextQueryResult, options: AuditOptions = {}): BudgetAudit {
  const onB3 = options.onB3Mismatch ?? 'drop';
  const frames = Array.isArray(result.frames) ? result.frames : [];
  const findings: Finding[] = [];
  const maxTokens = query.max_tokens;
  const maxFrames = query.max_frames;

  let declaredTokens = 0;
  let trueTokens = 0;
  const lies: string[] = [];
  let misdeclared = 0;
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i]!;
    const declared: unknown = frame.token_cost;
    const bytes = options.bytesIn !== undefined ? options.bytesIn[(options.bytesOffset ?? 0) + i]! : utf8ByteLength(typeof frame.content === 'string' ? frame.content : '');
    const cost = Math.ceil(bytes / BYTES_PER_BUDGET_TOKEN);
    trueTokens += cost;
    declaredTokens += typeof declared === 'number' ? declared : NaN;
    if (!isCost(declared) || declared !== cost) {
      misdeclared++;
      const what = `frame ${JSON.stringify(frame.id)} declares token_cost ${JSON.stringify(declared)}, ` + `content is ${bytes} bytes → ceil(${bytes}/4) = ${cost}`;
      if (lies.length < MAX_LISTED) lies.push(what);
      findings.push(violation('B3', `/frames/${i}/token_cost`, `${who(provider)}: ${what}`));
    }
  }

  const reasons: BudgetDropReason[] = [];
  const lines: string[] = [];
  const dropped = '— no frame of it is used';

  if (!(declaredTokens <= maxTokens)) {
    const declaredText = Number.isNaN(declaredTokens) ? 'a non-numeric total' : `${declaredTokens} tokens`;
    findings.push(violation('B1', '/frames', `${who(provider)} declares ${declaredText} > max_tokens ${maxTokens}`));
    reasons.push({ rule: 'B1', declaredTokens, maxTokens });
    lines.push(`B2: dropped ${who(provider)}: declared ${declaredText} > max_tokens ${maxTokens} ${dropped}`);
  }
  if (frames.length > maxFrames) {
    findings.push(violation('B4', '/frames', `${who(provider)} returned ${frames.length} frames > max_frames ${maxFrames}`));
    reasons.push({ rule: 'B4', frames: frames.length, maxFrames });
    lines.push(`B4: dropped ${who(provider)}: returned ${frames.length} frames > max_frames ${maxFrames} ${dropped}`);
  }
  if (misdeclared > 0) {
    const overBudgetInTruth = trueTokens > maxTokens;
    const listed = lies.join('; ') + (misdeclared > lies.length ? `; and ${misdeclared - lies.length} more` : '');
    const truth = `true total ${trueTokens} tokens ${overBudgetInTruth ? '>' : '≤'} max_tokens ${maxTokens}`;
    if (overBudgetInTruth || onB3 === 'drop') {
      reasons.push({ rule: 'B3', misdeclared, trueTokens, maxTokens, overBudgetInTruth });
      lines.push(`B3: dropped ${who(provider)}: ${misdeclared} frame(s) misdeclare token_cost (${listed}); ${truth} ${dropped}`);
    } else {
      lines.push(`B3: LOUD WARNING ${who(provider)} kept by host policy although ${misdeclared} frame(s) misdeclare token_cost (${listed}); ${truth}`);
    }
  }

  const admitted = reasons.length === 0;
  if (admitted && lines.length === 0) {
    lines.push(
      `budget audit: ${who(provider)} admitted: ${frames.length} frame(s) ≤ max_frames ${maxFrames}, ` +
        `declared ${declaredTokens} tokens ≤ max_tokens ${maxTokens}, every token_cost recomputed (B3)`,
    );
  }
  return {
    admitted,
    findings,
    report: lines.join('; '),
    reasons,
    declaredTokens,
    trueTokens,
    frameCount: frames.length,
  };
}
