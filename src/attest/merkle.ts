/**
 * §6.5.3 result root and inclusion proofs (anchors F12, F13), RFC 6962 hashing:
 *
 *   leaf(c)    = SHA256(0x00 ‖ c)
 *   node(l, r) = SHA256(0x01 ‖ l ‖ r)
 *   MTH({})    = SHA256("contextgraph/attest/1/merkle-empty")
 *   MTH({c})   = leaf(c)
 *   MTH(C)     = node(MTH(C[0..k]), MTH(C[k..n])), k = largest power of 2 < n
 *
 * The tree is built bottom-up: pairing each level left to right and carrying an unpaired last
 * node up unchanged yields exactly the RFC 6962 split (never the "duplicate the last leaf"
 * shortcut); test/attest/merkle.test.ts checks this against the recursive definition.
 *
 * Proofs (docs/interpretations.md §6): `path` runs leaf → root; `sibling_is_left: true` ⇒ parent =
 * node(sibling, current). A proof is valid only if its length and sides equal the RFC 6962 audit
 * path of (leaf_index, leaf_count) — otherwise the index would be decorative and a proof could be
 * replayed at another position or presented for a differently-shaped tree.
 */
import { ascii, bytesEqual, sha256 } from './bytes.js';
import { compareUtf8 } from '../protocol/utf8-order.js';
import { compareFrameIds } from '../protocol/identity.js';
import { frameCommitment, frameIdentityOf, parseDigest, renderDigest } from './commitment.js';
import type { CommittedFrame, FrameIdentity, InclusionProofInput, ProofStep } from './types.js';

export const DOMAIN_MERKLE_EMPTY = 'contextgraph/attest/1/merkle-empty';

/** Largest leaf_count a proof may claim (the wire type is a u32). */
export const MAX_LEAF_COUNT = 0xffff_ffff;

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** leaf(c) = SHA256(0x00 ‖ c). */
export function leafHash(commitment: Uint8Array): Uint8Array {
  if (commitment.length !== 32) throw new RangeError(`a commitment is 32 bytes, got ${commitment.length}`);
  return sha256(LEAF_PREFIX, commitment);
}

/** node(l, r) = SHA256(0x01 ‖ l ‖ r). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha256(NODE_PREFIX, left, right);
}

/** MTH({}). */
export function emptyRoot(): Uint8Array {
  return sha256(ascii(DOMAIN_MERKLE_EMPTY));
}

/** All levels of the tree, leaves first; the last level holds the root alone. */
function levelsOf(commitments: readonly Uint8Array[]): Uint8Array[][] {
  const levels: Uint8Array[][] = [commitments.map(leafHash)];
  for (;;) {
    const level = levels[levels.length - 1]!;
    if (level.length <= 1) return levels;
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(nodeHash(level[i]!, level[i + 1]!));
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    levels.push(next);
  }
}

/** MTH over the commitments, in the order given. */
export function merkleRoot(commitments: readonly Uint8Array[]): Uint8Array {
  if (commitments.length === 0) return emptyRoot();
  const levels = levelsOf(commitments);
  return levels[levels.length - 1]![0]!;
}

/**
 * The sides of the RFC 6962 audit path of leaf `index` in a tree of `count` leaves, leaf → root
 * (true = the sibling is on the left). Its length is the proof length.
 */
export function auditPathShape(index: number, count: number): boolean[] {
  if (!isValidPosition(index, count)) throw new RangeError(`no leaf ${index} in a tree of ${count}`);
  const sides: boolean[] = [];
  let position = index;
  let size = count;
  while (size > 1) {
    if ((position ^ 1) < size) sides.push((position & 1) === 1);
    position = Math.floor(position / 2);
    size = Math.ceil(size / 2);
  }
  return sides;
}

function isValidPosition(index: unknown, count: unknown): boolean {
  return typeof index === 'number' && typeof count === 'number' && Number.isSafeInteger(index) && Number.isSafeInteger(count) && count >= 1 && count <= MAX_LEAF_COUNT && index >= 0 && index < count;
}

/** Every inclusion proof of a tree, computed from one pass over its levels (O(n log n)). */
export function allInclusionProofs(commitments: readonly Uint8Array[]): InclusionProofInput[] {
  const levels = levelsOf(commitments);
  return commitments.map((_, index) => proofFromLevels(levels, index, commitments.length));
}

function proofFromLevels(levels: readonly Uint8Array[][], index: number, count: number): InclusionProofInput {
  const path: ProofStep[] = [];
  let position = index;
  for (let depth = 0; depth < levels.length - 1; depth++) {
    const level = levels[depth]!;
    const siblingAt = position ^ 1;
    if (siblingAt < level.length) {
      path.push({ sibling: renderDigest(level[siblingAt]!), sibling_is_left: (position & 1) === 1 });
    }
    position = Math.floor(position / 2);
  }
  return { leaf_index: index, leaf_count: count, path };
}

/** The inclusion proof of leaf `index` among `commitments` (in the order given). */
export function inclusionProof(commitments: readonly Uint8Array[], index: number): InclusionProofInput {
  if (!isValidPosition(index, commitments.length)) {
    throw new RangeError(`no leaf ${index} in a tree of ${commitments.length}`);
  }
  return proofFromLevels(levelsOf(commitments), index, commitments.length);
}

/**
 * The root a proof recomputes from `commitment`, or undefined when the proof is malformed:
 * leaf_count not an integer in [1, 2³²−1], leaf_index not an integer in [0, leaf_count), a path
 * whose length or sides differ from the audit path of (leaf_index, leaf_count), or a sibling that
 * is not `sha256:<64 lowercase hex>`. Never throws on wire input.
 */
export function rootFromProof(commitment: Uint8Array, proof: unknown): Uint8Array | undefined {
  if (!(commitment instanceof Uint8Array) || commitment.length !== 32) return undefined;
  if (proof === null || typeof proof !== 'object') return undefined;
  const { leaf_index: index, leaf_count: count, path } = proof as Record<string, unknown>;
  if (!isValidPosition(index, count) || !Array.isArray(path)) return undefined;
  const shape = auditPathShape(index as number, count as number);
  if (path.length !== shape.length) return undefined;
  let current = leafHash(commitment);
  for (let i = 0; i < shape.length; i++) {
    const step: unknown = path[i];
    if (step === null || typeof step !== 'object') return undefined;
    const { sibling, sibling_is_left: siblingIsLeft } = step as Record<string, unknown>;
    if (siblingIsLeft !== shape[i]) return undefined;
    const siblingBytes = parseDigest(sibling);
    if (siblingBytes === undefined) return undefined;
    current = siblingIsLeft ? nodeHash(siblingBytes, current) : nodeHash(current, siblingBytes);
  }
  return current;
}

/**
 * F13: does `proof` place `commitment` under `root`? `root` is raw bytes or `sha256:<hex>`.
 *
 * An RFC 6962 root does not commit to the tree size, so two leaf counts whose audit paths have
 * the same shape for this leaf_index fold to the same root: leaf_count is bound only up to that
 * shape. A verifier that knows how many leaves the root covers (a host holding the signed result)
 * passes it as `expectedLeafCount`, and a proof stating another count is then rejected.
 */
export function verifyInclusionProof(commitment: Uint8Array, proof: unknown, root: Uint8Array | string, expectedLeafCount?: number): boolean {
  const rootBytes = typeof root === 'string' ? parseDigest(root) : root;
  if (rootBytes === undefined) return false;
  if (expectedLeafCount !== undefined && (proof as { leaf_count?: unknown } | null)?.leaf_count !== expectedLeafCount) return false;
  const recomputed = rootFromProof(commitment, proof);
  return recomputed !== undefined && bytesEqual(recomputed, rootBytes);
}

// ---------------------------------------------------------------------------------------------
// Canonical order (§6.3; docs/interpretations.md §6) and the result root (F12)

// The canonical order and UTF-8 byte comparison are the protocol's own (src/protocol), so the
// result root (§6.5.3) and composition order can never disagree.
export { compareUtf8 };
export const compareFrameIdentities: (a: FrameIdentity, b: FrameIdentity) => number = compareFrameIds;

/** A sorted copy of `ids` in canonical order (stable for equal identities). */
export function canonicalOrder<T extends FrameIdentity>(ids: readonly T[]): T[] {
  return [...ids].sort(compareFrameIdentities);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A frame of a result with its identity, commitment and leaf position in the result tree. */
export interface CommittedLeaf<F extends CommittedFrame = CommittedFrame> {
  frame: F;
  /** Position of the frame in the array it was given in. */
  inputIndex: number;
  identity: FrameIdentity;
  commitment: Uint8Array;
}

/**
 * The leaves of the result tree: every given frame, in canonical order of its identity. Frames
 * with equal identities (which D2 says carry equal content) are tie-broken by commitment bytes, so
 * the root never depends on the order the frames arrived in.
 */
export function canonicalLeaves<F extends CommittedFrame>(providerId: string, frames: readonly F[]): CommittedLeaf<F>[] {
  const leaves = frames.map((frame, inputIndex) => ({
    frame,
    inputIndex,
    identity: frameIdentityOf(providerId, frame),
    commitment: frameCommitment(providerId, frame),
  }));
  return leaves.sort((a, b) => compareFrameIdentities(a.identity, b.identity) || compareBytes(a.commitment, b.commitment));
}

/** F12: MTH over the commitments of exactly `frames`, in canonical order. */
export function resultSetRoot(providerId: string, frames: readonly CommittedFrame[]): Uint8Array {
  return merkleRoot(canonicalLeaves(providerId, frames).map((leaf) => leaf.commitment));
}
