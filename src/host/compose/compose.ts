/**
 * composeForPrompt: what reaches the prompt, and why every other offered frame did not (R3, §11.1).
 *
 * Pipeline (every step a pure function of the frame SET — never of the order of `answers`, of the
 * frames inside an answer, or of host-local routing ids):
 *  1. Re-audit every answer's budget (auditAnswer, B1/B3/B4 → B2). A provider the audit rejects is
 *     QUARANTINED: all its frames are dropped `provider-quarantined` and it contributes nothing —
 *     even if a caller passed its answer in by mistake. Pass every answer received, including
 *     rejected ones: their frames then appear in the audit too.
 *  2. Per-provider score thresholds (S6.6), if configured — never a cross-provider one (F10).
 *  3. Cross-provider dedup (D2; see dedup.ts for the proofs and the survivor rule).
 *  4. Rank the survivors with the RankingStrategy (default ScoreDescending, a declared policy).
 *  5. Pack: walk the strategy order; admit a frame iff its cost fits the remaining global budget
 *     (and its provider's remaining share under an `equal`/`quota` split); otherwise drop it
 *     `over-budget` / `over-provider-share` and CONTINUE (a later cheaper frame may still fit).
 *     Cost = max(ceil(utf8 bytes of its whole rendered block / 4), declared token_cost); the
 *     constant preamble is charged once, up front. So ceil(bytes(text)/4) ≤ usedTokens ≤ budget.
 *  6. F13: every kept frame of a signed result keeps an inclusion proof (carried, or derived with
 *     retainProofs from the COMPLETE signed result before anything is dropped).
 *  7. Place (fold-to-edges by default) and render fenced blocks (render.ts) after the preamble.
 *  8. Audit: one entry per offered frame — admitted (in render order) then dropped (canonical
 *     FrameId order): admitted + dropped = offered, always.
 *
 * Ties everywhere end in canonical FrameId order (UTF-8 bytes); exact duplicates of one FrameId
 * are further ordered by within-provider rank and content, so even they are deterministic.
 */
import type { ContextFrame, ContextQueryResult, FrameId, InclusionProof } from '../../../generated/types/index.js';
import { retainProofs } from '../../attest/sign.js';
import { frameKey } from '../../attest/verify.js';
import { compareFrameIds, frameIdKey } from '../../protocol/identity.js';
import { SAFETY_FACTOR, utf8ByteLength } from '../../protocol/token-cost.js';
import { compareUtf8 } from '../../protocol/utf8-order.js';
import { auditAnswer, type BudgetDropReason } from '../budget-audit.js';
import type { FrameEvidence, ProviderAnswer, ReceivedFrame } from '../types.js';
import { checkSafetyFactor, equalSplit, modelToBudgetTokens } from './budget.js';
import { dedup, DUPLICATE_PROOFS, PROOF_IDENTITY_CONFLICT } from './dedup.js';
import { escapeAttribute, FENCE_CLOSE, neutralise, PREAMBLE } from './render.js';
import { rankColumns, ScoreDescending, type RankCandidate } from './strategy.js';
import { hashString, StringIndex } from './string-index.js';
import type {
  AdmittedAuditEntry,
  AuditEntry,
  ComposedFrame,
  ComposedPrompt,
  ComposeOptions,
  DroppedAuditEntry,
  DropReason,
  F13Record,
} from './types.js';

const PREAMBLE_TOKENS = Math.ceil(utf8ByteLength(PREAMBLE) / 4);
/** Admitted entries carry their position, selection rank and tokens as fields; the detail is fixed text. */
const ADMITTED = 'admitted into the prompt (see position, selectionRank, tokens)';
const ADMITTED_REFERENCE = `${ADMITTED}; reference frame: empty contribution, it cannot be rehydrated in 1.0 (S6.4.1)`;
const OPEN = '<frame id="';

/** A string is "simple" when UTF-16 order equals UTF-8 byte order (no surrogates, nothing ≥ U+E000). */
const NOT_SIMPLE = /[\ud800-\uffff]/;
const NON_BLANK = /\S/;
const NON_ASCII = /[^\u0000-\u007f]/;
/** A character that needs attribute escaping, or any non-ASCII character. */
const ESCAPE_OR_NON_ASCII = /[&"<>\r\n\u000b\u000c]|[^\u0000-\u007f]/;

function utf8Length(text: string): number {
  return NON_ASCII.test(text) ? utf8ByteLength(text) : text.length;
}

function describe(fid: FrameId): string {
  return frameIdKey(fid);
}

function quarantineText(provider: string, reasons: readonly BudgetDropReason[]): string {
  const parts = reasons.map((r) => {
    if (r.rule === 'B1') return `B1: declared ${Number.isNaN(r.declaredTokens) ? 'a non-numeric total' : `${r.declaredTokens} tokens`} > max_tokens ${r.maxTokens}`;
    if (r.rule === 'B4') return `B4: returned ${r.frames} frames > max_frames ${r.maxFrames}`;
    return `B3: ${r.misdeclared} frame(s) misdeclare token_cost, true total ${r.trueTokens} tokens ${r.overBudgetInTruth ? '>' : '≤'} max_tokens ${r.maxTokens}`;
  });
  return `provider ${JSON.stringify(provider)} quarantined by the budget audit (B2) — ${parts.join('; ')} — no frame of it is used`;
}

function ownValue(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  if (record === undefined || !Object.prototype.hasOwnProperty.call(record, key)) return undefined;
  return record[key];
}

function naturalLabel(frame: ContextFrame, fid: FrameId): string {
  const label = frame.citation_label;
  if (typeof label === 'string' && NON_BLANK.test(label)) return label;
  if (typeof frame.title === 'string' && NON_BLANK.test(frame.title)) return frame.title;
  return `${fid.provider_id}/${fid.frame_id}`;
}

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

/**
 * Every offered frame as columns (item i = the i-th frame offered, answers in the order given).
 * Composition holds no per-frame object until it writes its output: at 100k frames the objects'
 * garbage-collection cost dominated (bench/compose).
 */
class Table {
  readonly rf: ReceivedFrame[] = [];
  readonly provider: string[] = [];
  readonly frameIdText: string[] = [];
  readonly digest: (string | undefined)[] = [];
  /** Inline content as composed: '' for a reference frame (S6.4.1-unrehydratable-empty). */
  readonly content: string[] = [];
  readonly representation: string[] = [];
  readonly answer: Int32Array;
  readonly score: Float64Array;
  readonly inputRank: Float64Array;
  readonly attested: Uint8Array;
  simple = true;

  constructor(capacity: number) {
    this.answer = new Int32Array(capacity);
    this.score = new Float64Array(capacity);
    this.inputRank = new Float64Array(capacity);
    this.attested = new Uint8Array(capacity);
  }

  add(answer: number, rf: ReceivedFrame): void {
    const i = this.rf.length;
    const frame = rf.frame;
    const fid = rf.frameId;
    const provider = fid.provider_id;
    const frameId = fid.frame_id;
    const digest = typeof fid.content_digest === 'string' ? fid.content_digest : undefined;
    const representation = typeof frame.representation === 'string' ? frame.representation : 'full';
    this.rf.push(rf);
    this.provider.push(provider);
    this.frameIdText.push(frameId);
    this.digest.push(digest);
    this.representation.push(representation);
    this.content.push(representation === 'reference' || typeof frame.content !== 'string' ? '' : frame.content);
    this.answer[i] = answer;
    this.score[i] = typeof frame.score === 'number' && Number.isFinite(frame.score) ? frame.score : -Infinity;
    this.inputRank[i] = Number.isFinite(rf.rank) ? rf.rank : Number.MAX_SAFE_INTEGER;
    this.attested[i] = rf.evidence?.verdict === 'attested' ? 1 : 0;
    if (this.simple && (NOT_SIMPLE.test(provider) || NOT_SIMPLE.test(frameId) || (digest !== undefined && NOT_SIMPLE.test(digest)))) {
      this.simple = false;
    }
  }

  get size(): number {
    return this.rf.length;
  }

  /** Canonical FrameId order (UTF-8 bytes); 0 for the same FrameId. */
  compareIds(a: number, b: number): number {
    if (!this.simple) return compareFrameIds(this.rf[a]!.frameId, this.rf[b]!.frameId);
    // simple strings: code-unit order equals UTF-8 byte order
    const pa = this.provider[a]!;
    const pb = this.provider[b]!;
    if (pa !== pb) return pa < pb ? -1 : 1;
    const fa = this.frameIdText[a]!;
    const fb = this.frameIdText[b]!;
    if (fa !== fb) return fa < fb ? -1 : 1;
    const da = this.digest[a];
    const db = this.digest[b];
    if (da === db) return 0;
    if (da === undefined) return -1;
    if (db === undefined) return 1;
    return da < db ? -1 : 1;
  }

  /** Exact duplicates of one FrameId: within-provider rank, then content, then the whole frame. */
  tie(a: number, b: number): number {
    return (
      this.inputRank[a]! - this.inputRank[b]! ||
      compareUtf8(this.content[a]!, this.content[b]!) ||
      compareUtf8(JSON.stringify(this.rf[a]!.frame), JSON.stringify(this.rf[b]!.frame))
    );
  }
}

interface Drop {
  canon: number;
  entry: DroppedAuditEntry;
}

/**
 * The header pieces shared by many frames — `" provider="P" kind="K" cite="` per provider × kind and
 * `">\n` / `" representation="R">\n` per representation — built, escaped and measured once.
 */
class HeaderCache {
  private readonly middles = new Map<string, Map<string, { text: string; bytes: number }>>();
  private readonly suffixes = new Map<string, { text: string; bytes: number }>();
  middle(provider: string, kind: string): { text: string; bytes: number } {
    let byKind = this.middles.get(provider);
    if (byKind === undefined) {
      byKind = new Map();
      this.middles.set(provider, byKind);
    }
    let out = byKind.get(kind);
    if (out === undefined) {
      const text = `" provider="${escapeAttribute(provider)}" kind="${escapeAttribute(kind)}" cite="`;
      out = { text, bytes: utf8Length(text) };
      byKind.set(kind, out);
    }
    return out;
  }
  suffix(representation: string): { text: string; bytes: number } {
    let out = this.suffixes.get(representation);
    if (out === undefined) {
      const text = representation === 'full' ? '">\n' : `" representation="${escapeAttribute(representation)}">\n`;
      out = { text, bytes: utf8Length(text) };
      this.suffixes.set(representation, out);
    }
    return out;
  }
}

/** Compose the answers into one fenced prompt under a global budget. See the module comment. */
export function composeForPrompt(answers: readonly ProviderAnswer[], opts: ComposeOptions): ComposedPrompt {
  const { budgetTokens, safetyFactor, mapped } = resolveBudget(opts);
  const strategy = opts.strategy ?? new ScoreDescending();
  const split = opts.split ?? { kind: 'global' };
  const placement = opts.placement ?? 'fold-to-edges';
  const thresholds = opts.providerThresholds;

  // 1. budget re-audit per answer
  const quarantine = answers.map((answer) => {
    const result: ContextQueryResult = { frames: answer.frames.map((rf) => rf.frame), truncated: answer.truncated };
    const audit = auditAnswer(answer.provider, answer.query, result, opts.audit);
    if (audit.admitted) return undefined;
    const reasons = audit.reasons ?? [];
    return { rules: reasons.map((r) => r.rule), text: quarantineText(answer.provider.name, reasons) };
  });

  // offered frames
  let offered = 0;
  for (const answer of answers) offered += answer.frames.length;
  const t = new Table(offered);
  for (let a = 0; a < answers.length; a++) for (const rf of answers[a]!.frames) t.add(a, rf);
  const total = t.size;

  // canonical order over everything offered; equal FrameIds share one identity (the first)
  const byCanon: number[] = [];
  for (let i = 0; i < total; i++) byCanon.push(i);
  byCanon.sort((a, b) => t.compareIds(a, b) || t.tie(a, b));
  const canon = new Int32Array(total);
  const identity = new Int32Array(total);
  for (let k = 0; k < total; k++) {
    const i = byCanon[k]!;
    canon[i] = k;
    identity[i] = k > 0 && t.compareIds(byCanon[k - 1]!, i) === 0 ? identity[byCanon[k - 1]!]! : k;
  }

  const drops: Drop[] = [];
  const drop = (i: number, reason: DropReason, detail: string, selectionRank?: number): void => {
    const rf = t.rf[i]!;
    const entry: DroppedAuditEntry = {
      frame: rf.frameId,
      provider: t.provider[i]!,
      rank: rf.rank,
      declaredTokens: rf.frame.token_cost as unknown,
      detail,
      disposition: 'dropped',
      reason,
    };
    if (selectionRank !== undefined) entry.selectionRank = selectionRank;
    drops.push({ canon: canon[i]!, entry });
  };

  // 1 + 2. quarantine and per-provider thresholds
  const pool: number[] = [];
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
    pool.push(i);
  }

  // 3. dedup, visiting frames in survivor-priority order
  const visit = survivorPriority(t, pool, canon);
  const { survivor, proof, clashes } = dedup(visit, { identity, provider: t.provider, digest: t.digest, content: t.content, provenance: (i) => t.rf[i]!.frame.provenance }, total);
  const warnings: string[] = [];
  for (const clash of clashes) {
    const [first, second] = canon[clash.a]! < canon[clash.b]! ? [clash.a, clash.b] : [clash.b, clash.a];
    warnings.push(
      `S6.3-content-digest: ${describe(t.rf[first]!.frameId)} and ${describe(t.rf[second]!.frameId)} declare the same content_digest but carry different inline bytes — not treated as duplicates`,
    );
  }

  // 4. rank: candidates (the survivors) in canonical order; providers are contiguous in it
  const cand: number[] = [];
  const providers: string[] = [];
  for (const i of pool) {
    const of = survivor[i]!;
    if (of === -1) {
      cand.push(i);
      continue;
    }
    const ofId = t.rf[of]!.frameId;
    if (proof[i] === PROOF_IDENTITY_CONFLICT) {
      drop(
        i,
        { kind: 'identity-conflict', of: ofId },
        `identity conflict with ${describe(ofId)}: same FrameId without a content_digest but different inline bytes — one FrameId names one frame, the survivor is kept`,
      );
    } else {
      const how = DUPLICATE_PROOFS[proof[i]!]!;
      const text =
        how === 'identity'
          ? 'same FrameId triple (D2)'
          : how === 'content-digest'
            ? 'same content_digest and identical inline bytes'
            : 'overlapping file provenance (same uri, overlapping range)';
      drop(i, { kind: 'duplicate', of: ofId, proof: how }, `duplicate of ${describe(ofId)} (${text})`);
    }
  }
  const n = cand.length;
  const providerOrdinal = new Int32Array(n);
  const rank = new Int32Array(n);
  const score = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = cand[k]!;
    if (providers.length === 0 || providers[providers.length - 1] !== t.provider[i]) providers.push(t.provider[i]!);
    providerOrdinal[k] = providers.length - 1;
    score[k] = t.score[i]!;
  }
  // dense within-provider ranks: the provider's own order (input rank), ties canonical
  for (let start = 0; start < n; ) {
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

  // unique citation labels among the candidates (so a label names exactly one frame)
  const cite = assignCitations(t, cand);

  // 5. pack
  const frameBudget = Math.max(0, budgetTokens - PREAMBLE_TOKENS);
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
  const shareLeft = shares?.slice();
  const headers = new HeaderCache();
  const cost = new Int32Array(n);
  const selectionRank = new Int32Array(n);
  // escaped id / cite per candidate, computed once by blockCost and reused by the renderer
  const escId: string[] = [];
  const escCite: string[] = [];
  for (let k = 0; k < n; k++) {
    escId.push(t.frameIdText[cand[k]!]!);
    escCite.push(cite[k]!);
  }
  let used = 0;
  const admitted: number[] = []; // candidate indices, in strategy order
  const refusedByShare: number[] = [];
  for (let s = 0; s < n; s++) {
    const k = order[s]!;
    selectionRank[k] = s;
    const c = (cost[k] = blockCost(t, cand[k]!, k, escId, escCite, headers));
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
    admitted.push(k);
  }
  const redistribute = split.kind !== 'global' && split.redistribute === true;
  for (const k of refusedByShare) {
    const remaining = frameBudget - used;
    if (redistribute && cost[k]! <= remaining) {
      used += cost[k]!;
      admitted.push(k);
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
  if (redistribute && refusedByShare.length > 0) admitted.sort((x, y) => selectionRank[x]! - selectionRank[y]!);

  // 6. F13 proofs for kept frames of signed results
  const f13 = retainSignedProofs(answers, t, admitted.map((k) => cand[k]!));

  // 7. place + render
  const m = admitted.length;
  let placed: number[];
  if (placement === 'rank-order') placed = admitted;
  else {
    // fold to edges: ranked r0, r1, r2, … go to slots 0, m−1, 1, m−2, …
    const slotOf = new Int32Array(m);
    let left = 0;
    let right = m - 1;
    for (let r = 0; r < m; r++) slotOf[r % 2 === 0 ? left++ : right--] = r;
    placed = [];
    for (let slot = 0; slot < m; slot++) placed.push(admitted[slotOf[slot]!]!);
  }
  const parts: string[] = [];
  if (m > 0) parts.push(PREAMBLE);
  const frames: ComposedFrame[] = [];
  const audit: AuditEntry[] = [];
  for (let position = 0; position < m; position++) {
    const k = placed[position]!;
    const i = cand[k]!;
    const rf = t.rf[i]!;
    const representation = t.representation[i]!;
    const label = cite[k]!;
    // the block: header line as fenceHeader() writes it, "\n", neutralised content, FENCE_CLOSE
    const kind = String(rf.frame.kind);
    parts.push(OPEN + escId[k] + headers.middle(t.provider[i]!, kind).text + escCite[k] + headers.suffix(representation).text + neutralise(t.content[i]!) + FENCE_CLOSE);
    const reference = representation === 'reference';
    const record = f13.size === 0 ? undefined : f13.get(i);
    let evidence: FrameEvidence | undefined = rf.evidence;
    if (record?.proofValue !== undefined) {
      evidence = { ...(evidence ?? { verdict: 'unattested' }), inclusionProof: record.proofValue };
      if (record.record.resultRoot !== undefined) evidence.resultRoot = record.record.resultRoot;
    }
    const frame: ComposedFrame = {
      frameId: rf.frameId,
      provider: t.provider[i]!,
      kind,
      representation,
      citation: label,
      position,
      selectionRank: selectionRank[k]!,
      tokens: cost[k]!,
      emptyContribution: reference,
    };
    if (evidence !== undefined) frame.evidence = evidence;
    if (record !== undefined) frame.f13 = record.record;
    frames.push(frame);
    const entry: AdmittedAuditEntry = {
      frame: rf.frameId,
      provider: t.provider[i]!,
      rank: rf.rank,
      declaredTokens: rf.frame.token_cost as unknown,
      detail: reference ? ADMITTED_REFERENCE : ADMITTED,
      disposition: 'admitted',
      position,
      selectionRank: selectionRank[k]!,
      tokens: cost[k]!,
      citation: label,
      verifiable: t.digest[i] !== undefined,
      attestation: rf.evidence?.verdict ?? 'unattested',
    };
    if (record !== undefined) entry.f13 = record.record;
    audit.push(entry);
  }
  const usedTokens = m === 0 ? 0 : PREAMBLE_TOKENS + used;

  // 8. audit: admitted in render order, then dropped in canonical order
  drops.sort((x, y) => x.canon - y.canon);
  for (const d of drops) audit.push(d.entry);
  if (audit.length !== total) {
    throw new Error(`composition audit is not a total partition: ${audit.length} entries for ${total} offered frames`);
  }

  const thresholdNames = thresholds === undefined ? [] : Object.keys(thresholds).sort(compareUtf8);
  const thresholdsNote =
    thresholdNames.length > 0
      ? ` Per-provider thresholds (each applied to that provider's own scores only, S6.6): ${thresholdNames
          .map((p) => `${JSON.stringify(p)} ≥ ${thresholds![p]}`)
          .join(', ')}.`
      : '';
  const policyNote =
    `${strategy.policyNote} Budget split: ${splitName}. No cross-provider score threshold is applied (F10).${thresholdsNote}` +
    ' Duplicates are resolved by proof (identity, digest + identical bytes, overlapping file provenance), the survivor' +
    ' chosen by inline content, attestation, within-provider rank, then canonical FrameId — never by score.';

  warnings.sort(compareUtf8);
  const result: ComposedPrompt = {
    text: parts.join(''),
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

/**
 * Budget tokens a candidate's block costs, computed without building it:
 * max(ceil(utf8 bytes of the whole block / 4), declared token_cost).
 */
function blockCost(t: Table, i: number, k: number, escId: string[], escCite: string[], headers: HeaderCache): number {
  // escId[k] / escCite[k] hold the raw values: replace them by their escaped form when needed
  const id = escId[k]!;
  let idBytes = id.length;
  if (ESCAPE_OR_NON_ASCII.test(id)) idBytes = utf8Length((escId[k] = escapeAttribute(id)));
  const label = escCite[k]!;
  let citeBytes = label.length;
  if (ESCAPE_OR_NON_ASCII.test(label)) citeBytes = utf8Length((escCite[k] = escapeAttribute(label)));
  const frame = t.rf[i]!.frame;
  // header line + "\n" = OPEN id MIDDLE cite SUFFIX (the suffix ends with the newline)
  const header = OPEN.length + idBytes + headers.middle(t.provider[i]!, String(frame.kind)).bytes + citeBytes + headers.suffix(t.representation[i]!).bytes;
  const content = t.content[i]!;
  // bytes(neutralised content) = bytes(content) + one backslash per neutralised fence token
  const inserted = content.indexOf('<') === -1 ? 0 : neutralise(content).length - content.length;
  const cost = Math.ceil((header + utf8ByteLength(content) + inserted + FENCE_CLOSE.length) / 4);
  const declared = frame.token_cost;
  return typeof declared === 'number' && Number.isFinite(declared) && declared > cost ? Math.ceil(declared) : cost;
}

/**
 * Survivor priority for dedup: inline content first (a reference frame contributes nothing),
 * attested first, lower within-provider rank, canonical order. `pool` is in canonical order, so a
 * stable counting sort over (content, attested, rank) equals the comparison sort, in O(n).
 */
function survivorPriority(t: Table, pool: readonly number[], canon: Int32Array): number[] {
  const n = pool.length;
  let maxRank = 0;
  let small = true;
  for (const i of pool) {
    const r = t.inputRank[i]!;
    if (!Number.isInteger(r) || r < 0 || r > 4 * n + 16) {
      small = false;
      break;
    }
    if (r > maxRank) maxRank = r;
  }
  const tier = (i: number) => (t.representation[i] === 'reference' ? 2 : 0) + (t.attested[i] ? 0 : 1);
  if (!small) {
    return pool.slice().sort((a, b) => tier(a) - tier(b) || t.inputRank[a]! - t.inputRank[b]! || canon[a]! - canon[b]!);
  }
  const width = maxRank + 1;
  const starts = new Int32Array(4 * width + 1);
  for (const i of pool) starts[tier(i) * width + t.inputRank[i]! + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
  const at = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const i = pool[p]!;
    at[starts[tier(i) * width + t.inputRank[i]!]!++] = i;
  }
  const out: number[] = [];
  for (let p = 0; p < n; p++) out.push(at[p]!);
  return out;
}

/**
 * Unique citation labels for the candidates (indexed like `cand`): the natural label
 * (citation_label, else title, else provider/frame id); colliding labels all become "label (n)",
 * n counting in canonical order and skipping any label already taken.
 */
function assignCitations(t: Table, cand: readonly number[]): string[] {
  const n = cand.length;
  const labels: string[] = [];
  // An index over every label taken: all natural labels (even of renamed frames, so they stay
  // reserved), then generated ones (positions ≥ n, kept in `extra`).
  const extra: string[] = [];
  const index = new StringIndex(2 * n, (p) => (p < n ? labels[p]! : extra[p - n]!));
  let colliding: Set<number> | undefined;
  for (let k = 0; k < n; k++) {
    const rf = t.rf[cand[k]!]!;
    const label = naturalLabel(rf.frame, rf.frameId);
    labels.push(label);
    const h = hashString(label);
    const first = index.find(label, h);
    if (first === -1) index.insert(h, k);
    else (colliding ??= new Set()).add(first).add(k);
  }
  const out = labels.slice();
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

interface ProofResult {
  record: F13Record;
  proofValue?: InclusionProof;
}

/** F13: proofs for every kept frame of a signed answer, derived from the complete signed set. */
function retainSignedProofs(answers: readonly ProviderAnswer[], t: Table, admitted: readonly number[]): Map<number, ProofResult> {
  const out = new Map<number, ProofResult>();
  const byAnswer = new Map<number, number[]>();
  for (const c of admitted) {
    const a = t.answer[c]!;
    if (answers[a]!.result.result_attestation === undefined) continue;
    const list = byAnswer.get(a);
    if (list === undefined) byAnswer.set(a, [c]);
    else list.push(c);
  }
  for (const [a, kept] of byAnswer) {
    const answer = answers[a]!;
    const result = answer.result;
    const signedFrames = Array.isArray(result.frames) ? result.frames : [];
    const strictSubset = kept.length < signedFrames.length;
    const rootOf = (c: number) => t.rf[c]!.evidence?.resultRoot ?? result.result_attestation?.signed_commitment;
    const carried = new Map<string, InclusionProof>();
    for (const entry of result.frame_attestations ?? []) {
      if (entry && entry.inclusion_proof !== undefined && entry.frame) carried.set(frameKey(entry.frame), entry.inclusion_proof);
    }
    const toDerive: number[] = [];
    for (const c of kept) {
      const ev = t.rf[c]!.evidence;
      const own = ev?.inclusionProof !== undefined && ev.verdict !== 'proof-mismatch' ? ev.inclusionProof : undefined;
      const wire = ev?.verdict === 'proof-mismatch' ? undefined : carried.get(frameKey(t.rf[c]!.frameId));
      const proof = own ?? wire;
      if (proof !== undefined) {
        out.set(c, { record: withRoot({ strictSubset, proof: 'carried' }, rootOf(c)), proofValue: proof });
      } else toDerive.push(c);
    }
    if (toDerive.length === 0) continue;
    const derive = (cs: number[]) => retainProofs(answer.provider.name, signedFrames, cs.map((c) => t.rf[c]!.frameId));
    let batch: ReturnType<typeof retainProofs> | undefined;
    try {
      batch = derive(toDerive);
    } catch {
      batch = undefined;
    }
    toDerive.forEach((c, i) => {
      let proof = batch?.[i]?.inclusion_proof;
      let detail: string | undefined;
      if (proof === undefined) {
        try {
          proof = derive([c])[0]!.inclusion_proof;
        } catch (err) {
          detail = (err as Error).message;
        }
      }
      if (proof !== undefined) {
        out.set(c, { record: withRoot({ strictSubset, proof: 'derived' }, rootOf(c)), proofValue: proof });
      } else {
        const record: F13Record = withRoot({ strictSubset, proof: 'unavailable' }, rootOf(c));
        if (detail !== undefined) record.detail = detail;
        out.set(c, { record });
      }
    });
  }
  return out;
}

function withRoot(record: F13Record, root: string | undefined): F13Record {
  if (root !== undefined) record.resultRoot = root;
  return record;
}
