/**
 * Stages 1–2 of composition (compose.ts): the budget re-audit of every answer, the canonical
 * order over everything offered, and the pool of frames a quarantine or a per-provider threshold
 * does not drop.
 */
import type { ContextQueryResult } from '../../../generated/types/index.js';
import { auditAnswer, type AuditOptions, type BudgetDropReason } from '../budget-audit.js';
import type { ProviderAnswer } from '../types.js';
import type { Arena } from './arena.js';
import type { DropFn } from './audit.js';
import type { Indices, Table } from './table.js';

/** Why an answer's provider is quarantined (B2), per answer; undefined when the audit admits it. */
export type Quarantine = { rules: string[]; text: string } | undefined;

export function ownValue(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  if (record === undefined || !Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  return record[key];
}

function quarantineText(provider: string, reasons: readonly BudgetDropReason[]): string {
  const parts = reasons.map((r) => {
    if (r.rule === 'B1') return `B1: declared ${Number.isNaN(r.declaredTokens) ? 'a non-numeric total' : `${r.declaredTokens} tokens`} > max_tokens ${r.maxTokens}`;
    if (r.rule === 'B4') return `B4: returned ${r.frames} frames > max_frames ${r.maxFrames}`;
    return `B3: ${r.misdeclared} frame(s) misdeclare token_cost, true total ${r.trueTokens} tokens ${r.overBudgetInTruth ? '>' : '≤'} max_tokens ${r.maxTokens}`;
  });
  return `provider ${JSON.stringify(provider)} quarantined by the budget audit (B2) — ${parts.join('; ')} — no frame of it is used`;
}

/** 1. Budget re-audit per answer (B3 over the content lengths the table measured). */
export function reauditAnswers(answers: readonly ProviderAnswer[], t: Table, options: AuditOptions | undefined): Quarantine[] {
  let offset = 0;
  return answers.map((answer) => {
    const result: ContextQueryResult = { frames: answer.frames.map((rf) => rf.frame), truncated: answer.truncated };
    const audit = auditAnswer(answer.provider, answer.query, result, { ...options, bytesIn: t.receivedBytes, bytesOffset: offset });
    offset += answer.frames.length;
    if (audit.admitted) return undefined;
    const reasons = audit.reasons ?? [];
    return { rules: reasons.map((r) => r.rule), text: quarantineText(answer.provider.name, reasons) };
  });
}

export interface CanonicalOrder {
  /** The items in canonical FrameId order (exact duplicates of one FrameId ordered by Table.tie). */
  byCanon: number[];
  /** Per item: its position in canonical order. */
  canon: Int32Array;
  /** Per item: the canonical position of the first item with its FrameId (equal ⇔ same FrameId). */
  identity: Int32Array;
}

/** Canonical order over everything offered; equal FrameIds share one identity (the first). */
export function canonicalIdentities(t: Table, arena: Arena): CanonicalOrder {
  const total = t.size;
  const byCanon = new Array<number>(total);
  for (let i = 0; i < total; i++) byCanon[i] = i;
  byCanon.sort((a, b) => t.compareIds(a, b) || t.tie(a, b));
  const canon = arena.int32(total);
  const identity = arena.int32(total);
  for (let k = 0; k < total; k++) {
    const i = byCanon[k]!;
    canon[i] = k;
    identity[i] = k > 0 && t.compareIds(byCanon[k - 1]!, i) === 0 ? identity[byCanon[k - 1]!]! : k;
  }
  return { byCanon, canon, identity };
}

/**
 * 1 + 2. The pool, in canonical order: every frame whose provider is not quarantined and whose
 * score meets its provider's own threshold (S6.6), if one is configured; the others are dropped.
 */
export function admitPool(t: Table, byCanon: readonly number[], quarantine: readonly Quarantine[], thresholds: Readonly<Record<string, number>> | undefined, drop: DropFn, arena: Arena): Indices {
  const total = t.size;
  const poolAll = arena.int32(total);
  let poolSize = 0;
  for (let k = 0; k < total; k++) {
    const i = byCanon[k]!;
    const q = quarantine[t.answer[i]!];
    if (q !== undefined) {
      drop(i, { kind: 'provider-quarantined', rules: q.rules.slice() }, q.text);
      continue;
    }
    const threshold = thresholds === undefined ? undefined : ownValue(thresholds, t.provider[i]!);
    if (threshold !== undefined && !(t.score[i]! >= threshold)) {
      drop(
        i,
        { kind: 'below-provider-threshold', threshold, score: t.score[i]! },
        `score ${t.score[i]} below provider ${JSON.stringify(t.provider[i])}'s own threshold ${threshold} (S6.6 per-provider threshold; no cross-provider threshold exists)`,
      );
      continue;
    }
    poolAll[poolSize++] = i;
  }
  return poolAll.subarray(0, poolSize);
}
