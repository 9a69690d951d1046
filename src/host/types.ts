// Shared shapes of the reference host (src/host). Contracts between its parts:
// connect/fan-out (who asked whom), budget audit + composition (what reaches the prompt),
// verify/reuse, attestation, usage and attribution. All frame identity is the FrameId triple
// (provider.name, frame.id, content_digest) — docs/interpretations.md §2, A1.
import type { ContextFrame, ContextQuery, ContextQueryResult, FrameId, HandshakeAckEnvelope, InclusionProof, ProvenanceAttestation } from '../../generated/types/index.js';
import type { FrameVerdict } from '../attest/verify.js';

export type TransportKind = 'stdio' | 'http';

/** A provider as the host knows it after a successful handshake. */
export interface ProviderDescriptor {
  /** Host-local routing id (bookkeeping only — never on the wire, never in a FrameId). */
  routingId: string;
  /** handshake provider.name: the provider_id of every FrameId it serves (docs/interpretations.md §2, §6.5.2). */
  name: string;
  version: string;
  ack: HandshakeAckEnvelope;
  transport: TransportKind;
  /** Effective egress: the declaration, or forced true for a non-loopback HTTP provider (C4). */
  egress: boolean;
  /** Declared off-machine egress scopes (everything but local-only; unknown custom included). */
  offMachineScopes: string[];
}

/** Distinct attestation verdicts (§6.5.4, F8, F9) — never a boolean; defined by src/attest. */
export type AttestationVerdict = FrameVerdict;

export interface FrameEvidence {
  verdict: AttestationVerdict;
  reason?: string;
  /** Inclusion proof against the signed result root, derived or carried (F13). */
  inclusionProof?: InclusionProof;
  /** The signed result root the proof recomputes to, when there is one. */
  resultRoot?: string;
  /** The result_attestation that signs resultRoot, kept so a retained subset re-verifies offline (F13). */
  resultAttestation?: ProvenanceAttestation;
  /** The frame's §6.5.2 commitment (`sha256:…`) as computed when the evidence was attached. */
  commitment?: string;
}

/** One frame as received, verbatim (U2: unknown kinds/members preserved), with its identity beside it. */
export interface ReceivedFrame {
  frameId: FrameId;
  frame: ContextFrame;
  providerRoutingId: string;
  /** 0-based position within its provider's answer (the only meaningful score order, F10). */
  rank: number;
  evidence?: FrameEvidence;
}

/** One provider's answer to one query, after the budget audit admitted it. */
export interface ProviderAnswer {
  provider: ProviderDescriptor;
  query: ContextQuery;
  frames: ReceivedFrame[];
  truncated: boolean;
  droppedEstimate?: number;
  /** The raw result (attestation members included) as received. */
  result: ContextQueryResult;
}
