/**
 * Cross-provider dedup (D2, stronger than the public reference host):
 *
 * Two offered frames are PROVEN duplicates when
 *  1. identity: they carry the same FrameId triple (provider id, frame id, content_digest) — D2
 *     says same content. With the digest absent the triple proves nothing about the bytes: equal
 *     inline content ⇒ duplicate, different content ⇒ `identity-conflict` (one FrameId can name
 *     only one frame in the audit, usage report and attribution, so only one is kept);
 *  2. content digest: both declare the same `content_digest` AND their inline bytes are equal.
 *     The digest is only a claim (§6.3), so it is used as an index, never as proof on its own — a
 *     provider cannot evict another provider's frame by copying its digest. Same digest with
 *     different bytes is reported (S6.3-content-digest) and nobody is dropped for it;
 *  3. file provenance (across providers only): a `file` link of each names the same `uri` and
 *     their line ranges overlap (`L120-160`, `L120-L160`, `120-160`, `L7`, `#L7`; an absent range
 *     is the whole resource and overlaps every range of that uri; a range we cannot parse only
 *     matches the identical string). Exception: the SAME range with two different declared link
 *     digests is two versions of the file, not the same evidence.
 *
 * Survivor among proven duplicates (never a cross-provider score comparison, F10): frames are
 * visited in priority order — carries inline content (a `reference` frame contributes nothing)
 * first, then attested (evidence verdict `attested`) first, then lower within-provider rank (the
 * provider's own order), then canonical FrameId order (UTF-8 bytes). A frame that is a proven
 * duplicate of an already KEPT frame is dropped as `duplicate-of` that kept frame; otherwise it is
 * kept. The relation is checked against kept frames only (no transitive chains), so every drop
 * names a survivor it is directly proven to duplicate. Lookups are indexed (identity slots, an
 * open-addressing digest index, a start-sorted interval list per uri), never all-pairs; one uri
 * carrying very many kept ranges is scanned only within the window a new range can overlap.
 *
 * Composition first collapses each FrameId to one representative (its copies are one frame, with
 * the union of their provenance) and passes only representatives here, so rule 1 only acts for
 * other callers; see compose.ts.
 */
import type { Provenance } from '../../../generated/types/index.js';
import { hashString, StringIndex } from './string-index.js';

export type DuplicateProof = 'identity' | 'content-digest' | 'file-provenance';

/**
 * The frames to dedup, as columns indexed by item (no per-frame objects: composition runs over
 * 100k frames and object churn dominated its cost, bench/compose).
 */
export interface DedupColumns {
  /** A small integer naming the item's FrameId (e.g. its canonical position): equal ⇔ same FrameId triple. */
  readonly identity: ArrayLike<number>;
  readonly provider: readonly string[];
  readonly digest: readonly (string | undefined)[];
  /** Inline content as composed ('' for a reference frame). */
  readonly content: readonly string[];
  provenance(item: number): readonly Provenance[] | undefined;
}

export const PROOF_NONE = 0;
export const PROOF_IDENTITY = 1;
export const PROOF_DIGEST = 2;
export const PROOF_PROVENANCE = 3;
/** Same FrameId, no content_digest, different inline bytes. */
export const PROOF_IDENTITY_CONFLICT = 4;

export const DUPLICATE_PROOFS: readonly (DuplicateProof | undefined)[] = [undefined, 'identity', 'content-digest', 'file-provenance', 'identity'];

export interface DedupResult {
  /** Per item: -1 when kept (or not visited), else the item it duplicates (a kept one). */
  survivor: Int32Array;
  /** Per item: PROOF_* code of the drop. */
  proof: Uint8Array;
  /** Same digest declared over different inline bytes (item pairs, kept first). */
  clashes: DigestClash[];
}

/** Same digest declared, different inline bytes (item indices): at least one digest is false. */
export interface DigestClash {
  a: number;
  b: number;
}

type Range = { kind: 'whole' } | { kind: 'lines'; start: number; end: number } | { kind: 'exact'; text: string };

const LINES_RE = /^\s*#?L?(\d+)\s*(?:[-–:]\s*L?(\d+))?\s*$/i;

/** Parse a provenance `range`. Absent or blank ⇒ the whole resource. */
export function parseRange(range: string | null | undefined): Range {
  if (range === undefined || range === null || range.trim() === '') return { kind: 'whole' };
  const m = LINES_RE.exec(range);
  if (m) {
    const start = Number(m[1]);
    const end = m[2] === undefined ? start : Number(m[2]);
    if (Number.isSafeInteger(start) && Number.isSafeInteger(end) && start <= end) return { kind: 'lines', start, end };
  }
  return { kind: 'exact', text: range };
}

interface KeptLink {
  item: number;
  pos: number; // position in visiting order (smaller = kept earlier)
  provider: string;
  range: Range;
  digest: string | undefined;
}

interface Interval extends KeptLink {
  start: number;
  end: number;
}

interface UriIndex {
  whole: KeptLink[];
  exact: Map<string, KeptLink[]>;
  intervals: Interval[]; // sorted by start
  maxLen: number;
  /** Every kept link on this uri, for a whole-resource query. */
  all: KeptLink[];
}

function sameRange(a: Range, b: Range): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'whole') return true;
  if (a.kind === 'lines') return b.kind === 'lines' && a.start === b.start && a.end === b.end;
  return b.kind === 'exact' && a.text === b.text;
}

/** Overlapping links of two providers are not the same evidence when the same range has two digests. */
function versionsDiffer(a: Range, aDigest: string | undefined, b: KeptLink): boolean {
  return aDigest !== undefined && b.digest !== undefined && aDigest !== b.digest && sameRange(a, b.range);
}

interface FileLink {
  uri: string;
  range: Range;
  digest: string | undefined;
}
const NO_LINKS: readonly FileLink[] = Object.freeze([]);

function fileLinks(provenance: readonly Provenance[] | undefined): readonly FileLink[] {
  if (!Array.isArray(provenance) || provenance.length === 0) return NO_LINKS;
  const out: FileLink[] = [];
  for (const link of provenance) {
    if (link === null || typeof link !== 'object' || link.type !== 'file' || typeof link.uri !== 'string') continue;
    out.push({ uri: link.uri, range: parseRange(link.range), digest: typeof link.digest === 'string' ? link.digest : undefined });
  }
  return out;
}

/**
 * Dedup the items listed in `visit` (priority order, best survivor first); items not listed are
 * ignored. Every dropped item names a KEPT item it is directly proven to duplicate.
 */
export function dedup(visit: ArrayLike<number>, cols: DedupColumns, itemCount: number): DedupResult {
  const survivor = new Int32Array(itemCount).fill(-1);
  const proof = new Uint8Array(itemCount);
  const clashes: DigestClash[] = [];
  let maxIdentity = -1;
  for (let n = 0; n < visit.length; n++) maxIdentity = Math.max(maxIdentity, cols.identity[visit[n]!]!);
  // identity → the kept item with that FrameId, -1 when none
  const byIdentity = new Int32Array(maxIdentity + 1).fill(-1);
  // digest → kept items (several when kept frames share a digest but not their bytes)
  const byDigest = new StringIndex(visit.length, (item) => cols.digest[item]!);
  const byUri = new Map<string, UriIndex>();

  for (let n = 0; n < visit.length; n++) {
    const item = visit[n]!;
    // 1. identity
    const identity = cols.identity[item]!;
    const same = byIdentity[identity]!;
    if (same !== -1) {
      survivor[item] = same;
      proof[item] = cols.digest[item] === undefined && cols.content[same] !== cols.content[item] ? PROOF_IDENTITY_CONFLICT : PROOF_IDENTITY;
      continue;
    }
    // 2. content digest, confirmed by equal inline bytes
    const digest = cols.digest[item];
    let digestHash = 0;
    let of = -1;
    let code = PROOF_NONE;
    if (digest !== undefined) {
      digestHash = hashString(digest);
      const peers = byDigest.findAll(digest, digestHash);
      if (peers !== undefined) {
        for (const peer of peers) {
          if (cols.content[peer] === cols.content[item]) {
            of = peer;
            code = PROOF_DIGEST;
            break;
          }
          clashes.push({ a: peer, b: item });
        }
      }
    }
    // 3. overlapping file provenance, across providers
    const links = of === -1 ? fileLinks(cols.provenance(item)) : NO_LINKS;
    for (let l = 0; l < links.length && of === -1; l++) {
      const link = links[l]!;
      const index = byUri.get(link.uri);
      if (index === undefined) continue;
      const hit = findOverlap(index, cols.provider[item]!, link.range, link.digest);
      if (hit !== undefined) {
        of = hit.item;
        code = PROOF_PROVENANCE;
      }
    }
    if (of !== -1) {
      survivor[item] = of;
      proof[item] = code;
      continue;
    }
    // kept: index it
    byIdentity[identity] = item;
    if (digest !== undefined) byDigest.insert(digestHash, item);
    for (const link of links) {
      let index = byUri.get(link.uri);
      if (index === undefined) {
        index = { whole: [], exact: new Map(), intervals: [], maxLen: 0, all: [] };
        byUri.set(link.uri, index);
      }
      const kept: KeptLink = { item, pos: n, provider: cols.provider[item]!, range: link.range, digest: link.digest };
      index.all.push(kept);
      if (link.range.kind === 'whole') index.whole.push(kept);
      else if (link.range.kind === 'exact') {
        const list = index.exact.get(link.range.text);
        if (list === undefined) index.exact.set(link.range.text, [kept]);
        else list.push(kept);
      } else {
        const iv: Interval = { item, pos: n, provider: kept.provider, range: link.range, digest: link.digest, start: link.range.start, end: link.range.end };
        const at = upperBound(index.intervals, iv.start);
        index.intervals.splice(at, 0, iv);
        index.maxLen = Math.max(index.maxLen, iv.end - iv.start);
      }
    }
  }
  return { survivor, proof, clashes };
}

/** First index whose start > value. */
function upperBound(list: readonly Interval[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function findOverlap(index: UriIndex, provider: string, range: Range, digest: string | undefined): KeptLink | undefined {
  if (range.kind === 'whole') {
    for (const kept of index.all) if (kept.provider !== provider && !versionsDiffer(range, digest, kept)) return kept;
    return undefined;
  }
  for (const kept of index.whole) if (kept.provider !== provider) return kept;
  if (range.kind === 'exact') {
    for (const kept of index.exact.get(range.text) ?? []) {
      if (kept.provider !== provider && !versionsDiffer(range, digest, kept)) return kept;
    }
    return undefined;
  }
  // Intervals sorted by start: candidates have start ≤ range.end and start ≥ range.start − maxLen.
  // Scan that window in insertion-independent order and report the earliest-kept hit, so the
  // answer does not depend on how the window is walked.
  const list = index.intervals;
  let best: Interval | undefined;
  for (let i = upperBound(list, range.end) - 1; i >= 0; i--) {
    const iv = list[i]!;
    if (iv.start < range.start - index.maxLen) break;
    if (iv.end >= range.start && iv.provider !== provider && !versionsDiffer(range, digest, iv)) {
      if (best === undefined || iv.pos < best.pos) best = iv;
    }
  }
  return best;
}
