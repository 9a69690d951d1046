/**
 * composeForPrompt: what reaches the prompt, and why every other offered frame did not (R3, §11.1).
 *
 * Pipeline (every step a pure function of the frame SET — never of the order of `answers`, of the
 * frames inside an answer, or of host-local routing ids). compose() runs one named stage function
 * per step, in this order, over the offered frames held as columns (tabulateOffered, table.ts):
 *  1. reauditAnswers (admit.ts): re-audit every answer's budget (auditAnswer, B1/B3/B4 → B2). A
 *     provider the audit rejects is QUARANTINED: all its frames are dropped `provider-quarantined`
 *     and it contributes nothing — even if a caller passed its answer in by mistake. Pass every
 *     answer received, including rejected ones: their frames then appear in the audit too.
 *     canonicalIdentities (admit.ts) then puts everything offered in canonical FrameId order.
 *  2. admitPool (admit.ts): the quarantine of 1, then per-provider score thresholds (S6.6), if
 *     configured — never a cross-provider one (F10).
 *  3. dedupSurvivors (survivors.ts): dedup (D2): frames sharing one FrameId are one frame (its best
 *     copy represents it, with the union of the copies' provenance); then proven duplicates across
 *     frames — same digest AND identical bytes, or overlapping file provenance across providers
 *     (dedup.ts has the proofs and the survivor rule, which never compares scores).
 *  4. rankCandidates (rank.ts): rank the survivors with the RankingStrategy (default
 *     ScoreDescending, a declared policy); assignCitations gives each a unique citation label.
 *  5. Pack: measureBlocks (measure.ts) costs every candidate's block; packByStrategy (pack.ts)
 *     walks the strategy order and admits a frame iff its cost fits the remaining global budget
 *     (and its provider's remaining share under an `equal`/`quota` split); otherwise drops it
 *     `over-budget` / `over-provider-share` and CONTINUES (a later cheaper frame may still fit).
 *     Cost = max(ceil(utf8 bytes of its whole rendered block / 4), declared token_cost); the
 *     constant preamble is charged once, up front. So ceil(bytes(text)/4) ≤ usedTokens ≤ budget.
 *  6. placeAdmitted (pack.ts): place (fold-to-edges by default); renderPrompt (write.ts): render
 *     fenced blocks (render.ts) after the preamble.
 *  7. retainInclusionProofs (proofs.ts), F13: every kept frame of a signed result keeps an
 *     inclusion proof (carried, or derived with retainProofs from the COMPLETE signed result
 *     before anything is dropped).
 *  8. buildAudit (audit.ts): one entry per offered frame — admitted (in render order) then dropped
 *     (canonical FrameId order): admitted + dropped = offered, always. Every stage that drops a
 *     frame records it through one DropFn (audit.ts).
 *
 * Ties everywhere end in canonical FrameId order (UTF-8 bytes); exact duplicates of one FrameId
 * are further ordered by within-provider rank and content, so even they are deterministic.
 *
 * Engineering (bench/compose, 10k and 100k frames): the frames are held as columns (Table), not
 * one object each; scratch arrays come from a reused Arena, which compose() holds for the whole
 * call and the stages carve their typed arrays from; per-frame passes run in received order
 * (memory order) and the strategy walk touches only small typed arrays; hash lookups use a flat
 * open-addressing index (string-index.ts); no per-frame regex is compiled; an admitted frame's
 * output record is created once and shared by `frames` and `audit`.
 */
import { SAFETY_FACTOR } from '../../protocol/token-cost.js';
import { compareUtf8 } from '../../protocol/utf8-order.js';
import type { ProviderAnswer } from '../types.js';
import { admitPool, canonicalIdentities, reauditAnswers } from './admit.js';
import { acquireArena, releaseArena, type Arena } from './arena.js';
import { buildAudit, dropRecorder, type Drop } from './audit.js';
import { checkSafetyFactor, modelToBudgetTokens } from './budget.js';
import { measureBlocks, PREAMBLE_TOKENS } from './measure.js';
import { packByStrategy, placeAdmitted } from './pack.js';
import { retainInclusionProofs } from './proofs.js';
import { assignCitations, rankCandidates } from './rank.js';
import { blocksOf } from './render.js';
import { ScoreDescending, type RankingStrategy } from './strategy.js';
import { dedupSurvivors } from './survivors.js';
import { tabulateOffered } from './table.js';
import type { ComposedPrompt, ComposeOptions } from './types.js';
import { renderPrompt } from './write.js';

function resolveBudget(opts: ComposeOptions): { budgetTokens: number; safetyFactor: number; mapped: boolean } {
  const safetyFactor = opts.safetyFactor ?? SAFETY_FACTOR;
  checkSafetyFactor(safetyFactor);
  const hasBudget = opts.budgetTokens !== undefined;
  const hasModel = opts.modelBudgetTokens !== undefined;
  if (hasBudget === hasModel) throw new RangeError('composeForPrompt: give exactly one of budgetTokens or modelBudgetTokens');
  if (hasModel) return { budgetTokens: modelToBudgetTokens(opts.modelBudgetTokens!, safetyFactor), safetyFactor, mapped: true };
  const b = opts.budgetTokens!;
  if (!Number.isSafeInteger(b) || b < 0) throw new RangeError(`composeForPrompt: budgetTokens must be an integer ≥ 0, got ${b}`);
  return { budgetTokens: b, safetyFactor, mapped: false };
}

/** Compose the answers into one fenced prompt under a global budget. See the module comment. */
export function composeForPrompt(answers: readonly ProviderAnswer[], opts: ComposeOptions): ComposedPrompt {
  const arena = acquireArena();
  try {
    return compose(answers, opts, arena);
  } finally {
    releaseArena(arena);
  }
}

function compose(answers: readonly ProviderAnswer[], opts: ComposeOptions, arena: Arena): ComposedPrompt {
  const { budgetTokens, safetyFactor, mapped } = resolveBudget(opts);
  const strategy = opts.strategy ?? new ScoreDescending();
  const split = opts.split ?? { kind: 'global' };
  const placement = opts.placement ?? 'fold-to-edges';
  const thresholds = opts.providerThresholds;

  const t = tabulateOffered(answers, arena);
  const total = t.size;
  const quarantine = reauditAnswers(answers, t, opts.audit);
  const { byCanon, canon, identity } = canonicalIdentities(t, arena);
  const drops: Drop[] = [];
  const drop = dropRecorder(t, canon, drops);
  const pool = admitPool(t, byCanon, quarantine, thresholds, drop, arena);
  const { cand, warnings } = dedupSurvivors(t, pool, canon, identity, drop, arena);
  const ranking = rankCandidates(t, cand, strategy, arena);
  const providers = ranking.providers;
  const cite = assignCitations(t, cand, arena);
  const measured = measureBlocks(t, cand, cite, arena);
  const frameBudget = Math.max(0, budgetTokens - PREAMBLE_TOKENS);
  const packing = packByStrategy(cand, ranking, measured.cost, split, budgetTokens, frameBudget, drop, arena);
  const { shares, splitName } = packing;
  const positionOf = placeAdmitted(packing.admitted, cand.length, placement, arena);
  const { text, frames } = renderPrompt(t, measured, cite, packing, positionOf, arena);
  retainInclusionProofs(answers, t, cand, packing.admitted, positionOf, frames);
  const usedTokens = frames.length === 0 ? 0 : PREAMBLE_TOKENS + packing.used;
  const audit = buildAudit(frames, drops, total);
  const policyNote = policyNoteOf(strategy, splitName, thresholds);

  warnings.sort(compareUtf8);
  const result: ComposedPrompt = {
    text,
    blocks: blocksOf(text, frames),
    dropped: drops.map((d) => ({ frameId: d.entry.frame, reason: d.entry.reason.kind, detail: d.entry.detail })),
    frames,
    audit,
    budget: {
      budgetTokens,
      usedTokens,
      safetyFactor,
      mappedFrom: mapped ? 'model-tokens' : 'budget-tokens',
      preambleTokens: PREAMBLE_TOKENS,
      split: splitName,
    },
    strategy: strategy.name,
    policyNote,
    warnings,
  };
  if (mapped) result.budget.modelBudgetTokens = opts.modelBudgetTokens!;
  if (shares !== undefined) result.budget.shares = Object.fromEntries(providers.map((p, i) => [p, shares![i]!]));
  return result;
}

/** The declared cross-provider policy (F10): the strategy's note, the split, the thresholds, the dedup rule. */
function policyNoteOf(strategy: RankingStrategy, splitName: string, thresholds: Readonly<Record<string, number>> | undefined): string {
  const thresholdNames = thresholds === undefined ? [] : Object.keys(thresholds).sort(compareUtf8);
  const thresholdsNote =
    thresholdNames.length > 0
      ? ` Per-provider thresholds (each applied to that provider's own scores only, S6.6): ${thresholdNames.map((p) => `${JSON.stringify(p)} ≥ ${thresholds![p]}`).join(', ')}.`
      : '';
  return (
    `${strategy.policyNote} Budget split: ${splitName}. No cross-provider score threshold is applied (F10).${thresholdsNote}` +
    ' Duplicates are resolved by proof (identity, digest + identical bytes, overlapping file provenance), the survivor' +
    ' chosen by inline content, attestation, within-provider rank, then canonical FrameId — never by score.'
  );
}
