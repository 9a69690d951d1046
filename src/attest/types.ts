/**
 * Wire types for §6.5 attestation, from generated/types (the interop profile, generated from the
 * envelope schema by scripts/generate.ts). The attestation module reads only a frame's id,
 * content_digest and provenance, so its frame input is that slice of ContextFrame; wire input that
 * may be malformed is accepted as `unknown` where it is parsed (proofs, attestations, entries).
 */
import type { AttesterKey, ContextFrame, FrameAttestation, FrameId, InclusionProof, ProofStep as WireProofStep, ProvenanceAttestation } from '../../generated/types/index.js';

/** The members of a ContextFrame that enter its §6.5.2 commitment (provenance absent ≡ empty). */
export type CommittedFrame = Pick<ContextFrame, 'id' | 'content_digest' | 'provenance'>;

/** §6.3 identity: (provider id = handshake provider.name, frame id, content_digest). */
export type FrameIdentity = FrameId;

/** ProvenanceAttestation (§6.5.4). */
export type Attestation = ProvenanceAttestation;

/** One step of an inclusion proof, leaf → root; sibling_is_left ⇒ parent = node(sibling, current). */
export type ProofStep = WireProofStep;

/** RFC 6962 audit path for one leaf of a result root (§6.5.3, F13). */
export type InclusionProofInput = InclusionProof;

/** One frames.result.frame_attestations entry (F11). */
export type FrameAttestationEntry = FrameAttestation;

/** handshake_ack.attester_keys entry, or a trust-store entry of the same shape. */
export type AttesterKeyInput = AttesterKey;
