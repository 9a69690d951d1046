/**
 * Embedding fingerprints (§5.1, E1): `<model-id>/<dimensions>[/<normalization>]`,
 * e.g. `bge-small-en-v1.5/384/l2`. Equality is exact: dimension and normalization both
 * change what a vector means.
 *
 * Grammar as read here (the schema's pattern): model-id and normalization are non-empty and
 * contain no `/`; dimensions is 1*DIGIT (ASCII).
 */

const FINGERPRINT_RE = /^([^/]+)\/([0-9]+)(?:\/([^/]+))?$/;

export function isFingerprint(value: unknown): value is string {
  return typeof value === 'string' && FINGERPRINT_RE.test(value);
}

/** The declared dimension (2nd segment), or undefined when the fingerprint is malformed. */
export function fingerprintDimensions(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = FINGERPRINT_RE.exec(value);
  if (!m) return undefined;
  const dims = Number(m[2]);
  return Number.isSafeInteger(dims) ? dims : undefined;
}

// E1: a host may populate query.embedding only when its fingerprint is exactly equal,
// non-empty, to the provider's declared embeddings_fingerprint.
export function fingerprintsMatch(hostFingerprint: unknown, providerFingerprint: unknown): boolean {
  return typeof hostFingerprint === 'string' && hostFingerprint.length > 0 && hostFingerprint === providerFingerprint;
}
