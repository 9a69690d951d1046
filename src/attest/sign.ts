/**
 * Provider-side attestation (§6.5.2–§6.5.4; anchors F6, F7, F11, F12, F13).
 *
 * F6/F11: nothing here touches a frame — attestations are returned as frame_attestations entries
 * and a result_attestation that travel BESIDE the frames, never inside them, and are never part
 * of any hash preimage. Each entry names its frame's full identity (F11), never a position.
 * F12: the result root covers exactly the frames passed in — sign what you return, after
 * truncation. F13: proofs are derived while the whole set is in hand.
 */
import { frameCommitment, frameIdentityOf, renderDigest } from './commitment.js';
import { signEd25519 } from './ed25519-strict.js';
import { allInclusionProofs, canonicalLeaves, merkleRoot } from './merkle.js';
import type { Attestation, CommittedFrame, FrameAttestationEntry, FrameIdentity, InclusionProofInput } from './types.js';
import { frameKey } from './verify.js';

/** A provider's signing key. `secret_key` is a 32-byte RFC 8032 seed as 64 lowercase hex. */
export interface SigningKey {
  key_id: string;
  secret_key: string;
  /** Defaults to the provider id. */
  attester_id?: string;
}

/** The protocol timestamp profile (F4): YYYY-MM-DDTHH:MM:SS(.f+)?Z. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/** A ProvenanceAttestation over the 32 raw bytes of `commitment` (docs/interpretations.md §6). */
export function signCommitment(commitment: Uint8Array, key: SigningKey, issuedAt: string, attesterId: string): Attestation {
  if (!TIMESTAMP.test(issuedAt)) throw new RangeError(`issued_at ${JSON.stringify(issuedAt)} is not a protocol timestamp (F4)`);
  return {
    signed_commitment: renderDigest(commitment),
    key_id: key.key_id,
    algorithm: 'ed25519',
    attester_id: key.attester_id ?? attesterId,
    signature: signEd25519(key.secret_key, commitment),
    issued_at: issuedAt,
  };
}

/** A frame_attestations entry carrying a per-frame attestation of `frame` (§6.5.2). */
export function attestFrame(providerId: string, frame: CommittedFrame, key: SigningKey, issuedAt: string): FrameAttestationEntry {
  return {
    frame: frameIdentityOf(providerId, frame),
    attestation: signCommitment(frameCommitment(providerId, frame), key, issuedAt, providerId),
  };
}

export interface AttestResultOptions {
  /** Also sign every frame individually (default false: one root signature says it all). */
  perFrame?: boolean;
  /** Ship an inclusion proof per frame (default true; F13 makes them OPTIONAL). */
  proofs?: boolean;
}

export interface ResultAttestations {
  /** One entry per frame, in the order of `frames`; empty when nothing is attested per frame. */
  frame_attestations: FrameAttestationEntry[];
  result_attestation: Attestation;
}

/**
 * Sign a whole answer: result_attestation over the §6.5.3 root of exactly `frames` (canonical
 * order) and, per frame, an entry with its inclusion proof (and, optionally, its own attestation).
 */
export function attestResult(providerId: string, frames: readonly CommittedFrame[], key: SigningKey, issuedAt: string, options: AttestResultOptions = {}): ResultAttestations {
  const leaves = canonicalLeaves(providerId, frames);
  const commitments = leaves.map((leaf) => leaf.commitment);
  const root = merkleRoot(commitments);
  const result_attestation = signCommitment(root, key, issuedAt, providerId);
  const withProofs = options.proofs ?? true;
  const proofs = withProofs ? allInclusionProofs(commitments) : [];
  const byInput: FrameAttestationEntry[] = new Array(frames.length);
  leaves.forEach((leaf, position) => {
    const entry: FrameAttestationEntry = { frame: leaf.identity };
    if (options.perFrame) entry.attestation = signCommitment(leaf.commitment, key, issuedAt, providerId);
    if (withProofs) entry.inclusion_proof = proofs[position]!;
    byInput[leaf.inputIndex] = entry;
  });
  const frame_attestations = byInput.filter((entry) => entry.attestation !== undefined || entry.inclusion_proof !== undefined);
  return { frame_attestations, result_attestation };
}

/**
 * A copy of a frames result with its attestation members set. frame_attestations is omitted when
 * empty (§6.5.4: an unsigned answer stays byte-identical to a pre-attestation one). The frames
 * themselves are not modified (F6).
 */
export function withResultAttestations<R extends { frames: readonly CommittedFrame[] }>(
  providerId: string,
  result: R,
  key: SigningKey,
  issuedAt: string,
  options: AttestResultOptions = {},
): R & { frame_attestations?: FrameAttestationEntry[]; result_attestation: Attestation } {
  const { frame_attestations, result_attestation } = attestResult(providerId, result.frames, key, issuedAt, options);
  const { frame_attestations: _dropped, result_attestation: _replaced, ...rest } = result as R & Record<string, unknown>;
  void _dropped;
  void _replaced;
  return {
    ...(rest as R),
    ...(frame_attestations.length > 0 ? { frame_attestations } : {}),
    result_attestation,
  };
}

/**
 * F13: the inclusion proofs for the frames a host keeps out of a signed result, derived from the
 * COMPLETE `frames` (the set the result_attestation root covers) before the rest are dropped.
 * Throws when a kept identity is not among `frames` — a proof for it cannot exist.
 */
export function retainProofs(providerId: string, frames: readonly CommittedFrame[], keepIds: readonly FrameIdentity[]): { frame: FrameIdentity; inclusion_proof: InclusionProofInput }[] {
  const leaves = canonicalLeaves(providerId, frames);
  const proofs = allInclusionProofs(leaves.map((leaf) => leaf.commitment));
  const positions = new Map<string, number>();
  leaves.forEach((leaf, position) => {
    const key = frameKey(leaf.identity);
    if (!positions.has(key)) positions.set(key, position);
  });
  return keepIds.map((id) => {
    const position = positions.get(frameKey(id));
    if (position === undefined) throw new RangeError(`F13: ${frameKey(id)} is not in the signed result set; no proof exists for it`);
    return { frame: leaves[position]!.identity, inclusion_proof: proofs[position]! };
  });
}
