/**
 * Stage 6 of composition (compose.ts), after placement: render. The admitted frames' output
 * records and the text — the preamble, then every fenced block (render.ts format) in position
 * order — written from the measurements of stage 5 (measureBlocks, measure.ts), never re-measured.
 */
import type { Arena } from './arena.js';
import { blockOf, OPEN, PREAMBLE_BYTES, type Block, type BlockMeasures } from './measure.js';
import type { Packing } from './pack.js';
import { FENCE_CLOSE, neutralise, PREAMBLE } from './render.js';
import type { Table } from './table.js';
import type { AdmittedAuditEntry, ComposedFrame } from './types.js';

/** Admitted entries carry their position, selection rank and tokens as fields; the detail is fixed text. */
const ADMITTED = 'admitted into the prompt (see position, selectionRank, tokens)';
const ADMITTED_REFERENCE = `${ADMITTED}; reference frame: empty contribution, it cannot be rehydrated in 1.0 (S6.4.1)`;

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

/**
 * 6. Render: the output records and the text's blocks, built in received order (= memory order:
 * at 100k frames passes over the frame objects are bound by memory latency, bench/compose), each
 * put straight at its position. The text is the preamble, then the blocks in position order. An
 * all-ASCII prompt (the common case) is written into the arena's reusable byte buffer at
 * precomputed offsets and decoded once: no string per block, and the only fresh memory is the
 * result itself; any other prompt is joined from strings. Both give the same text
 * (compose-render-paths.test.ts). `frames` is in position order.
 */
export function renderPrompt(t: Table, measured: BlockMeasures, cite: readonly string[], packing: Packing, positionOf: Int32Array, arena: Arena): { text: string; frames: ComposedFrame[] } {
  const total = t.size;
  const { kOf, cost, inserted, headers, scratch } = measured;
  const { admitted: admittedK, isAdmitted, selectionRank } = packing;
  const m = admittedK.length;
  let ascii = true;
  let textBytes = PREAMBLE_BYTES;
  const sizeAt = arena.float64(m);
  for (let a = 0; a < m; a++) {
    const k = admittedK[a]!;
    sizeAt[positionOf[k]!] = measured.bytes[k]!;
    textBytes += measured.bytes[k]!;
    if (measured.ascii[k] === 0) ascii = false;
  }
  const sink: TextSink | undefined = m === 0 ? undefined : ascii ? new ByteSink(arena, sizeAt, textBytes) : new JoinSink(m);
  const frames: ComposedFrame[] = new Array<ComposedFrame>(m);
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
  }
  const text = sink === undefined ? '' : sink.text();
  return { text, frames };
}
