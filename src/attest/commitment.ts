/**
 * §6.5.2 frame commitment (anchors F6, F7):
 *
 *   frame_commitment = SHA256("contextgraph/attest/1/frame"
 *                             ‖ enc_str(provider_id) ‖ enc_str(frame.id)
 *                             ‖ enc_opt(frame.content_digest) ‖ chain_head)
 *
 * provider_id is the provider's handshake-declared provider.name (§3), never a host-local id.
 * Only id, content_digest and provenance enter the preimage: an attestation carried anywhere —
 * even, wrongly, inside the frame — is never hashed (F6).
 *
 * F7 rendering: `sha256:<64 lowercase hex>`.
 */
import { ascii, fromLowerHex, sha256, toHex } from './bytes.js';
import { chainHead } from './chain.js';
import { encOpt, encStr } from './encoding.js';
import type { CommittedFrame, FrameIdentity } from './types.js';

export const DOMAIN_FRAME = 'contextgraph/attest/1/frame';
export const DIGEST_PREFIX = 'sha256:';

/** content_digest as enc_opt sees it: a string is Some, anything else (absent, null) is None. */
export function contentDigestOf(frame: { content_digest?: string | null }): string | undefined {
  return typeof frame.content_digest === 'string' ? frame.content_digest : undefined;
}

/** The 32-byte §6.5.2 commitment of `frame` served by provider `providerId`. */
export function frameCommitment(providerId: string, frame: CommittedFrame): Uint8Array {
  return sha256(ascii(DOMAIN_FRAME), encStr(providerId), encStr(frame.id), encOpt(contentDigestOf(frame)), chainHead(frame.provenance));
}

/** The §6.3 identity of `frame` from provider `providerId` (content_digest omitted when absent). */
export function frameIdentityOf(providerId: string, frame: CommittedFrame): FrameIdentity {
  const id: FrameIdentity = { provider_id: providerId, frame_id: frame.id };
  const digest = contentDigestOf(frame);
  if (digest !== undefined) id.content_digest = digest;
  return id;
}

/** F7: `sha256:<64 lowercase hex>` of a 32-byte hash. */
export function renderDigest(bytes: Uint8Array): string {
  if (bytes.length !== 32) throw new RangeError(`a sha256 value is 32 bytes, got ${bytes.length}`);
  return DIGEST_PREFIX + toHex(bytes);
}

/** The 32 bytes of a well-formed `sha256:<64 lowercase hex>`, or undefined for anything else. */
export function parseDigest(value: unknown): Uint8Array | undefined {
  if (typeof value !== 'string' || !value.startsWith(DIGEST_PREFIX)) return undefined;
  return fromLowerHex(value.slice(DIGEST_PREFIX.length), 32);
}
