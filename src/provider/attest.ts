/**
 * Provenance attestation of the reference provider "example-docs" (§6.5; anchors F6, F7, F11,
 * F12, F13).
 *
 * ┌──────────────────────────────────────────────────────────────────────────────────────────┐
 * │ TEST-ONLY KEY. The provider signs with the RFC 8032 §7.1 "TEST 1" Ed25519 key pair, whose │
 * │ SECRET KEY IS PUBLISHED IN THE RFC. Its signatures prove only that the construction is   │
 * │ right (§6.5.2: "a published key settles whether an attestation is built the way this     │
 * │ section requires"); they prove NOTHING about who signed. Never trust key                 │
 * │ `example-docs-test-ed25519-1` outside tests and examples.                                │
 * └──────────────────────────────────────────────────────────────────────────────────────────┘
 *
 * What the honest provider publishes and signs:
 * - `handshake_ack.attester_keys`: one ed25519 key, `example-docs-test-ed25519-1`.
 * - Every `frames` result, AFTER budget truncation and after any rewriting of the frames, gets
 *   - `result_attestation`: a signature over the §6.5.3 Merkle root of exactly the frames it
 *     returns, in canonical order (F12);
 *   - `frame_attestations`: one entry per returned frame, naming the frame's full
 *     (provider id, frame id, content_digest) identity (F11), carrying its RFC 6962 inclusion
 *     proof against that root (F13) AND a per-frame signature over its §6.5.2 commitment.
 *   Decision: per-frame signatures are sent as well as the root + proofs. One root signature
 *   would say everything (§6.5.5 calls root + proofs the cheapest honest shape), but answers are
 *   small (≤ max_frames, a handful of frames) and carrying both lets a host check a frame on its
 *   own evidence, and lets the misbehaviour modes exercise both verification paths.
 * - Nothing is ever written inside a frame (F6), and no attestation is part of any preimage.
 * - `issued_at` is deterministic: the latest `recorded_at` of the corpus (when the provider's
 *   knowledge was last updated), so stdio and HTTP answers — and repeated runs — stay
 *   byte-identical (Ed25519 signatures are deterministic too).
 *
 * A result whose frames cannot be committed to (a frame without a string id, possible only under
 * a misbehaviour mode) is sent unsigned: an unsigned answer is conformant, a signature over
 * something else is not.
 */
import type { AttesterKey } from '../../generated/types/index.js';
import { TEST_ONLY_RFC8032_TEST1, frameCommitment, signCommitment, withResultAttestations, type Attestation, type SigningKey } from '../attest/index.js';
import { compareProtocolTimestamps } from '../protocol/timestamp.js';
import { PROVIDER_NAME } from './catalogue.js';
import type { Corpus } from './corpus.js';
import type { WireFrame, WireResult } from './wire.js';

/** key_id of the provider's (TEST-ONLY) Ed25519 attester key. */
export const ATTESTER_KEY_ID = 'example-docs-test-ed25519-1';

/** Fallback issued_at for an empty corpus (never the case for the bundled fixtures). */
const FALLBACK_ISSUED_AT = '2026-01-01T00:00:00Z';

/** How the provider signs: key, attester, timestamp. One per provider instance. */
export interface ProviderSigning {
  /** FrameId.provider_id and commitment provider id: the handshake provider.name (docs/interpretations.md §2). */
  providerId: string;
  key: SigningKey;
  /** The public half, as published in handshake_ack.attester_keys. */
  publicKey: AttesterKey;
  issuedAt: string;
}

/** The latest recorded_at of the corpus: a deterministic, corpus-derived issued_at. */
export function corpusIssuedAt(corpus: Corpus): string {
  let latest: string | undefined;
  for (const frame of corpus.frames) {
    const at = frame.spec.recorded_at;
    if (latest === undefined || (compareProtocolTimestamps(at, latest) ?? 0) > 0) latest = at;
  }
  return latest ?? FALLBACK_ISSUED_AT;
}

/** The honest provider's signing setup (TEST-ONLY RFC 8032 test-1 key; see the module banner). */
export function providerSigning(corpus: Corpus): ProviderSigning {
  return {
    providerId: PROVIDER_NAME,
    key: { key_id: ATTESTER_KEY_ID, secret_key: TEST_ONLY_RFC8032_TEST1.secret_key, attester_id: PROVIDER_NAME },
    publicKey: { key_id: ATTESTER_KEY_ID, algorithm: 'ed25519', public_key: TEST_ONLY_RFC8032_TEST1.public_key },
    issuedAt: corpusIssuedAt(corpus),
  };
}

/** handshake_ack.attester_keys of the honest provider. */
export function attesterKeys(signing: ProviderSigning): AttesterKey[] {
  return [{ ...signing.publicKey }];
}

function committable(frames: readonly WireFrame[]): boolean {
  return frames.every((f) => f !== null && typeof f === 'object' && typeof f.id === 'string');
}

type SignedMembers = Pick<WireResult, 'frame_attestations' | 'result_attestation'>;

/**
 * Signing is a pure function of (provider id, key, issued_at, frames) — Ed25519 is deterministic —
 * so repeated answers reuse their attestation members. Bounded; oldest entries go first.
 */
const SIGNED_CACHE_LIMIT = 512;
const signedCache = new Map<string, SignedMembers>();

/**
 * The honest signature of a result: root over exactly `result.frames` (F12), per-frame entries
 * with full identities (F11), proofs (F13) and per-frame signatures. Frames are not touched (F6).
 */
export function signResult(result: WireResult, signing: ProviderSigning): WireResult {
  if (!Array.isArray(result.frames) || !committable(result.frames)) return result;
  const cacheKey = JSON.stringify([signing.providerId, signing.key.key_id, signing.key.secret_key, signing.issuedAt, result.frames]);
  let members = signedCache.get(cacheKey);
  if (members === undefined) {
    const signed = withResultAttestations(signing.providerId, { frames: result.frames }, signing.key, signing.issuedAt, { perFrame: true, proofs: true });
    members = signed.frame_attestations === undefined ? {} : { frame_attestations: signed.frame_attestations };
    members.result_attestation = signed.result_attestation;
    if (signedCache.size >= SIGNED_CACHE_LIMIT) signedCache.delete(signedCache.keys().next().value!);
    signedCache.set(cacheKey, members);
  }
  const { frame_attestations: _stale, result_attestation: _replaced, ...rest } = result;
  void _stale;
  void _replaced;
  return { ...rest, ...structuredClone(members) };
}

/** A per-frame attestation of `frame` (its §6.5.2 commitment), for modes that re-sign. */
export function signFrame(frame: WireFrame, signing: ProviderSigning, providerId = signing.providerId): Attestation {
  return signCommitment(frameCommitment(providerId, frame), signing.key, signing.issuedAt, signing.providerId);
}
