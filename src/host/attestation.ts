/**
 * Host-side attestation (§6.5.4, §6.5.5; anchors F8, F9, F11, F12, F13).
 *
 * `attachEvidence` runs once per admitted answer, while the provider's COMPLETE signed result is in
 * hand. It verifies every frame_attestations entry and the result_attestation with src/attest, and
 * keeps the outcome BESIDE each frame (`ReceivedFrame.evidence`), never inside the frame body:
 *
 * - verdict: one of the distinct §6.5.4 verdicts (attested, commitment-mismatch, bad-signature,
 *   unknown-key, uncheckable, unattested, proof-mismatch) — never a boolean;
 * - F13: an inclusion proof for EVERY frame against the signed root, derived from the full set
 *   when the root recomputes over exactly result.frames, otherwise the carried proof when it
 *   verifies — so a later composition that keeps a subset can still re-verify what it kept
 *   (`reverifyEvidence`) once the siblings are gone; the signed root and its result_attestation
 *   are kept with the proof;
 * - F8: an unrecognised algorithm is `uncheckable`, never attested;
 * - F9: nothing here drops, reorders or rewrites a frame — a frame whose attestation cannot be
 *   verified is simply not `attested` (the caller treats it exactly as unattested).
 *
 * Keys: the provider's handshake `attester_keys`, unless the caller passes a host trust store,
 * which then REPLACES them (§6.5.2: a published key settles how an attestation was built, not who
 * signed; a deployment that needs the second answer resolves key_id in its own store).
 *
 * Findings (F11/F12/F13) use the protocol Finding shape; pointers are relative to the `frames`
 * envelope (`/result/frame_attestations/<i>`, `/result/result_attestation`). An attestation member
 * inside a frame (F6) is ignored here — the envelope checks report it — and noted in the reason.
 */
import type { AttesterKey, ContextQueryResult, InclusionProof, ProvenanceAttestation } from '../../generated/types/index.js';
import {
  allInclusionProofs,
  bytesEqual,
  canonicalLeaves,
  frameCommitment,
  frameKey,
  merkleRoot,
  parseDigest,
  renderDigest,
  verifyAttestation,
  verifyFrameAttestations,
  verifyInclusionProof,
  type AttestationFinding,
  type CommittedFrame,
  type ResultVerification,
} from '../attest/index.js';
import { violation, warning, type Finding } from '../protocol/findings.js';
import type { AttestationVerdict, FrameEvidence, ProviderDescriptor, ReceivedFrame } from './types.js';
import { isJsonObject } from '../util/json.js';

/** A host trust store: attester keys resolved by key_id, replacing what the handshake published. */
export type TrustStore = readonly AttesterKey[];

const EMBEDDED_MEMBERS = ['attestation', 'attestations'];

/** The keys an answer from `provider` is verified with: the trust store when given, else the ack's. */
export function keysFor(provider: ProviderDescriptor, trustStore?: TrustStore): readonly AttesterKey[] {
  if (trustStore !== undefined) return trustStore;
  const published = provider.ack?.attester_keys;
  return Array.isArray(published) ? published : [];
}

/** An src/attest finding in the protocol Finding shape (`id` = the anchor). */
export function attestationFinding(finding: AttestationFinding): Finding {
  const pointer = finding.entry !== undefined ? `/result/frame_attestations/${finding.entry}` : finding.anchor === 'F12' ? '/result/result_attestation' : '/result';
  const detail = finding.message.replace(new RegExp(`^${finding.anchor}:\\s*`), '');
  return finding.severity === 'violation' ? violation(finding.anchor, pointer, detail) : warning(finding.anchor, pointer, detail);
}

interface RetainedProof {
  proof: InclusionProof;
  commitment: Uint8Array;
}

/**
 * F13: proofs for the frames of `frames` (by result position) against the signed root: all of them
 * derived when the root recomputes over exactly `frames`; else the carried ones that verify.
 */
function proofsFor(providerId: string, frames: readonly CommittedFrame[], result: ContextQueryResult): Map<number, RetainedProof> {
  const out = new Map<number, RetainedProof>();
  const signedRoot = isJsonObject(result.result_attestation) ? parseDigest(result.result_attestation.signed_commitment) : undefined;
  if (signedRoot === undefined) return out;
  let leaves;
  try {
    leaves = canonicalLeaves(providerId, frames);
  } catch {
    return out; // a frame without a computable commitment: nothing can be placed under the root
  }
  const commitments = leaves.map((leaf) => leaf.commitment);
  if (bytesEqual(merkleRoot(commitments), signedRoot)) {
    const proofs = allInclusionProofs(commitments);
    leaves.forEach((leaf, position) => out.set(leaf.inputIndex, { proof: proofs[position]!, commitment: leaf.commitment }));
    return out;
  }
  // The root does not cover exactly these frames (F12): keep only carried proofs that place a
  // frame under the signed root of a tree of this size.
  const byKey = new Map<string, number[]>();
  for (const leaf of leaves) byKey.set(frameKey(leaf.identity), [...(byKey.get(frameKey(leaf.identity)) ?? []), leaf.inputIndex]);
  const commitmentAt = new Map(leaves.map((leaf) => [leaf.inputIndex, leaf.commitment]));
  const entries = Array.isArray(result.frame_attestations) ? result.frame_attestations : [];
  for (const entry of entries as unknown[]) {
    if (!isJsonObject(entry) || !isJsonObject(entry.frame) || entry.inclusion_proof === undefined) continue;
    const named = entry.frame as { provider_id?: unknown; frame_id?: unknown; content_digest?: unknown };
    if (typeof named.provider_id !== 'string' || typeof named.frame_id !== 'string') continue;
    const key = frameKey({
      provider_id: named.provider_id,
      frame_id: named.frame_id,
      content_digest: typeof named.content_digest === 'string' ? named.content_digest : null,
    });
    for (const index of byKey.get(key) ?? []) {
      const commitment = commitmentAt.get(index)!;
      if (!out.has(index) && verifyInclusionProof(commitment, entry.inclusion_proof, signedRoot, frames.length)) {
        out.set(index, { proof: structuredClone(entry.inclusion_proof) as InclusionProof, commitment });
      }
    }
  }
  return out;
}

function safeVerify(providerId: string, frames: readonly CommittedFrame[], result: ContextQueryResult, keys: readonly AttesterKey[]): ResultVerification | Error {
  try {
    return verifyFrameAttestations(providerId, { frames, frame_attestations: result.frame_attestations, result_attestation: result.result_attestation }, keys);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function commitmentOf(providerId: string, frame: CommittedFrame): string | undefined {
  try {
    return renderDigest(frameCommitment(providerId, frame));
  } catch {
    return undefined;
  }
}

/**
 * Verify one admitted answer's attestations and attach the evidence to each of `frames`
 * (`frame.evidence`, replacing any earlier one). Returns the F11/F12/F13 findings. Never drops,
 * reorders or edits a frame (F9). `trustStore`, when given, replaces the handshake's keys.
 */
export function attachEvidence(provider: ProviderDescriptor, result: ContextQueryResult, frames: ReceivedFrame[], trustStore?: TrustStore): Finding[] {
  return attachEvidenceDetailed(provider, result, frames, trustStore).findings;
}

export interface AnswerEvidence {
  /** F11/F12/F13 findings, in the protocol Finding shape. */
  findings: Finding[];
  /** The result_attestation's own verdict (root over exactly result.frames; `unattested` when absent). */
  result: { verdict: AttestationVerdict; reason: string };
}

/** attachEvidence, also reporting the result_attestation's verdict. */
export function attachEvidenceDetailed(provider: ProviderDescriptor, result: ContextQueryResult, frames: ReceivedFrame[], trustStore?: TrustStore): AnswerEvidence {
  const providerId = provider.name;
  const keys = keysFor(provider, trustStore);
  const resultFrames: readonly CommittedFrame[] = isJsonObject(result) && Array.isArray(result.frames) ? result.frames : [];
  const verification = safeVerify(providerId, resultFrames, result, keys);
  const proofs = verification instanceof Error ? new Map<number, RetainedProof>() : proofsFor(providerId, resultFrames, result);
  const rootAttestation = isJsonObject(result?.result_attestation) ? (result.result_attestation as ProvenanceAttestation) : undefined;

  for (const received of frames) {
    const embedded = EMBEDDED_MEMBERS.filter((m) => isJsonObject(received.frame) && (received.frame as unknown as Record<string, unknown>)[m] !== undefined);
    const note = embedded.length > 0 ? [`an attestation member inside the frame (${embedded.join(', ')}) is ignored (F6)`] : [];
    let evidence: FrameEvidence;
    if (verification instanceof Error) {
      evidence = { verdict: 'uncheckable', reason: [`attestations could not be verified: ${verification.message}`, ...note].join('; ') };
    } else {
      const key = frameKey(received.frameId);
      const atRank = verification.frames[received.rank];
      const outcome = atRank !== undefined && atRank.key === key ? atRank : verification.byKey.get(key);
      if (outcome === undefined) {
        evidence = { verdict: 'unattested', reason: ['the frame is not among result.frames; no attestation covers it', ...note].join('; ') };
      } else {
        evidence = { verdict: outcome.verdict, reason: [...outcome.reasons, ...note].join('; ') };
        const retained = proofs.get(outcome.index);
        const commitment = retained ? renderDigest(retained.commitment) : commitmentOf(providerId, resultFrames[outcome.index]!);
        if (commitment !== undefined) evidence.commitment = commitment;
        if (retained && rootAttestation) {
          evidence.inclusionProof = retained.proof;
          evidence.resultRoot = rootAttestation.signed_commitment;
          evidence.resultAttestation = structuredClone(rootAttestation);
        }
      }
    }
    received.evidence = evidence;
  }
  if (verification instanceof Error) {
    return { findings: [], result: { verdict: 'uncheckable', reason: `attestations could not be verified: ${verification.message}` } };
  }
  return {
    findings: verification.findings.map(attestationFinding),
    result: { verdict: verification.result.verdict, reason: verification.result.reason },
  };
}

export interface ReverifyOutcome {
  verdict: AttestationVerdict;
  reason: string;
}

/**
 * F13, after composition kept a subset: re-verify one kept frame from its own evidence alone — its
 * commitment recomputed from the frame in hand, the retained inclusion proof against the retained
 * signed root, and the root's signature — without any of the dropped siblings. A frame without a
 * retained proof is `unattested` (its per-frame signature, if any, is not retained).
 */
export function reverifyEvidence(providerId: string, received: ReceivedFrame, keys: readonly AttesterKey[]): ReverifyOutcome {
  const evidence = received.evidence;
  if (!evidence?.inclusionProof || evidence.resultRoot === undefined || evidence.resultAttestation === undefined) {
    return { verdict: 'unattested', reason: 'no retained inclusion proof and signed root (F13)' };
  }
  let commitment: Uint8Array;
  try {
    commitment = frameCommitment(providerId, received.frame);
  } catch (error) {
    return { verdict: 'uncheckable', reason: `frame commitment cannot be computed: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (evidence.resultAttestation.signed_commitment !== evidence.resultRoot) {
    return { verdict: 'commitment-mismatch', reason: 'the retained result_attestation does not sign the retained root' };
  }
  const proof = evidence.inclusionProof;
  if (!verifyInclusionProof(commitment, proof, evidence.resultRoot, proof.leaf_count)) {
    return { verdict: 'proof-mismatch', reason: 'the retained inclusion proof does not place this frame under the signed root (changed since it was kept?)' };
  }
  const root = parseDigest(evidence.resultRoot)!;
  const check = verifyAttestation({ providerId, frame: received.frame, attestation: evidence.resultAttestation, keys, commitment: root });
  return {
    verdict: check.verdict,
    reason: `inclusion proof recomputes the signed root (leaf ${proof.leaf_index} of ${proof.leaf_count}); root signature: ${check.verdict}: ${check.reason}`,
  };
}
