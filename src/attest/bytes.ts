/**
 * Byte helpers for the attestation module (§6.5). docs/interpretations.md §6: hash outputs are raw
 * 32-byte values inside every preimage; keys, signatures and digests travel as LOWERCASE hex.
 * Parsing is strict — uppercase or odd-length hex is rejected, never normalised, because a
 * case disagreement is indistinguishable from tampering (§6.3 digest grammar).
 */
import { createHash } from 'node:crypto';

const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

/** Concatenate byte strings (the ‖ of §6.5). */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** SHA-256 over the concatenation of `parts`. */
export function sha256(...parts: readonly Uint8Array[]): Uint8Array {
  // node's crypto (several hashes per frame verified or signed; noble's JS SHA-256 was a visible share)
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  const digest = hash.digest();
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.byteLength); // a plain Uint8Array, not a Buffer
}

/** ASCII bytes of a domain-separation string, no length prefix and no terminator (docs/interpretations.md §6). */
export function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) throw new RangeError(`domain string ${JSON.stringify(text)} is not ASCII`);
    out[i] = code;
  }
  return out;
}

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/**
 * Bytes of a lowercase hex string, or undefined when `value` is not a string of lowercase hex
 * digit pairs (optionally required to decode to exactly `length` bytes).
 */
export function fromLowerHex(value: unknown, length?: number): Uint8Array | undefined {
  if (typeof value !== 'string' || !LOWER_HEX.test(value)) return undefined;
  if (length !== undefined && value.length !== length * 2) return undefined;
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(value.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Byte-wise equality (not constant-time: every input compared here is public). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
