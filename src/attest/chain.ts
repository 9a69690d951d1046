/**
 * §6.5.1 provenance hash chain (anchor F7). Links fold source-first, in carried order:
 *
 *   h₋₁ = SHA256("contextgraph/attest/1/genesis")
 *   hᵢ  = SHA256("contextgraph/attest/1/link" ‖ hᵢ₋₁ ‖ encode(linkᵢ))
 *   chain_head = hₙ₋₁, or h₋₁ when provenance is empty
 *
 * hᵢ₋₁ enters the preimage as its raw 32 bytes (docs/interpretations.md §6).
 */
import { ascii, sha256 } from './bytes.js';
import { encodeLink, type ProvenanceLinkInput } from './encoding.js';

export const DOMAIN_GENESIS = 'contextgraph/attest/1/genesis';
export const DOMAIN_LINK = 'contextgraph/attest/1/link';

/** h₋₁: the head of an empty chain ("this frame claims no provenance" is itself signed). */
export function genesisHead(): Uint8Array {
  return sha256(ascii(DOMAIN_GENESIS));
}

/** hᵢ from hᵢ₋₁ and linkᵢ. */
export function chainStep(previous: Uint8Array, link: ProvenanceLinkInput): Uint8Array {
  if (previous.length !== 32) throw new RangeError('a chain head is 32 bytes');
  return sha256(ascii(DOMAIN_LINK), previous, encodeLink(link));
}

/** Every head h₋₁, h₀, …, hₙ₋₁ (n + 1 values; the last is the chain head). */
export function chainHeads(provenance: readonly ProvenanceLinkInput[] | null | undefined): Uint8Array[] {
  const heads = [genesisHead()];
  for (const link of provenance ?? []) heads.push(chainStep(heads[heads.length - 1]!, link));
  return heads;
}

/** chain_head over `provenance` (absent or null provenance is the empty chain). */
export function chainHead(provenance: readonly ProvenanceLinkInput[] | null | undefined): Uint8Array {
  const heads = chainHeads(provenance);
  return heads[heads.length - 1]!;
}
