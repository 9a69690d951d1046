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
 *  3. Dedup (D2): frames sharing one FrameId are one frame (its best copy represents it, with the
 *     union of the copies' provenance); then proven duplicates across frames — same digest AND
 *     identical bytes, or overlapping file provenance across providers (dedup.ts has the proofs
 *     and the survivor rule, which never compares scores).
 *  4. Rank the survivors with the RankingStrategy (default ScoreDescending, a declared policy).
 *  5. Pack: walk the strategy order; admit a frame iff its cost fits the remaining global budget
 *     (and its provider's remaining share under an `equal`/`quota` split); otherwise drop it
 *     `over-budget` / `over-provider-share` and CONTINUE (a later cheaper frame may still fit).
 *     Cost = max(ceil(utf8 bytes of its whole rendered block / 4), declared token_cost); the
 *     constant preamble is charged once, up front. So ceil(bytes(text)/4) ≤ usedTokens ≤ budget.
 *  6. Place (fold-to-edges by default) and render fenced blocks (render.ts) after the preamble.
 *  7. F13: every kept frame of a signed result keeps an inclusion proof (carried, or derived with
 *     retainProofs from the COMPLETE signed result before anything is dropped).
 *  8. Audit: one entry per offered frame — admitted (in render order) then dropped (canonical
 *     FrameId order): admitted + dropped = offered, always.
 *
 * Ties everywhere end in canonical FrameId order (UTF-8 bytes); exact duplicates of one FrameId
 * are further ordered by within-provider rank and content, so even they are deterministic.
 *
 * Engineering (bench/compose, 10k and 100k frames): the frames are held as columns (Table), not
 * one object each; scratch arrays come from a reused Arena; per-frame passes run in received
 * order (memory order) and the strategy walk touches only small typed arrays; hash lookups use a
 * flat open-addressing index (string-index.ts); no per-frame regex is compiled; an admitted
 * frame's output record is created once and shared by `frames` and `audit`.
 */
import type { ContextFrame, ContextQueryResult, FrameId, InclusionProof } from '../../../generated/types/index.js';
import { retainProofs } from '../../attest/sign.js';
import { frameKey } from '../../attest/verify.js';
import { compareFrameIds, frameIdKey } from '../../protocol/identity.js';
import { SAFETY_FACTOR, utf8ByteLength } from '../../protocol/token-cost.js';
import { compareUtf8 } from '../../protocol/utf8-order.js';
import { auditAnswer, type BudgetDropReason } from '../budget-audit.js';
import type { FrameEvidence, ProviderAnswer, ReceivedFrame } from '../types.js';
import { acquireArena, releaseArena, type Arena } from './arena.js';
import { checkSafetyFactor, equalSplit, modelToBudgetTokens } from './budget.js';
import { dedup, DUPLICATE_PROOFS, type DuplicateProof } from './dedup.js';
import { blocksOf, escapeAttribute, FENCE_CLOSE, neutralise, PREAMBLE } from './render.js';
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

const PREAMBLE_BYTES = utf8ByteLength(PREAMBLE);
const PREAMBLE_TOKENS = Math.ceil(PREAMBLE_BYTES / 4);
/** Admitted entries carry their position, selection rank and tokens as fields; the detail is fixed text. */
const ADMITTED = 'admitted into the prompt (see position, selectionRank, tokens)';
const ADMITTED_REFERENCE = `${ADMITTED}; reference frame: empty contribution, it cannot be rehydrated in 1.0 (S6.4.1)`;
const OPEN = '<frame id="';

/** A string is "simple" when UTF-16 order equals UTF-8 byte order (no surrogates, nothing ≥ U+E000). */
const NOT_SIMPLE = /[\ud800-\uffff]/;
const NON_BLANK = /\S/;
/** A character that needs attribute escaping, or any non-ASCII character. */
const ESCAPE_OR_NON_ASCII = /[&"<>\r\n\u000b\u000c]|[^\u0000-\u007f]/;

const utf8Length = utf8ByteLength;

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
  // Columns are allocated at their final size up front (no growth garbage at 100k frames).
  readonly rf: ReceivedFrame[];
  readonly provider: string[];
  readonly frameIdText: string[];
  readonly digest: (string | undefined)[];
  /** Inline content as composed: '' for a reference frame (S6.4.1-unrehydratable-empty). */
  readonly content: string[];
  readonly representation: string[];
  readonly provenance: ContextFrame['provenance'][];
  /** The kind as rendered (String(kind): U2 keeps an unknown kind verbatim). */
  readonly kind: string[];
  /** The natural citation label (citation_label, else title, else provider/frame id). */
  readonly label: string[];
  /** Declared token_cost when it is a finite number, else NaN. */
  readonly declared: Float64Array;
  readonly answer: Int32Array;
  /** UTF-8 bytes of the content as received (absent: 0) — what the budget audit (B3) measures. */
  readonly receivedBytes: Int32Array;
  /** UTF-8 bytes of `content` (0 for a reference frame). */
  readonly bytes: Int32Array;
  /** 1 when `content` holds a '<' (only then can it need fence neutralisation). */
  readonly angle: Uint8Array;
  readonly score: Float64Array;
  readonly inputRank: Float64Array;
  readonly attested: Uint8Array;
  simple = true;
  private count = 0;
  private lastProvider: string | undefined;

  constructor(capacity: number, arena: Arena) {
    // reference columns from the arena: index them, never read their length
    this.rf = arena.refs<ReceivedFrame>(capacity);
    this.provider = arena.refs<string>(capacity);
    this.frameIdText = arena.refs<string>(capacity);
    this.digest = arena.refs<string | undefined>(capacity);
    this.content = arena.refs<string>(capacity);
    this.representation = arena.refs<string>(capacity);
    this.provenance = arena.refs<ContextFrame['provenance']>(capacity);
    this.kind = arena.refs<string>(capacity);
    this.label = arena.refs<string>(capacity);
    this.declared = arena.float64(capacity);
    this.receivedBytes = arena.int32(capacity);
    this.bytes = arena.int32(capacity);
    this.angle = arena.uint8(capacity);
    this.answer = arena.int32(capacity);
    this.score = arena.float64(capacity);
    this.inputRank = arena.float64(capacity);
    this.attested = arena.uint8(capacity);
  }

  /**
   * Frame i's columns. Every content is read here and only here (bench/compose: at 100k frames
   * each pass over the frame objects is bound by memory latency): its UTF-8 length and whether it
   * holds a '<', measured together while its bytes are in cache.
   */
  add(answer: number, rf: ReceivedFrame): void {
    const i = this.count++;
    const frame = rf.frame;
    const received = frame.content;
    const receivedBytes = typeof received === 'string' ? utf8ByteLength(received) : 0;
    this.receivedBytes[i] = receivedBytes;
    const fid = rf.frameId;
    const provider = fid.provider_id;
    const frameId = fid.frame_id;
    const digest = typeof fid.content_digest === 'string' ? fid.content_digest : undefined;
    const representation = typeof frame.representation === 'string' ? frame.representation : 'full';
    const inline = representation !== 'reference' && typeof frame.content === 'string';
    this.rf[i] = rf;
    this.provider[i] = provider;
    this.frameIdText[i] = frameId;
    this.digest[i] = digest;
    this.representation[i] = representation;
    this.content[i] = inline ? frame.content! : '';
    this.bytes[i] = inline ? receivedBytes : 0;
    this.angle[i] = inline && frame.content!.indexOf('<') !== -1 ? 1 : 0;
    this.kind[i] = String(frame.kind);
    this.label[i] = naturalLabel(frame, fid);
    const declared = frame.token_cost;
    this.declared[i] = typeof declared === 'number' && Number.isFinite(declared) ? declared : NaN;
    this.provenance[i] = frame.provenance;
    this.answer[i] = answer;
    this.score[i] = typeof frame.score === 'number' && Number.isFinite(frame.score) ? frame.score : -Infinity;
    this.inputRank[i] = Number.isFinite(rf.rank) ? rf.rank : Number.MAX_SAFE_INTEGER;
    this.attested[i] = rf.evidence?.verdict === 'attested' ? 1 : 0;
    if (this.simple) {
      // a provider id repeats across its frames: test it once per run of equal ids
      if (provider !== this.lastProvider) {
        if (NOT_SIMPLE.test(provider)) this.simple = false;
        this.lastProvider = provider;
      }
      if (NOT_SIMPLE.test(frameId) || (digest !== undefined && NOT_SIMPLE.test(digest))) this.simple = false;
    }
  }

  get size(): number {
    return this.count;
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

/** Where rendered blocks go: the text is the preamble, then every block in position order. */
interface TextSink {
  block(position: number, block: Block, content: string): void;
  text(): string;
}

/** Any prompt: one string per block, joined at the end. */
class JoinSink implements TextSink {
  private readonly parts: string[];
  constructor(m: number) {
    this.parts = new Array<string>(m + 1).fill('');
    this.parts[0] = PREAMBLE;
  }
  block(position: number, b: Block, content: string): void {
    this.parts[position + 1] = OPEN + b.escId + b.middle + b.escCite + b.suffix + content + FENCE_CLOSE;
  }
  text(): string {
    return this.parts.join('');
  }
}

/**
 * An all-ASCII prompt: every block written straight into the arena's byte buffer at its offset
 * (prefix sums, in position order, of the exact block sizes measured for packing), decoded once.
 * For ASCII, latin1 encoding is the identity on code units, so the text equals the joined strings
 * exactly. Blocks are written in whatever order they come (composition: received order, the
 * frames' memory order — measured faster at 100k frames than position order, bench/compose).
 */
class ByteSink implements TextSink {
  private readonly buf: Buffer;
  /** offsetAt[p] = where the block at position p starts. */
  private readonly offsetAt: Float64Array;
  private written = 0;
  constructor(
    arena: Arena,
    sizeAt: Float64Array,
    private readonly bytes: number,
  ) {
    this.buf = arena.bytes(bytes);
    this.offsetAt = sizeAt;
    let at = this.buf.write(PREAMBLE, 0, 'latin1');
    for (let p = 0; p < sizeAt.length; p++) {
      const size = sizeAt[p]!;
      this.offsetAt[p] = at;
      at += size;
    }
    this.written = at - bytes; // the preamble, counted in `bytes` together with the blocks
    if (at !== bytes) throw new Error(`composition render: block sizes sum to ${at} bytes, expected ${bytes}`);
  }
  block(position: number, b: Block, content: string): void {
    const buf = this.buf;
    let at = this.offsetAt[position]!;
    const end = at + b.bytes;
    at += buf.write(OPEN, at, 'latin1');
    at += buf.write(b.escId, at, 'latin1');
    at += buf.write(b.middle, at, 'latin1');
    at += buf.write(b.escCite, at, 'latin1');
    at += buf.write(b.suffix, at, 'latin1');
    at += buf.write(content, at, 'latin1');
    at += buf.write(FENCE_CLOSE, at, 'latin1');
    // a block whose size disagreed with its measurement would corrupt its neighbour
    if (at !== end) throw new Error(`composition render: the block at position ${position} wrote ${at - end + b.bytes} bytes, measured ${b.bytes}`);
    this.written += b.bytes;
  }
  text(): string {
    if (this.written !== this.bytes - PREAMBLE_BYTES) throw new Error(`composition render: blocks wrote ${this.written} bytes, measured ${this.bytes - PREAMBLE_BYTES}`);
    return this.buf.toString('latin1', 0, this.bytes);
  }
}

/** Item or candidate indices (typed arrays: no growth garbage at 100k frames). */
type Indices = Int32Array;

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

  // offered frames, as columns (the one pass that reads every content)
  let offered = 0;
  for (const answer of answers) offered += answer.frames.length;
  const t = new Table(offered, arena);
  for (let a = 0; a < answers.length; a++) {
    const frames = answers[a]!.frames;
    for (let f = 0; f < frames.length; f++) t.add(a, frames[f]!);
  }
  const total = t.size;

  // 1. budget re-audit per answer (B3 over the content lengths just measured)
  let offset = 0;
  const quarantine = answers.map((answer) => {
    const result: ContextQueryResult = { frames: answer.frames.map((rf) => rf.frame), truncated: answer.truncated };
    const audit = auditAnswer(answer.provider, answer.query, result, { ...opts.audit, bytesIn: t.receivedBytes, bytesOffset: offset });
    offset += answer.frames.length;
    if (audit.admitted) return undefined;
    const reasons = audit.reasons ?? [];
    return { rules: reasons.map((r) => r.rule), text: quarantineText(answer.provider.name, reasons) };
  });


  // canonical order over everything offered; equal FrameIds share one identity (the first)
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
  const pool = poolAll.subarray(0, poolSize);

  // 3. dedup. First identity: the frames carrying one FrameId are one frame (D2); the best of them
  //    (survivor priority) represents the group, its provenance the union of theirs. Then the
  //    representatives are deduplicated by digest + bytes and file provenance — only the contested
  //    ones: a representative whose content_digest no other carries and that names no provenance can
  //    neither be dropped as a duplicate nor cause a drop, so it skips the ordered walk.
  const groups = identityGroups(t, pool, canon, arena);
  const provenanceOf = (i: number) => groups.provenance.get(i) ?? t.provenance[i];
  const visit = survivorPriority(t, contestedFrames(t, groups.reps, provenanceOf, arena), canon, arena);
  const { survivor, proof, clashes } = dedup(visit, { identity, provider: t.provider, digest: t.digest, content: t.content, provenance: provenanceOf }, total);
  const warnings: string[] = [];
  for (const clash of clashes) {
    const [first, second] = canon[clash.a]! < canon[clash.b]! ? [clash.a, clash.b] : [clash.b, clash.a];
    warnings.push(
      `S6.3-content-digest: ${describe(t.rf[first]!.frameId)} and ${describe(t.rf[second]!.frameId)} declare the same content_digest but carry different inline bytes — not treated as duplicates`,
    );
  }
  const proofText = (how: DuplicateProof): string =>
    how === 'identity'
      ? 'same FrameId triple (D2)'
      : how === 'content-digest'
        ? 'same content_digest and identical inline bytes'
        : 'overlapping file provenance (same uri, overlapping range)';

  // 4. rank: candidates (the survivors) in canonical order; providers are contiguous in it
  const candAll = arena.int32(pool.length);
  let candSize = 0;
  const providers: string[] = [];
  for (let p = 0; p < pool.length; p++) {
    const i = pool[p]!;
    const rep = groups.repOf[i]!;
    if (rep !== i) {
      // another frame with this FrameId represents it
      const repId = t.rf[rep]!.frameId;
      if (t.digest[i] === undefined && t.content[i] !== t.content[rep]) {
        drop(
          i,
          { kind: 'identity-conflict', of: repId },
          `identity conflict: another frame carries this FrameId without a content_digest but with different inline bytes — one FrameId names one frame, the other copy represents it`,
        );
      } else if (survivor[rep] === -1) {
        drop(i, { kind: 'duplicate', of: repId, proof: 'identity' }, `duplicate of ${describe(repId)} (${proofText('identity')})`);
      } else {
        // the same frame as its representative, which duplicates a kept frame
        const ofId = t.rf[survivor[rep]!]!.frameId;
        const how = DUPLICATE_PROOFS[proof[rep]!]!;
        drop(i, { kind: 'duplicate', of: ofId, proof: how }, `duplicate of ${describe(ofId)} (${proofText(how)}, via its copy with the same FrameId)`);
      }
      continue;
    }
    const of = survivor[i]!;
    if (of === -1) {
      candAll[candSize++] = i;
      continue;
    }
    const ofId = t.rf[of]!.frameId;
    const how = DUPLICATE_PROOFS[proof[i]!]!;
    drop(i, { kind: 'duplicate', of: ofId, proof: how }, `duplicate of ${describe(ofId)} (${proofText(how)})`);
  }
  const cand = candAll.subarray(0, candSize);
  const n = cand.length;
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
  const cite = assignCitations(t, cand, arena);

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
  const cost = arena.int32(n);
  const selectionRank = arena.int32(n);
  // kOf[item] = its candidate index, -1 when it is not a candidate
  const kOf = arena.int32(total, -1);
  for (let k = 0; k < n; k++) kOf[cand[k]!] = k;

  // 5a. every candidate's block cost, visiting frames in the order they were received (= memory
  //     order): at 100k frames these passes are bound by memory latency (bench/compose), so the
  //     per-frame work is done in passes over i, and the strategy-order walk touches only the
  //     small typed arrays.
  //     The block's exact UTF-8 size, whether it is all ASCII and how many backslashes
  //     neutralisation inserts are kept, so rendering (7) neither rescans content nor re-measures.
  const scratch: Block = { cost: 0, bytes: 0, ascii: true, kind: '', escId: '', escCite: '', middle: '', suffix: '' };
  const blockBytes = arena.int32(n);
  const blockAscii = arena.uint8(n);
  const inserted = arena.int32(n);
  for (let i = 0; i < total; i++) {
    const k = kOf[i]!;
    if (k === -1) continue;
    const content = t.content[i]!;
    // bytes(neutralised content) = bytes(content) + one backslash per neutralised fence token
    const extra = t.angle[i] === 0 ? 0 : neutralise(content).length - content.length;
    inserted[k] = extra;
    const block = blockOf(t, i, cite[k]!, extra, headers, scratch);
    cost[k] = block.cost;
    blockBytes[k] = block.bytes;
    blockAscii[k] = block.ascii ? 1 : 0;
  }

  // 5b. walk the strategy order
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
  const admittedK = admittedAll.subarray(0, admittedSize);
  if (redistribute && refusedByShare.length > 0) admittedK.sort((x, y) => selectionRank[x]! - selectionRank[y]!);

  // 6. placement (fold to edges: ranked r0, r1, r2, … go to slots 0, m−1, 1, m−2, …)
  const m = admittedK.length;
  const positionOf = arena.int32(n, -1);
  if (placement === 'rank-order') for (let r = 0; r < m; r++) positionOf[admittedK[r]!] = r;
  else {
    let left = 0;
    let right = m - 1;
    for (let r = 0; r < m; r++) positionOf[admittedK[r]!] = r % 2 === 0 ? left++ : right--;
  }

  // 7. render: the output records and the text's blocks, built in received order (= memory order:
  //    at 100k frames passes over the frame objects are bound by memory latency, bench/compose),
  //    each put straight at its position. The text is the preamble, then the blocks in position
  //    order. An all-ASCII prompt (the common case) is written into the arena's reusable byte
  //    buffer at precomputed offsets and decoded once: no string per block, and the only fresh
  //    memory is the result itself; any other prompt is joined from strings. Both give the same
  //    text (compose-render-paths.test.ts).
  let ascii = true;
  let textBytes = PREAMBLE_BYTES;
  const sizeAt = arena.float64(m);
  for (let a = 0; a < m; a++) {
    const k = admittedK[a]!;
    sizeAt[positionOf[k]!] = blockBytes[k]!;
    textBytes += blockBytes[k]!;
    if (blockAscii[k] === 0) ascii = false;
  }
  const sink: TextSink | undefined = m === 0 ? undefined : ascii ? new ByteSink(arena, sizeAt, textBytes) : new JoinSink(m);
  const frames: ComposedFrame[] = new Array<ComposedFrame>(m);
  const audit: AuditEntry[] = new Array<AuditEntry>(m);
  for (let i = 0; i < total; i++) {
    const k = kOf[i]!;
    if (k === -1 || isAdmitted[k] === 0) continue;
    const position = positionOf[k]!;
    const content = t.content[i]!;
    sink!.block(position, blockOf(t, i, cite[k]!, inserted[k]!, headers, scratch), inserted[k] === 0 ? content : neutralise(content));
    const rf = t.rf[i]!;
    const representation = t.representation[i]!;
    const reference = representation === 'reference';
    const entry: AdmittedAuditEntry = {
      frame: rf.frameId,
      provider: t.provider[i]!,
      rank: rf.rank,
      declaredTokens: rf.frame.token_cost as unknown,
      detail: reference ? ADMITTED_REFERENCE : ADMITTED,
      disposition: 'admitted',
      frameId: rf.frameId,
      kind: t.kind[i]!,
      representation,
      citation: cite[k]!,
      position,
      selectionRank: selectionRank[k]!,
      tokens: cost[k]!,
      emptyContribution: reference,
      verifiable: t.digest[i] !== undefined,
      attestation: rf.evidence?.verdict ?? 'unattested',
    };
    if (rf.evidence !== undefined) entry.evidence = rf.evidence;
    frames[position] = entry;
    audit[position] = entry;
  }
  const text = sink === undefined ? '' : sink.text();

  // 7'. F13 proofs for kept frames of signed results
  const f13 = retainSignedProofs(answers, t, admittedK, cand);
  if (f13.size > 0) {
    for (let a = 0; a < admittedK.length; a++) {
      const k = admittedK[a]!;
      const record = f13.get(cand[k]!);
      if (record === undefined) continue;
      const frame = frames[positionOf[k]!]!;
      if (record.proofValue !== undefined) {
        const evidence: FrameEvidence = { ...(frame.evidence ?? { verdict: 'unattested' }), inclusionProof: record.proofValue };
        if (record.record.resultRoot !== undefined) evidence.resultRoot = record.record.resultRoot;
        frame.evidence = evidence;
      }
      frame.f13 = record.record;
    }
  }
  const usedTokens = m === 0 ? 0 : PREAMBLE_TOKENS + used;

  // 8. audit: admitted in render order, then dropped in canonical order
  drops.sort((x, y) => x.canon - y.canon);
  for (let d = 0; d < drops.length; d++) audit.push(drops[d]!.entry);
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

/** What the packer needs of a candidate's block, computed without building it. */
interface Block {
  /** max(ceil(utf8 bytes of the whole block / 4), declared token_cost). */
  cost: number;
  /** Exact UTF-8 bytes of the rendered block (header line, neutralised content, closing fence). */
  bytes: number;
  /** Every character of the block is ASCII (so its UTF-16 length equals its byte count). */
  ascii: boolean;
  kind: string;
  escId: string;
  escCite: string;
  /** `" provider="P" kind="K" cite="` */
  middle: string;
  /** `">\n` or `" representation="R">\n` */
  suffix: string;
}

/**
 * Fill `out` (a reused scratch record: no allocation per frame) with candidate i's block;
 * `inserted` = backslashes neutralisation adds to its content.
 */
function blockOf(t: Table, i: number, label: string, inserted: number, headers: HeaderCache, out: Block): Block {
  const id = t.frameIdText[i]!;
  let escId = id;
  let idBytes = id.length;
  if (ESCAPE_OR_NON_ASCII.test(id)) idBytes = utf8Length((escId = escapeAttribute(id)));
  let escCite = label;
  let citeBytes = label.length;
  if (ESCAPE_OR_NON_ASCII.test(label)) citeBytes = utf8Length((escCite = escapeAttribute(label)));
  const kind = t.kind[i]!;
  const middle = headers.middle(t.provider[i]!, kind);
  const suffix = headers.suffix(t.representation[i]!);
  // header line + "\n" = OPEN id MIDDLE cite SUFFIX (the suffix ends with the newline)
  const header = OPEN.length + idBytes + middle.bytes + citeBytes + suffix.bytes;
  const contentBytes = t.bytes[i]!;
  const bytes = header + contentBytes + inserted + FENCE_CLOSE.length;
  let cost = Math.ceil(bytes / 4);
  const declared = t.declared[i]!;
  if (declared > cost) cost = Math.ceil(declared); // NaN (no usable declaration) compares false
  out.cost = cost;
  out.bytes = bytes;
  // ASCII iff every piece's byte count equals its length (the fence constants are ASCII)
  out.ascii =
    idBytes === escId.length &&
    citeBytes === escCite.length &&
    middle.bytes === middle.text.length &&
    suffix.bytes === suffix.text.length &&
    contentBytes === t.content[i]!.length;
  out.kind = kind;
  out.escId = escId;
  out.escCite = escCite;
  out.middle = middle.text;
  out.suffix = suffix.text;
  return out;
}

interface IdentityGroups {
  /** Per item: the representative of its FrameId (itself when alone); only pool items are set. */
  repOf: Int32Array;
  /** The representatives, in canonical order. */
  reps: Indices;
  /** A multi-member group's representative → the union of its members' provenance (best member first). */
  provenance: Map<number, ContextFrame['provenance']>;
}

/** Survivor priority: inline content first, attested first, lower within-provider rank, canonical. */
function better(t: Table, canon: Int32Array, a: number, b: number): boolean {
  const ta = (t.representation[a] === 'reference' ? 2 : 0) + (t.attested[a] ? 0 : 1);
  const tb = (t.representation[b] === 'reference' ? 2 : 0) + (t.attested[b] ? 0 : 1);
  if (ta !== tb) return ta < tb;
  if (t.inputRank[a] !== t.inputRank[b]) return t.inputRank[a]! < t.inputRank[b]!;
  return canon[a]! < canon[b]!;
}

/** Group the pool (canonical order: equal FrameIds are adjacent) by FrameId. */
function identityGroups(t: Table, pool: Indices, canon: Int32Array, arena: Arena): IdentityGroups {
  const repOf = arena.int32(t.size, -1);
  const repsAll = arena.int32(pool.length);
  let count = 0;
  const provenance = new Map<number, ContextFrame['provenance']>();
  for (let start = 0; start < pool.length; ) {
    let end = start + 1;
    while (end < pool.length && t.compareIds(pool[start]!, pool[end]!) === 0) end++;
    let rep = pool[start]!;
    for (let p = start + 1; p < end; p++) if (better(t, canon, pool[p]!, rep)) rep = pool[p]!;
    for (let p = start; p < end; p++) repOf[pool[p]!] = rep;
    repsAll[count++] = rep;
    if (end - start > 1) {
      const members = Array.from(pool.subarray(start, end)).sort((a, b) => (a === rep ? -1 : b === rep ? 1 : better(t, canon, a, b) ? -1 : 1));
      const union = members.flatMap((m) => (Array.isArray(t.provenance[m]) ? t.provenance[m]! : []));
      if (union.length > 0) provenance.set(rep, union);
    }
    start = end;
  }
  return { repOf, reps: repsAll.subarray(0, count), provenance };
}

/** The representatives that share their content_digest with another, or name provenance. */
function contestedFrames(t: Table, reps: Indices, provenanceOf: (i: number) => ContextFrame['provenance'], arena: Arena): Indices {
  const digestCount = arena.int32(t.size); // count per first item carrying the digest
  const digestHead = arena.int32(t.size, -1);
  const digests = new StringIndex(reps.length, (i) => t.digest[i]!);
  for (let r = 0; r < reps.length; r++) {
    const i = reps[r]!;
    const d = t.digest[i];
    if (d === undefined) continue;
    const h = hashString(d);
    const first = digests.find(d, h);
    if (first === -1) {
      digests.insert(h, i);
      digestHead[i] = i;
      digestCount[i] = 1;
    } else {
      digestHead[i] = first;
      digestCount[first]!++;
    }
  }
  const out = arena.int32(reps.length);
  let count = 0;
  for (let r = 0; r < reps.length; r++) {
    const i = reps[r]!;
    const provenance = provenanceOf(i);
    if ((digestHead[i] !== -1 && digestCount[digestHead[i]!]! > 1) || (Array.isArray(provenance) && provenance.length > 0)) out[count++] = i;
  }
  return out.subarray(0, count);
}

/**
 * Survivor priority for dedup: inline content first (a reference frame contributes nothing),
 * attested first, lower within-provider rank, canonical order. `pool` is in canonical order, so a
 * stable counting sort over (content, attested, rank) equals the comparison sort, in O(n).
 */
function survivorPriority(t: Table, pool: Indices, canon: Int32Array, arena: Arena): Indices {
  const n = pool.length;
  let maxRank = 0;
  let small = true;
  for (let p = 0; p < n; p++) {
    const r = t.inputRank[pool[p]!]!;
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
  const starts = arena.int32(4 * width + 1);
  for (let p = 0; p < n; p++) starts[tier(pool[p]!) * width + t.inputRank[pool[p]!]! + 1]!++;
  for (let b = 1; b < starts.length; b++) starts[b]! += starts[b - 1]!;
  const at = arena.int32(n);
  for (let p = 0; p < n; p++) {
    const i = pool[p]!;
    at[starts[tier(i) * width + t.inputRank[i]!]!++] = i;
  }
  return at;
}

/**
 * Unique citation labels for the candidates (indexed like `cand`): the natural label
 * (citation_label, else title, else provider/frame id); colliding labels all become "label (n)",
 * n counting in canonical order and skipping any label already taken.
 */
function assignCitations(t: Table, cand: Indices, arena: Arena): string[] {
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

interface ProofResult {
  record: F13Record;
  proofValue?: InclusionProof;
}

/** F13: proofs for every kept frame of a signed answer, derived from the complete signed set. */
function retainSignedProofs(answers: readonly ProviderAnswer[], t: Table, admittedK: Indices, cand: Indices): Map<number, ProofResult> {
  const out = new Map<number, ProofResult>();
  const byAnswer = new Map<number, number[]>();
  if (!answers.some((answer) => answer.result.result_attestation !== undefined)) return out;
  for (let x = 0; x < admittedK.length; x++) {
    const c = cand[admittedK[x]!]!;
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
