/**
 * The library call: `ingest({ intent, attachments, root })` → `{ query, frames, report, store }`.
 *
 * - intent → query.goal byte for byte (never rewritten, never trimmed);
 * - path references → query.anchors (paths.ts), in paste order, exact-string de-duplicated;
 * - every other block → one artifact (content-addressed; the same bytes dedup to one frame),
 *   served compact: query.max_frames = the number of frames, query.max_tokens = their inline cost,
 *   representation_preferences [compact, full];
 * - report: in paste order, one entry per attachment note and per non-blank block.
 * Deterministic: the output is a function of the bytes (and the root's file system for anchors);
 * frames come out in the provider's rank order (score, then id), independent of attachment order.
 */
import { isUtf8 } from 'node:buffer';
import type { ContextFrame, ContextQuery } from '../../generated/types/index.js';
import { blocksOf, type Block } from './classify.js';
import { distillBinary, distillCode, distillDiff, distillLog, distillProse, distillStackBlock, distillStructuredLog, distillTable, STRUCTURED_MAX_LINES, type Distilled } from './distill.js';
import { intentHits, intentTerms } from './intent.js';
import { distillJson } from './jsondoc.js';
import { distillRecords } from './records.js';
import { distillKeyValue } from './kv.js';
import { buildArtifact, renderArtifact, type Artifact, INGEST_PROVIDER_NAME } from './artifact.js';
import { bytesToText, indexLines, type LineIndex } from './lines.js';
import { anchorFor } from './paths.js';
import { leadingTimestamp } from './timestamps.js';
import { IngestStore } from './store.js';

export interface Attachment {
  /** How the report names it (a file name, `stdin`, `attachment 3`). */
  name?: string;
  content: string | Uint8Array;
}

export interface IngestInput {
  intent: string;
  attachments: ReadonlyArray<Attachment | string | Uint8Array>;
  /** Workspace root: relative path references that resolve inside it become file:// anchors. */
  root?: string;
  /** Weight what the distillers keep by the intent's terms (default true; §68). */
  weightByIntent?: boolean;
}

export type Became =
  | { outcome: 'frame'; id: string; representation: 'compact'; inline_tokens: number; source_tokens: number }
  | { outcome: 'duplicate'; id: string }
  | { outcome: 'anchor'; uri: string; resolved: 'uri' | 'absolute' | 'root' | 'as-typed' }
  | { outcome: 'note' };

export interface ReportEntry {
  attachment: string;
  /** Lines of the attachment the entry covers (`L3-17`); absent for attachment notes. */
  lines?: string;
  kind: 'log' | 'stack' | 'table' | 'code' | 'diff' | 'prose' | 'path' | 'binary' | 'json' | 'records' | 'kv' | 'attachment';
  summary: string;
  became: Became;
  notes?: string[];
}

export interface IngestResult {
  query: ContextQuery;
  /** The frames as served for `query` (compact; the provider's rank order). */
  frames: ContextFrame[];
  report: ReportEntry[];
  /** The artifacts behind the frames: serves [full]/compact/reference re-queries and verify. */
  store: IngestStore;
}

export class IngestInputError extends Error {}

/** The paste's budget: a share of its tokens, within bounds; each block gets its weighted part, at least BLOCK_BUDGET_MIN. */
export const PASTE_BUDGET_SHARE = 0.2;
export const PASTE_BUDGET_MIN = 400;
export const PASTE_BUDGET_MAX = 2400;
export const BLOCK_BUDGET_MIN = 160;
const STRUCTURES = new Set(['table', 'json', 'records', 'kv']);

function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
}

function bufferOf(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

function invalidUtf8(b: Buffer): { count: number; first: number } {
  // Only on the rare invalid path: walk the sequences (WHATWG: each maximal invalid subpart is one U+FFFD).
  let count = 0;
  let first = -1;
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    let ok = need >= 0;
    if (ok) {
      for (let k = 1; k <= need; k++) {
        const d = b[i + k];
        let lo = 0x80;
        let hi = 0xbf;
        if (k === 1 && c === 0xe0) lo = 0xa0;
        if (k === 1 && c === 0xed) hi = 0x9f;
        if (k === 1 && c === 0xf0) lo = 0x90;
        if (k === 1 && c === 0xf4) hi = 0x8f;
        if (d === undefined || d < lo || d > hi) {
          ok = false;
          need = k - 1;
          break;
        }
      }
    }
    if (!ok) {
      count++;
      if (first < 0) first = i;
      i += Math.max(1, need + 1);
    } else i += need + 1;
  }
  return { count, first };
}

function lineRange(b: Block): string {
  return b.first === b.last ? `L${b.first + 1}` : `L${b.first + 1}-${b.last + 1}`;
}

/** First and last instants of a log (first > last ⇒ swapped: a reverse-chronological log). */
function logWindow(ix: LineIndex, first: number, last: number, zoneless: { seen: boolean }): { from?: string; to?: string } {
  const instantAt = (i: number): string | undefined => {
    const t = leadingTimestamp(ix.s, ix.start[i]!, ix.end[i]!);
    if (t.kind !== 'instant') return undefined;
    if (t.zoneless) zoneless.seen = true;
    return t.value;
  };
  let a: string | undefined;
  for (let i = first; i <= last && a === undefined; i++) a = instantAt(i);
  let b: string | undefined;
  for (let i = last; i >= first && b === undefined; i--) b = instantAt(i);
  if (a === undefined || b === undefined) return {};
  return Date.parse(a) > Date.parse(b) ? { from: b, to: a } : { from: a, to: b };
}

function attachmentName(att: Attachment | string | Uint8Array, i: number): string {
  if (typeof att === 'object' && !(att instanceof Uint8Array) && att.name !== undefined) return att.name;
  return `attachment ${i + 1}`;
}

/** One attachment, read and segmented. */
interface Prepared {
  name: string;
  bytes: Buffer;
  /** The bytes as Latin-1 text: one character per byte, for offsets. */
  s: string;
  ix: LineIndex;
  blocks: Block[];
}

/**
 * One budget for the whole paste (docs/interpretations.md §123): every block is segmented first, then each
 * distiller is given its share — by its size, doubled or more where the question's terms point.
 */
function blockBudgets(prepared: readonly Prepared[], terms: readonly string[]): (b: Block) => number {
  const weightOf = new Map<Block, number>();
  let pasteTokens = 0;
  let totalWeight = 0;
  for (const p of prepared) {
    for (const b of p.blocks) {
      if (b.kind === 'path') continue;
      const bytesIn = p.ix.end[b.last]! - p.ix.start[b.first]!;
      pasteTokens += Math.ceil(bytesIn / 4);
      const hits = bytesIn <= 4 * 1024 * 1024 && terms.length > 0 ? intentHits(p.s.slice(p.ix.start[b.first]!, p.ix.end[b.last]!), [...terms]) : 0;
      const w = Math.ceil(bytesIn / 4) * (1 + Math.min(3, hits));
      weightOf.set(b, w);
      totalWeight += w;
    }
  }
  const pasteBudget = Math.min(PASTE_BUDGET_MAX, Math.max(PASTE_BUDGET_MIN, Math.ceil(pasteTokens * PASTE_BUDGET_SHARE)));
  return (b) => Math.max(BLOCK_BUDGET_MIN, Math.floor((pasteBudget * (weightOf.get(b) ?? 0)) / Math.max(1, totalWeight)));
}

/** The report's notes on an attachment as a whole (encoding, line endings, NULs, …); false when it is not UTF-8. */
function noteAttachment({ bytes, s, ix }: Prepared, note: (summary: string) => void): boolean {
  const valid = isUtf8(bytes);
  if (!valid) {
    const bad = invalidUtf8(bytes);
    note(
      `${bad.count} invalid UTF-8 sequence(s), the first at byte ${bad.first}: the served text shows U+FFFD there (content_fidelity "normalized"); canonical_content_hash and the store keep the exact bytes`,
    );
  }
  const endings = [ix.crlf ? `${ix.crlf} CRLF` : '', ix.lf ? `${ix.lf} LF` : '', ix.cr ? `${ix.cr} lone CR` : ''].filter((e) => e !== '');
  if (ix.crlf > 0 || ix.cr > 0) {
    note(`line endings: ${endings.join(', ')}${endings.length > 1 ? ' (mixed)' : ''}; lines are split on all of them and [full] keeps every byte as pasted`);
  }
  let nul = 0;
  for (let i = s.indexOf('\0'); i >= 0; i = s.indexOf('\0', i + 1)) nul++;
  if (nul > 0) note(`${nul} NUL byte(s): kept in [full] (JSON \\u0000)`);
  if (ix.longest > 64 * 1024) note(`a ${ix.longest}-byte line: compact renderings quote at most 400 bytes of a line and say how many they left out`);
  if (s.startsWith('\u00ef\u00bb\u00bf')) note('starts with a UTF-8 byte order mark (kept in [full])');
  return valid;
}

/** The time a log or stack block covers (valid_from / valid_to), when its lines carry instants. */
function validWindow(block: Block, { s, ix }: Prepared, zoneless: { seen: boolean }): { validFrom?: string; validTo?: string } {
  if (block.kind === 'log') {
    const w = logWindow(ix, block.first, block.last, zoneless);
    return { ...(w.from ? { validFrom: w.from } : {}), ...(w.to ? { validTo: w.to } : {}) };
  }
  if (block.kind === 'stack') {
    const t = leadingTimestamp(s, ix.start[block.first]!, ix.end[block.first]!);
    if (t.kind === 'instant') {
      if (t.zoneless) zoneless.seen = true;
      return { validFrom: t.value, validTo: t.value };
    }
  }
  return {};
}

/** What a block's distiller is handed. */
interface DistillContext {
  p: Prepared;
  slice: Buffer;
  textOf: () => string;
  terms: string[];
  budget: number;
  /** A table printed again (the same header line) refers to the first one's columns (repeated reports). */
  tableHeaders: Map<string, number>;
}

/** The block's compact rendering, by its kind. */
function distillBlock(block: Block, { p, slice, textOf, terms, budget, tableHeaders }: DistillContext): Distilled {
  // a structure its share of the budget can carry whole is served whole (docs/interpretations.md §123)
  if (STRUCTURES.has(block.kind) && Math.ceil(slice.byteLength / 4) <= budget) return { text: textOf(), method: 'verbatim' };
  const first = block.first + 1;
  switch (block.kind) {
    case 'log':
      // the template miner reads decoded lines; a very long log gets the streaming digest (§68)
      return block.last - block.first + 1 <= STRUCTURED_MAX_LINES ? distillStructuredLog(textOf(), first, terms) : distillLog(p.ix, block.first, block.last);
    case 'diff':
      return distillDiff(textOf(), first);
    case 'stack':
      return distillStackBlock(textOf(), first, terms);
    case 'table': {
      const header = p.s.slice(p.ix.start[block.first]!, p.ix.end[block.first]!);
      const seen = tableHeaders.get(header);
      if (seen === undefined) tableHeaders.set(header, first);
      return distillTable(textOf(), block.delimiter!, first, terms, budget, seen);
    }
    case 'code':
      return distillCode(textOf(), first);
    case 'kv':
      return distillKeyValue(textOf(), first, terms, budget);
    case 'records':
      return distillRecords(textOf(), first, terms, budget);
    case 'json':
      return distillJson(textOf(), first, terms, budget);
    case 'binary':
      return distillBinary(slice);
    default:
      return distillProse(textOf(), first);
  }
}

export function ingest(input: IngestInput): IngestResult {
  if (typeof input.intent !== 'string' || input.intent.length === 0) {
    throw new IngestInputError('the intent is empty: it becomes query.goal, which must be a non-empty string (§5)');
  }
  const report: ReportEntry[] = [];
  // The intent weights what the distillers keep (§68); it is never rewritten (query.goal is the intent).
  const terms = input.weightByIntent === false ? [] : intentTerms(input.intent);
  const anchors: string[] = [];
  const artifacts = new Map<string, Artifact>();
  const hashOf = new Map<ReportEntry, string>();
  const prepared: Prepared[] = input.attachments.map((att, index) => {
    const bytes = bufferOf(toBytes(typeof att === 'string' || att instanceof Uint8Array ? att : att.content));
    const s = bytes.length > 0 ? bytes.toString('latin1') : '';
    const ix = indexLines(s);
    return { name: attachmentName(att, index), bytes, s, ix, blocks: bytes.length > 0 ? blocksOf(ix) : [] };
  });
  const budgetOf = blockBudgets(prepared, terms);
  for (const p of prepared) {
    const { name, bytes, s, ix, blocks } = p;
    const note = (summary: string) => report.push({ attachment: name, kind: 'attachment', summary, became: { outcome: 'note' } });
    if (bytes.length === 0) {
      note('empty attachment: nothing to ingest');
      continue;
    }
    const valid = noteAttachment(p, note);
    const zoneless = { seen: false };
    const tableHeaders = new Map<string, number>();
    for (const block of blocks) {
      const from = ix.start[block.first]!;
      const to = ix.end[block.last]!;
      const slice = bytes.subarray(from, to);
      if (block.kind === 'path') {
        for (let i = block.first; i <= block.last; i++) {
          const typed = bytesToText(s.slice(ix.start[i]!, ix.end[i]!));
          const a = anchorFor(typed, input.root);
          if (!anchors.includes(a.uri)) anchors.push(a.uri);
          report.push({ attachment: name, lines: `L${i + 1}`, kind: 'path', summary: `anchor · ${a.typed}`, became: { outcome: 'anchor', uri: a.uri, resolved: a.how } });
        }
        continue;
      }
      const lossy = !valid && !isUtf8(slice);
      const text = to - from <= 4 * 1024 * 1024 ? slice.toString('utf8') : undefined;
      const textOf = () => text ?? slice.toString('utf8');
      const candidate = buildArtifact({
        kind: block.kind,
        bytes: slice,
        lossy,
        lines: block.last - block.first + 1,
        ...(text !== undefined && !lossy ? { text } : {}),
        distill: () => distillBlock(block, { p, slice, textOf, terms, budget: budgetOf(block), tableHeaders }),
        ...validWindow(block, p, zoneless),
      });
      const existing = artifacts.get(candidate.addressHash);
      if (existing) {
        const dup: ReportEntry = { attachment: name, lines: lineRange(block), kind: block.kind, summary: '', became: { outcome: 'duplicate', id: existing.id } };
        hashOf.set(dup, existing.addressHash);
        report.push(dup);
        continue;
      }
      artifacts.set(candidate.addressHash, candidate);
      const full = candidate.lossy ? candidate.full().tokens : Math.ceil(candidate.bytes.byteLength / 4);
      const summary = candidate.compacted ? `${candidate.title} · ${full} → ${candidate.inlineTokens} tokens` : `${candidate.title} · ${full} tokens`;
      const entry: ReportEntry = {
        attachment: name,
        lines: lineRange(block),
        kind: block.kind,
        summary,
        became: { outcome: 'frame', id: candidate.id, representation: 'compact', inline_tokens: candidate.inlineTokens, source_tokens: full },
      };
      if (lossy) entry.notes = ['invalid UTF-8 in this block: [full] is normalized text (U+FFFD); the exact bytes are in the store'];
      hashOf.set(entry, candidate.addressHash);
      report.push(entry);
    }
    if (zoneless.seen) note('timestamps carry no zone: read as UTC for valid_from/valid_to (F4 has no local time)');
  }
  const store = new IngestStore([...artifacts.values()]);
  // Ids are fixed by the store (a 12-hex prefix collision lengthens both ids); the report follows it.
  for (const [e, hash] of hashOf) {
    if (e.became.outcome !== 'frame' && e.became.outcome !== 'duplicate') continue;
    e.became.id = store.idOf(hash);
    if (e.became.outcome === 'duplicate') e.summary = `duplicate · deduplicated to ${e.became.id}`;
  }
  const served = store.serve({ representation: 'compact' });
  const query: ContextQuery = {
    goal: input.intent,
    kinds: [],
    anchors,
    max_frames: served.length,
    max_tokens: served.reduce((n, f) => n + f.token_cost, 0),
    representation_preferences: ['compact', 'full'],
  };
  return { query, frames: served, report, store };
}

export { INGEST_PROVIDER_NAME, renderArtifact };
