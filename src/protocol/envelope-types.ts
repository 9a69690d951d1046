/** The envelope vocabulary of contextgraph/1.0 (§2): one JSON object tagged by `type`. */
import { ENVELOPE_TYPES, type EnvelopeType } from '../../generated/types/index.js';

export { ENVELOPE_TYPES, type EnvelopeType };

export function isKnownEnvelopeType(value: unknown): value is EnvelopeType {
  return typeof value === 'string' && (ENVELOPE_TYPES as readonly string[]).includes(value);
}
