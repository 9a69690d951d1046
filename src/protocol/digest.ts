/**
 * Digests (§6.2 F5, §6.3 D1): `sha256:` followed by 64 LOWERCASE hex digits.
 * Lowercase is mandated: digests compare byte-for-byte, and a case disagreement is
 * indistinguishable from tampering.
 */
import * as crypto from 'node:crypto';

export const DIGEST_PREFIX = 'sha256:';

// D1/F5 grammar: sha256:<64 lowercase hex> — i.e. /^sha256:[0-9a-f]{64}$/, checked by hand (validate runs it
// on every digest of every frame; a char loop is several times cheaper than the regex).
export function isWellFormedDigest(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 71 || !value.startsWith(DIGEST_PREFIX)) return false;
  for (let i = 7; i < 71; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) return false;
  }
  return true;
}

type OneShotHash = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
// crypto.hash (Node >= 20.12): one call, no Hash object — validate hashes every inline frame content.
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/** `sha256:<hex>` of the bytes; a string is hashed as its UTF-8 encoding. */
export function sha256Digest(data: string | Uint8Array): string {
  if (oneShot) return DIGEST_PREFIX + oneShot('sha256', data, 'hex');
  const hash = crypto.createHash('sha256');
  if (typeof data === 'string') hash.update(data, 'utf8');
  else hash.update(data);
  return DIGEST_PREFIX + hash.digest('hex');
}
