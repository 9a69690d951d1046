/** The envelope vocabulary of contextgraph/1.0 (§2): one JSON object tagged by `type`. */
export const ENVELOPE_TYPES = [
  'handshake',
  'handshake_ack',
  'query',
  'frames',
  'verify',
  'verified',
  'shutdown',
  'error',
] as const;

export type EnvelopeType = (typeof ENVELOPE_TYPES)[number];

export function isKnownEnvelopeType(value: unknown): value is EnvelopeType {
  return typeof value === 'string' && (ENVELOPE_TYPES as readonly string[]).includes(value);
}
