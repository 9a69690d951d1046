/**
 * Digests (§6.2 F5, §6.3 D1): `sha256:` followed by 64 LOWERCASE hex digits.
 * Lowercase is mandated: digests compare byte-for-byte, and a case disagreement is
 * indistinguishable from tampering.
 */
import { createHash } from 'node:crypto';

const DIGEST_RE = /^sha256:[0-9a-f]{64}$/;

export const DIGEST_PREFIX = 'sha256:';

// D1/F5 grammar: sha256:<64 lowercase hex>
export function isWellFormedDigest(value: unknown): value is string {
  return typeof value === 'string' && DIGEST_RE.test(value);
}

/** `sha256:<hex>` of the bytes; a string is hashed as its UTF-8 encoding. */
export function sha256Digest(data: string | Uint8Array): string {
  const hash = createHash('sha256');
  if (typeof data === 'string') hash.update(data, 'utf8');
  else hash.update(data);
  return DIGEST_PREFIX + hash.digest('hex');
}
