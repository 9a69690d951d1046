/**
 * Stage 5 of composition, second half, and stage 6 (compose.ts): the packer walks the strategy
 * order under the global budget (and each provider's share under an `equal`/`quota` split), then
 * the admitted frames are placed.
 */
import { ownValue } from './admit.js';
import type { Arena } from './arena.js';
import type { DropFn } from './audit.js';
import { equalSplit } from './budget.js';
import type { Ranking } from './rank.js';
import type { Indices } from './table.js';
import type { BudgetSplit, ComposeOptions } from './types.js';

/** Per-provider shares of the frame budget (indexed like `providers`), and the split's name. */
export function providerShares(split: BudgetSplit, frameBudget: number, providers: readonly string[]): { shares: number[] | undefined; splitName: string } {
  let shares: number[] | undefined;
  let splitName = 'global';
  if (split.kind === 'equal') {
    shares = equalSplit(frameBudget, providers.length);
    splitName = `equal${split.redistribute ? '+redistribute' : ''}`;
  } else if (split.kind === 'quota') {
    shares = providers.map((p) => {
      const q = ownValue(split.tokens, p);
      return q !== undefined && Number.isFinite(q) && q > 0 ? Math.floor(q) : 0;
    });
    splitName = `quota${split.redistribute ? '+redistribute' : ''}`;
  }
  return { shares, splitName };
}

export interface Packing {
  /** The admitted candidates, in strategy order. */
  admitted: Indices;
  /** Per candidate: 1 when admitted. */
  isAdmitted: Uint8Array;
  /** Per candidate: its position in the strategy order. */
  selectionRank: Int32Array;
  /** Budget tokens charged for the admitted blocks (the preamble not included). */
  used: number;
  shares: number[] | undefined;
  splitName: string;
}

/**
 * 5. Walk the strategy order; admit a candidate iff its cost fits the remaining global budget
 * (and its provider's remaining share under a split); otherwise drop it `over-budget` (or hold
 * it back as over its share) and CONTINUE — a later cheaper frame may still fit. With
 * `redistribute`, a second walk over the frames refused only by their share lends them the
 * unused budget; the others are dropped `over-provider-share`.
 */
export function packByStrategy(cand: Indices, ranking: Ranking, cost: Int32Array, split: BudgetSplit, budgetTokens: number, frameBudget: number, drop: DropFn, arena: Arena): Packing {
  const n = cand.length;
  const { order, providers, providerOrdinal } = ranking;
  const { shares, splitName } = providerShares(split, frameBudget, providers);
  const shareLeft = shares?.slice();
  const selectionRank = arena.int32(n);
  let used = 0;
  const admittedAll = arena.int32(n); // candidate indices, in strategy order
  let admittedSize = 0;
  const isAdmitted = arena.uint8(n);
  const refusedByShare: number[] = [];
  for (let s = 0; s < n; s++) {
    const k = order[s]!;
    selectionRank[k] = s;
    const c = cost[k]!;
    const remaining = frameBudget - used;
    if (c > remaining) {
      drop(cand[k]!, { kind: 'over-budget', tokens: c, remaining }, `over budget: its block costs ${c} budget tokens, ${remaining} of the global ${budgetTokens} remained`, s);
      continue;
    }
    if (shareLeft !== undefined && c > shareLeft[providerOrdinal[k]!]!) {
      refusedByShare.push(k);
      continue;
    }
    used += c;
    if (shareLeft !== undefined) shareLeft[providerOrdinal[k]!]! -= c;
    admittedAll[admittedSize++] = k;
    isAdmitted[k] = 1;
  }
  const redistribute = split.kind !== 'global' && split.redistribute === true;
  for (const k of refusedByShare) {
    const remaining = frameBudget - used;
    if (redistribute && cost[k]! <= remaining) {
      used += cost[k]!;
      admittedAll[admittedSize++] = k;
      isAdmitted[k] = 1;
      continue;
    }
    const left = shareLeft![providerOrdinal[k]!]!;
    const share = shares![providerOrdinal[k]!]!;
    drop(
      cand[k]!,
      { kind: 'over-provider-share', tokens: cost[k]!, remaining: left, share },
      `over provider share: its block costs ${cost[k]} budget tokens, ${left} of provider ${JSON.stringify(providers[providerOrdinal[k]!])}'s share ${share} remained (${splitName} split)`,
      selectionRank[k]!,
    );
  }
  const admitted = admittedAll.subarray(0, admittedSize);
  if (redistribute && refusedByShare.length > 0) admitted.sort((x, y) => selectionRank[x]! - selectionRank[y]!);
  return { admitted, isAdmitted, selectionRank, used, shares, splitName };
}

/**
 * 6. Placement: per candidate, its position in the prompt (-1 when not admitted). Fold to edges
 * (default): ranked r0, r1, r2, … go to slots 0, m−1, 1, m−2, …; `rank-order`: strategy order.
 */
export function placeAdmitted(admitted: Indices, n: number, placement: NonNullable<ComposeOptions['placement']>, arena: Arena): Int32Array {
  const m = admitted.length;
  const positionOf = arena.int32(n, -1);
  if (placement === 'rank-order') for (let r = 0; r < m; r++) positionOf[admitted[r]!] = r;
  else {
    let left = 0;
    let right = m - 1;
    for (let r = 0; r < m; r++) positionOf[admitted[r]!] = r % 2 === 0 ? left++ : right--;
  }
  return positionOf;
}
