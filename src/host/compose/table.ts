/**
 * The offered frames as columns (tabulateOffered): item i = the i-th frame offered, answers in the
 * order given. Every later stage of composition reads these columns (compose.ts).
 */
import type { ContextFrame, FrameId } from '../../../generated/types/index.js';
import { compareFrameIds } from '../../protocol/identity.js';
import { utf8ByteLength } from '../../protocol/token-cost.js';
import { compareUtf8 } from '../../protocol/utf8-order.js';
import type { ProviderAnswer, ReceivedFrame } from '../types.js';
import type { Arena } from './arena.js';

/** Item or candidate indices (typed arrays: no growth garbage at 100k frames). */
export type Indices = Int32Array;

/** A string is "simple" when UTF-16 order equals UTF-8 byte order (no surrogates, nothing ≥ U+E000). */
const NOT_SIMPLE = /[\ud800-\uffff]/;
const NON_BLANK = /\S/;

function naturalLabel(frame: ContextFrame, fid: FrameId): string {
  const label = frame.citation_label;
  if (typeof label === 'string' && NON_BLANK.test(label)) return label;
  if (typeof frame.title === 'string' && NON_BLANK.test(frame.title)) return frame.title;
  return `${fid.provider_id}/${fid.frame_id}`;
}

/**
 * Every offered frame as columns (item i = the i-th frame offered, answers in the order given).
 * Composition holds no per-frame object until it writes its output: at 100k frames the objects'
 * garbage-collection cost dominated (bench/compose).
 */
export class Table {
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
    return this.inputRank[a]! - this.inputRank[b]! || compareUtf8(this.content[a]!, this.content[b]!) || compareUtf8(JSON.stringify(this.rf[a]!.frame), JSON.stringify(this.rf[b]!.frame));
  }
}

/** Offered frames, as columns (the one pass that reads every content). */
export function tabulateOffered(answers: readonly ProviderAnswer[], arena: Arena): Table {
  let offered = 0;
  for (const answer of answers) offered += answer.frames.length;
  const t = new Table(offered, arena);
  for (let a = 0; a < answers.length; a++) {
    const frames = answers[a]!.frames;
    for (let f = 0; f < frames.length; f++) t.add(a, frames[f]!);
  }
  return t;
}
