/**
 * Ranking strategies (F10, §6.6): the seam through which a host states its cross-provider policy.
 * The strategy's order is what the budget packer walks, so the policy decides WHICH frames reach
 * the prompt, not only where they sit.
 *
 * F10 in this module: a strategy ranks, it never filters, and no strategy here applies a score
 * threshold (cross-provider thresholds are forbidden; a per-provider one is a compose option,
 * S6.6-single-provider-threshold). `ScoreDescending` compares raw provider-local scores across
 * providers: that is THIS HOST'S POLICY CHOICE, declared in its `policyNote` and in every
 * composed output, never a protocol guarantee.
 *
 * Determinism: candidates are handed to `order` in canonical FrameId order (UTF-8 bytes), so
 * `canonical` = the candidate's index, and every built-in strategy ends its key with it.
 */
import type { ContextFrame, FrameId } from '../../../generated/types/index.js';

export interface RankCandidate {
  readonly frameId: FrameId;
  /** FrameId.provider_id (= the provider's handshake name). */
  readonly provider: string;
  /** Index of `provider` among the candidates' providers sorted by UTF-8 bytes. */
  readonly providerOrdinal: number;
  /** Dense within-provider rank among the candidates: 0 = that provider's best surviving frame. */
  readonly rank: number;
  /** Raw provider-local score (non-finite ⇒ -Infinity). Meaningful only within one provider. */
  readonly score: number;
  /** Position in canonical FrameId order (= index in the array given to `order`). */
  readonly canonical: number;
  readonly frame: ContextFrame;
}

/**
 * The candidates as columns (candidate k = the k-th in canonical FrameId order). Built-in strategies
 * rank over these without any per-frame object; `RankCandidate` objects are only materialised for a
 * strategy that has no `orderColumns`. The arrays are composition scratch memory: valid only during
 * the call, never to be kept.
 */
export interface RankColumns {
  readonly n: number;
  /** Raw provider-local score (non-finite ⇒ -Infinity). */
  readonly score: Float64Array;
  /** Dense within-provider rank, 0 = best. */
  readonly rank: Int32Array;
  readonly providerOrdinal: Int32Array;
}

export interface RankingStrategy {
  /** Policy name, reported in the composed output (`strategy`). */
  readonly name: string;
  /** Plain statement of the policy, reported in the composed output (`policyNote`). */
  readonly policyNote: string;
  /**
   * Best-first permutation of candidate indices. A strategy ranks, it never filters: an index
   * left out, repeated or out of range is repaired by `rankWith` (unplaced candidates are
   * appended in canonical order).
   */
  order(candidates: readonly RankCandidate[]): readonly number[];
  /** Optional fast path with the same contract over columns. */
  orderColumns?(columns: RankColumns): readonly number[];
}

function indices(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Columns of RankCandidate objects (for `order` called with objects). */
export function columnsOf(candidates: readonly RankCandidate[]): RankColumns {
  const n = candidates.length;
  const score = new Float64Array(n);
  const rank = new Int32Array(n);
  const providerOrdinal = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    score[i] = Number.isFinite(c.score) ? c.score : -Infinity;
    rank[i] = c.rank;
    providerOrdinal[i] = c.providerOrdinal;
  }
  return { n, score, rank, providerOrdinal };
}

/** The default: union by raw score, highest first; ties in canonical FrameId order. */
export class ScoreDescending implements RankingStrategy {
  readonly name = 'score-descending';
  readonly policyNote =
    'score-descending: frames from all providers are ordered by their raw provider-local score, highest first ' +
    "(ties in canonical FrameId order). This is this host's policy choice, not a protocol guarantee: CGP scores " +
    'are provider-local and ordinal and are not comparable across providers (F10); the ordering is not a ' +
    'cross-provider measure of relevance.';
  order(candidates: readonly RankCandidate[]): number[] {
    return this.orderColumns(columnsOf(candidates));
  }
  orderColumns({ n, score }: RankColumns): number[] {
    if (n >= RADIX_THRESHOLD) return radixByScoreDescending(score, n);
    return indices(n).sort((a, b) => {
      const d = score[b]! - score[a]!;
      return d > 0 ? 1 : d < 0 ? -1 : a - b;
    });
  }
}

/** From this many candidates on, score-descending uses a linear radix sort (same order). */
const RADIX_THRESHOLD = 2048;

/**
 * Indices 0..n-1 by score descending, ties by index ascending: a stable LSD radix sort over the
 * scores' IEEE-754 bits mapped to an order-preserving unsigned key (negated for descending), in
 * four 16-bit passes — linear, where a comparison sort is n log n (bench/compose). -0 counts as
 * +0 and NaN never occurs (RankColumns scores are finite or -Infinity), as in the comparison sort.
 */
function radixByScoreDescending(score: Float64Array, n: number): number[] {
  const bits = new Float64Array(1);
  const words = new Uint32Array(bits.buffer);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    bits[0] = score[i]! + 0; // -0 → +0
    let h = words[1]!;
    let l = words[0]!;
    // ascending key: flip all bits of negatives, only the sign bit of non-negatives …
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    // … then complement it, for descending order
    hi[i] = ~h >>> 0;
    lo[i] = ~l >>> 0;
  }
  let order = new Int32Array(n);
  let next = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const count = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let k = 0; k < n; k++) count[((key[order[k]!]! >>> shift) & 0xffff) + 1]!++;
    for (let b = 1; b < 65537; b++) count[b]! += count[b - 1]!;
    for (let k = 0; k < n; k++) {
      const i = order[k]!;
      next[count[(key[i]! >>> shift) & 0xffff]!++] = i;
    }
    [order, next] = [next, order];
  }
  const out = new Array<number>(n);
  for (let k = 0; k < n; k++) out[k] = order[k]!;
  return out;
}

/** Interleave providers by within-provider rank: every provider's best, then every second… */
export class RoundRobinByRank implements RankingStrategy {
  readonly name = 'round-robin-by-rank';
  readonly policyNote =
    "round-robin-by-rank: providers take turns by within-provider rank — every provider's best frame, then every " +
    "provider's second, … (within a round, providers in UTF-8 order of provider id). Only within-provider order is " +
    'used; no score is compared across providers (F10).';
  order(candidates: readonly RankCandidate[]): number[] {
    return this.orderColumns(columnsOf(candidates));
  }
  orderColumns({ n, rank, providerOrdinal }: RankColumns): number[] {
    return indices(n).sort((a, b) => rank[a]! - rank[b]! || providerOrdinal[a]! - providerOrdinal[b]! || a - b);
  }
}

/** Like round-robin, in blocks of k per provider, so a provider's evidence stays contiguous. */
export class PerProviderQuota implements RankingStrategy {
  readonly name: string;
  readonly policyNote: string;
  readonly k: number;
  constructor(k = 3) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`PerProviderQuota: k must be an integer ≥ 1, got ${k}`);
    this.k = k;
    this.name = `per-provider-quota(k=${k})`;
    this.policyNote =
      `per-provider-quota(k=${k}): providers take turns in blocks of ${k} frames by within-provider rank (each ` +
      `provider's best ${k}, then each provider's next ${k}, …; providers in UTF-8 order of provider id). Only ` +
      'within-provider order is used; no score is compared across providers (F10). A quota tiers the order; it ' +
      'never truncates.';
  }
  order(candidates: readonly RankCandidate[]): number[] {
    return this.orderColumns(columnsOf(candidates));
  }
  orderColumns({ n, rank, providerOrdinal }: RankColumns): number[] {
    const k = this.k;
    return indices(n).sort((a, b) => Math.floor(rank[a]! / k) - Math.floor(rank[b]! / k) || providerOrdinal[a]! - providerOrdinal[b]! || rank[a]! - rank[b]! || a - b);
  }
}

/** Repair a proposed order into a permutation of 0..n-1 (see RankingStrategy.order). */
function repair(proposed: readonly number[], n: number): readonly number[] {
  const placed = new Uint8Array(n);
  let valid = proposed.length === n;
  for (let k = 0; valid && k < n; k++) {
    const i = proposed[k]!;
    if (Number.isInteger(i) && i >= 0 && i < n && placed[i] === 0) placed[i] = 1;
    else valid = false;
  }
  if (valid) return proposed;
  placed.fill(0);
  const out: number[] = [];
  for (const i of proposed) {
    if (Number.isInteger(i) && i >= 0 && i < n && placed[i] === 0) {
      placed[i] = 1;
      out.push(i);
    }
  }
  if (out.length < n) for (let i = 0; i < n; i++) if (placed[i] === 0) out.push(i);
  return out;
}

/**
 * Run a strategy and repair its answer into a permutation: out-of-range, non-integer and repeated
 * indices are skipped; candidates it left out are appended in canonical order.
 */
export function rankWith(strategy: RankingStrategy, candidates: readonly RankCandidate[]): readonly number[] {
  return repair(strategy.order(candidates), candidates.length);
}

/** rankWith over columns; `materialise` builds the candidate objects for a strategy without a fast path. */
export function rankColumns(strategy: RankingStrategy, columns: RankColumns, materialise: () => RankCandidate[]): readonly number[] {
  const proposed = strategy.orderColumns !== undefined ? strategy.orderColumns(columns) : strategy.order(materialise());
  return repair(proposed, columns.n);
}
