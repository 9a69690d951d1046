/** Shapes of prompt composition (R3, F10, F13, D2, S6.4.1, S7.2). */
import type { FrameId, InclusionProof } from '../../../generated/types/index.js';
import type { AuditOptions } from '../budget-audit.js';
import type { AttestationVerdict, FrameEvidence } from '../types.js';
import type { DuplicateProof } from './dedup.js';
import type { RankingStrategy } from './strategy.js';
import type { RenderedBlock } from './render.js';

/**
 * How the global budget is split across providers (the packer walks the strategy order and a
 * frame is admitted only if it fits every cap that applies to it):
 *  - `global` (default): one global cap; no per-provider share.
 *  - `equal`: each provider with at least one rankable frame gets ⌊B/n⌋ tokens, the first
 *    B mod n providers (UTF-8 order of provider id) one more — Σ shares = B exactly.
 *  - `quota`: explicit per-provider caps (tokens) keyed by provider id; a provider not listed
 *    gets 0. The global cap still applies, so Σ quotas may exceed B.
 * `redistribute: true` makes a second walk over frames refused only by their share, with the
 * global cap alone (unused shares are lent to others); default false (strict shares).
 */
export type BudgetSplit = { kind: 'global' } | { kind: 'equal'; redistribute?: boolean } | { kind: 'quota'; tokens: Readonly<Record<string, number>>; redistribute?: boolean };

export interface ComposeOptions {
  /** The global budget in budget tokens (§7 accounting unit). Give this OR modelBudgetTokens. */
  budgetTokens?: number;
  /** The global budget in REAL model tokens, mapped to ⌊model / safetyFactor⌋ budget tokens (S7.2). */
  modelBudgetTokens?: number;
  /** Model-token → budget-token safety factor, > 1 (default SAFETY_FACTOR = 1.35). */
  safetyFactor?: number;
  /** Cross-provider policy (default ScoreDescending — a documented host policy, F10). */
  strategy?: RankingStrategy;
  split?: BudgetSplit;
  /**
   * Per-provider score thresholds keyed by provider id (S6.6-single-provider-threshold: a
   * threshold applies to ONE provider's scores). There is deliberately no cross-provider one (F10).
   */
  providerThresholds?: Readonly<Record<string, number>>;
  /**
   * Placement of the admitted frames: `fold-to-edges` (default; value-aware: best first, second
   * best last, weakest in the middle) or `rank-order` (strategy order top to bottom).
   */
  placement?: 'fold-to-edges' | 'rank-order';
  /** Passed to the budget re-audit of every answer (auditAnswer). */
  audit?: AuditOptions;
}

export type DropReason =
  | { kind: 'provider-quarantined'; rules: string[] }
  | { kind: 'below-provider-threshold'; threshold: number; score: number }
  | { kind: 'duplicate'; of: FrameId; proof: DuplicateProof }
  | { kind: 'identity-conflict'; of: FrameId }
  | { kind: 'over-budget'; tokens: number; remaining: number }
  | { kind: 'over-provider-share'; tokens: number; remaining: number; share: number };

/** F13 bookkeeping for a kept frame of a signed result. */
export interface F13Record {
  /** The composition keeps a strict subset of that signed result. */
  strictSubset: boolean;
  /** carried (evidence or frame_attestations) | derived (retainProofs over the complete result) | unavailable. */
  proof: 'carried' | 'derived' | 'unavailable';
  resultRoot?: string;
  detail?: string;
}

interface AuditEntryBase {
  frame: FrameId;
  provider: string;
  /** The frame's within-provider rank as received. */
  rank: number;
  /** The provider-declared token_cost (as received). */
  declaredTokens: unknown;
  detail: string;
}

/**
 * The record of an admitted frame. It is at once its audit entry and its ComposedFrame: one
 * object per rendered frame, listed in `audit` (admitted first, in render order) and in `frames`.
 */
export interface AdmittedAuditEntry extends AuditEntryBase {
  disposition: 'admitted';
  /** = `frame` (the FrameId), under the name ComposedFrame readers use. */
  frameId: FrameId;
  kind: string;
  representation: 'full' | 'compact' | 'reference' | string;
  /** Unique citation label, as placed (unescaped) in the cite attribute. */
  citation: string;
  /** Position in the rendered prompt (0-based). */
  position: number;
  /** Position in the strategy's order among rankable frames (0-based). */
  selectionRank: number;
  /** Budget tokens charged: max(cost of the whole rendered block, declared token_cost). */
  tokens: number;
  /** A reference frame: its contribution is empty (S6.4.1-unrehydratable-empty). */
  emptyContribution: boolean;
  /** content_digest present ⇒ verifiable via verify (§9); absent ⇒ D3 applies. */
  verifiable: boolean;
  attestation: AttestationVerdict;
  /** As received, plus the F13 inclusion proof / result root kept for a signed result. */
  evidence?: FrameEvidence;
  f13?: F13Record;
}

export interface DroppedAuditEntry extends AuditEntryBase {
  disposition: 'dropped';
  reason: DropReason;
  /** Set when the frame was ranked (selected) and then refused by the packer. */
  selectionRank?: number;
}

export type AuditEntry = AdmittedAuditEntry | DroppedAuditEntry;

/** A rendered frame, in render order: the same record as its admitted audit entry. */
export type ComposedFrame = AdmittedAuditEntry;

export interface ComposedBudget {
  /** The global budget in budget tokens. */
  budgetTokens: number;
  /** Charged: preamble + Σ admitted block costs (0 when nothing is admitted). ≤ budgetTokens. */
  usedTokens: number;
  /** The factor applied to modelBudgetTokens (reported even when budgetTokens was given directly). */
  safetyFactor: number;
  modelBudgetTokens?: number;
  mappedFrom: 'model-tokens' | 'budget-tokens';
  preambleTokens: number;
  split: string;
  /** Per-provider shares when the split assigns them. */
  shares?: Record<string, number>;
}

/** A frame not in the prompt, with why (the host control contract's `dropped`). */
export interface ComposedDrop {
  frameId: FrameId;
  reason: DropReason['kind'];
  detail: string;
}

export interface ComposedPrompt {
  text: string;
  /** The host control contract's observables: one block per rendered frame, UTF-8 byte spans (render.ts blocksOf). */
  blocks: RenderedBlock[];
  /** Every offered frame not rendered, with its reason (the dropped audit entries, flattened). */
  dropped: ComposedDrop[];
  frames: ComposedFrame[];
  audit: AuditEntry[];
  budget: ComposedBudget;
  strategy: string;
  policyNote: string;
  /** Loud notes about the input (digest clashes, …); deterministic. */
  warnings: string[];
}

export type { InclusionProof };
