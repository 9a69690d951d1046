/**
 * Stage 5 of composition, first half (compose.ts): every candidate's fenced block (render.ts
 * format) measured without building it — its cost, exact UTF-8 size, whether it is all ASCII, and
 * how many backslashes neutralisation inserts — so packing charges the whole block and rendering
 * (write.ts) neither rescans content nor re-measures.
 */
import { utf8ByteLength } from '../../protocol/token-cost.js';
import type { Arena } from './arena.js';
import { escapeAttribute, FENCE_CLOSE, neutralise, PREAMBLE } from './render.js';
import type { Indices, Table } from './table.js';

export const PREAMBLE_BYTES = utf8ByteLength(PREAMBLE);
export const PREAMBLE_TOKENS = Math.ceil(PREAMBLE_BYTES / 4);
export const OPEN = '<frame id="';

/** A character that needs attribute escaping, or any non-ASCII character. */
const ESCAPE_OR_NON_ASCII = /[&"<>\r\n\u000b\u000c]|[^\u0000-\u007f]/;

const utf8Length = utf8ByteLength;

/**
 * The header pieces shared by many frames — `" provider="P" kind="K" cite="` per provider × kind and
 * `">\n` / `" representation="R">\n` per representation — built, escaped and measured once.
 */
export class HeaderCache {
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

/** What the packer needs of a candidate's block, computed without building it. */
export interface Block {
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
export function blockOf(t: Table, i: number, label: string, inserted: number, headers: HeaderCache, out: Block): Block {
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
  out.ascii = idBytes === escId.length && citeBytes === escCite.length && middle.bytes === middle.text.length && suffix.bytes === suffix.text.length && contentBytes === t.content[i]!.length;
  out.kind = kind;
  out.escId = escId;
  out.escCite = escCite;
  out.middle = middle.text;
  out.suffix = suffix.text;
  return out;
}

/** The candidates' measured blocks (indexed like `cand`), and what rendering reuses to build them. */
export interface BlockMeasures {
  /** kOf[item] = its candidate index, -1 when it is not a candidate. */
  kOf: Int32Array;
  /** max(ceil(utf8 bytes of the whole block / 4), declared token_cost). */
  cost: Int32Array;
  /** Exact UTF-8 bytes of the block. */
  bytes: Int32Array;
  /** 1 when every character of the block is ASCII. */
  ascii: Uint8Array;
  /** Backslashes neutralisation inserts into the content. */
  inserted: Int32Array;
  headers: HeaderCache;
  /** A reused scratch Block (blockOf fills it). */
  scratch: Block;
}

/**
 * 5. Every candidate's block cost, visiting frames in the order they were received (= memory
 * order): at 100k frames these passes are bound by memory latency (bench/compose), so the
 * per-frame work is done in passes over i, and the strategy-order walk touches only the small
 * typed arrays. The block's exact UTF-8 size, whether it is all ASCII and how many backslashes
 * neutralisation inserts are kept, so rendering (renderPrompt, stage 6) neither rescans content nor re-measures.
 */
export function measureBlocks(t: Table, cand: Indices, cite: readonly string[], arena: Arena): BlockMeasures {
  const n = cand.length;
  const total = t.size;
  const headers = new HeaderCache();
  const cost = arena.int32(n);
  const kOf = arena.int32(total, -1);
  for (let k = 0; k < n; k++) kOf[cand[k]!] = k;
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
  return { kOf, cost, bytes: blockBytes, ascii: blockAscii, inserted, headers, scratch };
}
