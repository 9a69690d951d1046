/**
 * Stage 3 of composition (compose.ts): dedup (D2). The frames carrying one FrameId are one frame,
 * represented by its best copy (survivor priority) with the union of the copies' provenance; the
 * representatives are then deduplicated by proof (dedup.ts), never by score.
 */
import type { ContextFrame, FrameId } from '../../../generated/types/index.js';
import { frameIdKey } from '../../protocol/identity.js';
import type { Arena } from './arena.js';
import type { DropFn } from './audit.js';
import { dedup, DUPLICATE_PROOFS, type DuplicateProof } from './dedup.js';
import { hashString, StringIndex } from './string-index.js';
import type { Indices, Table } from './table.js';

function describe(fid: FrameId): string {
  return frameIdKey(fid);
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
  for (let start = 0; start < pool.length;) {
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

function proofText(how: DuplicateProof): string {
  return how === 'identity' ? 'same FrameId triple (D2)' : how === 'content-digest' ? 'same content_digest and identical inline bytes' : 'overlapping file provenance (same uri, overlapping range)';
}

export interface Survivors {
  /** The frames that survive dedup, in canonical order (providers are contiguous in it). */
  cand: Indices;
  /** S6.3-content-digest clashes: same digest, different inline bytes (not duplicates). */
  warnings: string[];
}

/**
 * 3. Dedup the pool (canonical order). First identity: the frames carrying one FrameId are one
 * frame (D2); the best of them (survivor priority) represents the group, its provenance the union
 * of theirs. Then the representatives are deduplicated by digest + bytes and file provenance —
 * only the contested ones: a representative whose content_digest no other carries and that names
 * no provenance can neither be dropped as a duplicate nor cause a drop, so it skips the ordered
 * walk. Every frame that does not survive is dropped, naming the kept frame it duplicates.
 */
export function dedupSurvivors(t: Table, pool: Indices, canon: Int32Array, identity: Int32Array, drop: DropFn, arena: Arena): Survivors {
  const total = t.size;
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

  // the candidates (the survivors), in canonical order
  const candAll = arena.int32(pool.length);
  let candSize = 0;
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
  return { cand: candAll.subarray(0, candSize), warnings };
}
