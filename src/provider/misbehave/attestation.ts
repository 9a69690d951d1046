/**
 * Attestation misbehaviours (§6.5; F6, F7, F8, F11, F12, F13, S2-wire-shape). Each mode starts from
 * the honestly signed result (src/provider/attest.ts) and breaks one thing, through the `attest`
 * hook (after signing) or the `ack` hook (published keys). The verdicts a verifier must reach are
 * listed per mode in test/attest/integration.test.ts.
 */
import { createPrivateKey, createPublicKey, sign as nodeSign, type KeyObject } from 'node:crypto';
import type { AttesterKey, FrameAttestation, InclusionProof } from '../../../generated/types/index.js';
import { allInclusionProofs, canonicalLeaves, frameCommitment, frameIdentityOf, merkleRoot, renderDigest, signCommitment, type Attestation } from '../../attest/index.js';
import { sha256Digest } from '../../protocol/digest.js';
import type { ProviderSigning } from '../attest.js';
import { RETIRED_FRAME_IDS } from '../catalogue.js';
import type { AckEnvelope, AttestContext, Hooks } from '../hooks.js';
import type { WireFrame, WireResult } from '../wire.js';
import { flipLastHex, type ModeHooks } from './shared.js';

type AttestHook = NonNullable<Hooks['attest']>;

function entriesOf(result: WireResult): FrameAttestation[] {
  return Array.isArray(result.frame_attestations) ? structuredClone(result.frame_attestations) : [];
}

/** Only rewrite results the honest provider actually signed (non-empty ones, for per-entry modes). */
function whenSigned(edit: (result: WireResult, ctx: AttestContext) => WireResult): AttestHook {
  return (signed, ctx) => (signed.result_attestation === undefined ? signed : edit(structuredClone(signed), ctx));
}

/** The entry naming result.frames[index] (entries are emitted in result order). */
function entryIndexFor(result: WireResult, index: number): number {
  const id = result.frames[index]?.id;
  return (result.frame_attestations ?? []).findIndex((e) => e.frame.frame_id === id);
}

// ── signature over a different frame (F7) ─────────────────────────────────────────────────────

/**
 * frame_attestations[0].attestation is the provider's genuine signature over ANOTHER frame's
 * commitment (the next frame of the answer; for a one-frame answer, the same frame under another
 * frame id): a signature lifted from one frame and stapled to another (§6.5.2).
 */
const liftedSignature = whenSigned((result, ctx) => {
  const at = entryIndexFor(result, 0);
  if (at < 0) return result;
  const donor: WireFrame = result.frames[1] ?? { ...result.frames[0]!, id: `${result.frames[0]!.id}_other` };
  result.frame_attestations![at]!.attestation = signCommitment(frameCommitment(ctx.signing.providerId, donor), ctx.signing.key, ctx.signing.issuedAt, ctx.signing.providerId);
  return result;
});

// ── frame altered after signing (F7, F12, F13) ────────────────────────────────────────────────

/** After signing, the first frame's provenance link is re-attributed (`by` changed). */
const alteredAfterSigning = whenSigned((result) => {
  const frame = result.frames[0];
  const link = frame?.provenance?.[0];
  if (!frame || !link) return result;
  link.by = `${String(link.by ?? 'unknown')} (edited after signing)`;
  return result;
});

// ── root over the untruncated candidate set (F12) ─────────────────────────────────────────────

/**
 * result_attestation and every inclusion proof are computed over all eligible candidates, then
 * the answer is truncated: the root covers frames the host never received. (Untruncated answers
 * are unaffected: there the candidate set IS the answer.)
 */
const rootOverCandidates = whenSigned((result, ctx) => {
  const { providerId, key, issuedAt } = ctx.signing;
  const leaves = canonicalLeaves(providerId, ctx.candidates);
  const commitments = leaves.map((leaf) => leaf.commitment);
  const proofs = allInclusionProofs(commitments);
  const byKey = new Map(leaves.map((leaf, position) => [JSON.stringify(leaf.identity), proofs[position]!]));
  result.result_attestation = signCommitment(merkleRoot(commitments), key, issuedAt, providerId);
  for (const entry of result.frame_attestations ?? []) {
    const proof = byKey.get(JSON.stringify(entry.frame));
    if (proof) entry.inclusion_proof = proof;
  }
  return result;
});

// ── proofs that do not recompute / replayed at another index (F13) ────────────────────────────

function editFirstProof(edit: (proof: InclusionProof) => void): AttestHook {
  return whenSigned((result) => {
    const at = entryIndexFor(result, 0);
    const proof = at < 0 ? undefined : result.frame_attestations![at]!.inclusion_proof;
    if (proof) edit(proof);
    return result;
  });
}

/** The first frame's proof has its first sibling hash altered (or, alone in the tree, a bogus step). */
const proofNotRecomputing = editFirstProof((proof) => {
  const step = proof.path[0];
  if (step) step.sibling = flipLastHex(step.sibling);
  else proof.path.push({ sibling: sha256Digest('no sibling'), sibling_is_left: false });
});

/**
 * The first frame's proof keeps its path and sides but claims another leaf_index (the next one,
 * wrapping): the index treated as decorative, so the same path "proves" another position.
 */
const proofReplayed = editFirstProof((proof) => {
  const count = proof.leaf_count;
  proof.leaf_index = count > 1 ? (proof.leaf_index + 1) % count : proof.leaf_index + 1;
});

// ── attestations inside the frames (F6, F11) ──────────────────────────────────────────────────

/**
 * Each frame carries its own per-frame attestation as a member `attestation`; nothing travels in
 * frame_attestations / result_attestation.
 */
const insideFrame = whenSigned((result) => {
  const byId = new Map((result.frame_attestations ?? []).map((e) => [e.frame.frame_id, e.attestation]));
  result.frames = result.frames.map((frame) => {
    const attestation = byId.get(frame.id);
    return attestation ? ({ ...frame, attestation } as WireFrame) : frame;
  });
  delete result.frame_attestations;
  delete result.result_attestation;
  return result;
});

// ── positional, identity-less entries (F11) ───────────────────────────────────────────────────

/**
 * A per-frame signer (no root, no proofs) whose entries imply their frame by array position: each
 * entry carries only `attestation`, in result.frames order, with no `frame` identity.
 */
const positional = whenSigned((result) => {
  const byId = new Map((result.frame_attestations ?? []).map((e) => [e.frame.frame_id, e.attestation]));
  result.frame_attestations = result.frames.map((frame) => ({ attestation: byId.get(frame.id) }) as unknown as FrameAttestation);
  delete result.result_attestation;
  return result;
});

// ── an entry naming a frame the result does not carry (F11) ───────────────────────────────────

/**
 * One extra entry, genuinely signed, for a frame the answer does not carry: the best candidate
 * the budget truncated away, or (untruncated answer) a frame the provider retired.
 */
const foreignEntry = whenSigned((result, ctx) => {
  const carried = new Set(result.frames.map((f) => JSON.stringify(frameIdentityOf(ctx.signing.providerId, f))));
  const dropped = ctx.candidates.find((f) => !carried.has(JSON.stringify(frameIdentityOf(ctx.signing.providerId, f))));
  const frame: WireFrame =
    dropped ??
    ({
      id: RETIRED_FRAME_IDS[0]!,
      kind: 'doc',
      title: 'retired',
      score: 0,
      token_cost: 0,
      content_digest: sha256Digest('retired'),
      provenance: [],
    } as WireFrame);
  const entries = entriesOf(result);
  entries.push({
    frame: frameIdentityOf(ctx.signing.providerId, frame),
    attestation: signCommitment(frameCommitment(ctx.signing.providerId, frame), ctx.signing.key, ctx.signing.issuedAt, ctx.signing.providerId),
  });
  result.frame_attestations = entries;
  return result;
});

// ── unknown algorithm (F8, host-side) ─────────────────────────────────────────────────────────

/**
 * TEST-ONLY Ed448 key: a fixed, published 57-byte seed (0x07 repeated). Ed448 is a real algorithm
 * this protocol does not recognise (docs/interpretations.md §6), so the provider's attestations are genuine but
 * uncheckable. PKCS#8 DER = fixed prefix ‖ seed.
 */
const ED448_TEST_SEED = Buffer.alloc(57, 7);
const ED448_PKCS8_PREFIX = Buffer.from('3047020100300506032b6571043b0439', 'hex');
export const ED448_TEST_KEY_ID = 'example-docs-test-ed448-1';

let ed448: { secret: KeyObject; publicHex: string } | undefined;
function ed448Key(): { secret: KeyObject; publicHex: string } {
  if (!ed448) {
    const secret = createPrivateKey({ key: Buffer.concat([ED448_PKCS8_PREFIX, ED448_TEST_SEED]), format: 'der', type: 'pkcs8' });
    const jwk = createPublicKey(secret).export({ format: 'jwk' });
    ed448 = { secret, publicHex: Buffer.from(String(jwk.x), 'base64url').toString('hex') };
  }
  return ed448;
}

/** An Ed448 attestation over the 32 raw commitment bytes (`signed_commitment` rendered as usual). */
function signEd448(commitment: Uint8Array, signing: ProviderSigning): Attestation {
  return {
    signed_commitment: renderDigest(commitment),
    key_id: ED448_TEST_KEY_ID,
    algorithm: 'ed448',
    attester_id: signing.providerId,
    signature: nodeSign(null, commitment, ed448Key().secret).toString('hex'),
    issued_at: signing.issuedAt,
  };
}

const ed448Attest = whenSigned((result, ctx) => {
  const { providerId } = ctx.signing;
  const leaves = canonicalLeaves(providerId, result.frames);
  result.result_attestation = signEd448(merkleRoot(leaves.map((leaf) => leaf.commitment)), ctx.signing);
  for (const entry of result.frame_attestations ?? []) {
    const frame = result.frames.find((f) => f.id === entry.frame.frame_id)!;
    entry.attestation = signEd448(frameCommitment(providerId, frame), ctx.signing);
  }
  return result;
});

function ed448Ack(ack: AckEnvelope): AckEnvelope {
  const key: AttesterKey = { key_id: ED448_TEST_KEY_ID, algorithm: 'ed448', public_key: ed448Key().publicHex };
  return { ...ack, attester_keys: [key] };
}

// ── bad key length (S2-wire-shape; uncheckable) ───────────────────────────────────────────────

/** The published ed25519 public key has an extra byte: 33 bytes, 66 hex characters. */
function longKeyAck(ack: AckEnvelope): AckEnvelope {
  return { ...ack, attester_keys: (ack.attester_keys ?? []).map((k) => ({ ...k, public_key: `${k.public_key}00` })) };
}

export const ATTESTATION_MODES = {
  'lifted-frame-signature': { attest: liftedSignature },
  'altered-after-signing': { attest: alteredAfterSigning },
  'root-over-candidates': { attest: rootOverCandidates },
  'proof-not-recomputing': { attest: proofNotRecomputing },
  'proof-replayed-at-other-index': { attest: proofReplayed },
  'attestation-inside-frame': { attest: insideFrame },
  'positional-attestations': { attest: positional },
  'attest-foreign-frame': { attest: foreignEntry },
  'unknown-attestation-algorithm': { ack: ed448Ack, attest: ed448Attest },
  'bad-attester-key-length': { ack: longKeyAck },
} satisfies ModeHooks;
