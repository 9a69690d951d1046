/**
 * Stage 4 of composition (compose.ts): the survivors ranked by the RankingStrategy (F10: a declared
 * host policy), and their unique citation labels.
 */
import type { Arena } from './arena.js';
import { rankColumns, type RankCandidate, type RankingStrategy } from './strategy.js';
import { hashString, StringIndex } from './string-index.js';
import type { Indices, Table } from './table.js';

/** The candidates as the strategy saw them (indexed like `cand`) and its order. */
export interface Ranking {
  /** The candidates' providers, in canonical (UTF-8) order. */
  providers: string[];
  /** Per candidate: the index of its provider in `providers`. */
  providerOrdinal: Int32Array;
  /** Per candidate: dense within-provider rank (0 = that provider's best surviving frame). */
  rank: Int32Array;
  score: Float64Array;
  /** The candidates in strategy order. */
  order: readonly number[];
}

/** 4. Rank the candidates (canonical order; providers are contiguous in it) with the strategy. */
export function rankCandidates(t: Table, cand: Indices, strategy: RankingStrategy, arena: Arena): Ranking {
  const n = cand.length;
  const providers: string[] = [];
  const providerOrdinal = arena.int32(n);
  const rank = arena.int32(n);
  const score = arena.float64(n);
  for (let k = 0; k < n; k++) {
    const i = cand[k]!;
    if (providers.length === 0 || providers[providers.length - 1] !== t.provider[i]) providers.push(t.provider[i]!);
    providerOrdinal[k] = providers.length - 1;
    score[k] = t.score[i]!;
  }
  // dense within-provider ranks: the provider's own order (input rank), ties canonical
  for (let start = 0; start < n;) {
    let end = start + 1;
    let sorted = true;
    while (end < n && providerOrdinal[end] === providerOrdinal[start]) {
      if (t.inputRank[cand[end]!]! < t.inputRank[cand[end - 1]!]!) sorted = false;
      end++;
    }
    if (sorted) for (let k = start; k < end; k++) rank[k] = k - start;
    else {
      const group: number[] = [];
      for (let k = start; k < end; k++) group.push(k);
      group.sort((x, y) => t.inputRank[cand[x]!]! - t.inputRank[cand[y]!]! || x - y);
      for (let r = 0; r < group.length; r++) rank[group[r]!] = r;
    }
    start = end;
  }
  const order = rankColumns(strategy, { n, score, rank, providerOrdinal }, () => {
    const out: RankCandidate[] = [];
    for (let k = 0; k < n; k++) {
      const rf = t.rf[cand[k]!]!;
      out.push({ frameId: rf.frameId, provider: t.provider[cand[k]!]!, providerOrdinal: providerOrdinal[k]!, rank: rank[k]!, score: score[k]!, canonical: k, frame: rf.frame });
    }
    return out;
  });
  return { providers, providerOrdinal, rank, score, order };
}

/**
 * Unique citation labels for the candidates (indexed like `cand`): the natural label
 * (citation_label, else title, else provider/frame id); colliding labels all become "label (n)",
 * n counting in canonical order and skipping any label already taken.
 */
export function assignCitations(t: Table, cand: Indices, arena: Arena): string[] {
  const n = cand.length;
  const labels = arena.refs<string>(n);
  // An index over every label taken: all natural labels (even of renamed frames, so they stay
  // reserved), then generated ones (positions ≥ n, kept in `extra`).
  const extra: string[] = [];
  const index = new StringIndex(n, (p) => (p < n ? labels[p]! : extra[p - n]!));
  let colliding: Set<number> | undefined;
  for (let k = 0; k < n; k++) {
    const label = t.label[cand[k]!]!;
    labels[k] = label;
    const h = hashString(label);
    const first = index.find(label, h);
    if (first === -1) index.insert(h, k);
    else (colliding ??= new Set()).add(first).add(k);
  }
  const out = arena.refs<string>(n);
  for (let k = 0; k < n; k++) out[k] = labels[k]!;
  if (colliding === undefined) return out;
  const members = [...colliding].sort((a, b) => a - b);
  const next = new Map<string, number>();
  for (const k of members) {
    const label = labels[k]!;
    let c = next.get(label) ?? 1;
    let candidate = `${label} (${c++})`;
    while (index.has(candidate)) candidate = `${label} (${c++})`;
    next.set(label, c);
    extra.push(candidate);
    index.insert(hashString(candidate), n + extra.length - 1);
    out[k] = candidate;
  }
  return out;
}
