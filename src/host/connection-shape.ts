// What a host may put in the query it sends to one provider, given that provider's handshake. Pure.
//   E1  query.embedding only when the host's fingerprint exactly equals the provider's declared
//       capabilities.embeddings_fingerprint; otherwise the embedding is stripped for that provider.
//   P5  query.representation_preferences only lists representations the provider advertised in
//       capabilities.representations. Policy 'filter' (default) drops the unadvertised entries (and the
//       whole member when none is left: an absent list means `full`, the default every provider serves);
//       'refuse' fails the leg with UnsupportedRepresentation before anything is sent.
//       A provider that advertises no `representations` list is treated as advertising none, so the member
//       is omitted rather than populated with an implicit `full`.
//   Q1  when the host asks for several kinds, only the kinds the provider declared are sent; a provider
//       declaring none of them is skipped with a reason (no exchange at all).
// The caller's query object is never mutated; unknown members are carried over verbatim (U1).
import type { ContextQuery, HandshakeAckEnvelope } from '../../generated/types/index.js';
import { fingerprintsMatch } from '../protocol/fingerprint.js';
import { UnsupportedRepresentation } from './errors.js';

export type RepresentationPolicy = 'filter' | 'refuse' | 'passthrough';

export interface ShapePolicies {
  /** The host's own embedding fingerprint (E1). Without one, no embedding is ever sent. */
  embeddingFingerprint?: string;
  /** P5 handling; 'passthrough' is for a deliberately misbehaving host only. Default 'filter'. */
  representationPolicy?: RepresentationPolicy;
  /** Misbehaving host only: send the embedding whatever the fingerprints (breaks E1). */
  sendEmbeddingAlways?: boolean;
  /** Send the kinds as asked instead of narrowing them to the provider's declared kinds (Q1). */
  skipKindNarrowing?: boolean;
}

/** A decision the host took about one provider's copy of the query (reported, never silent). */
export interface ShapeNote {
  rule: 'E1' | 'P5' | 'Q1';
  message: string;
}

export type Shaped = { send: true; query: ContextQuery; notes: ShapeNote[] } | { send: false; rule: 'Q1'; reason: string };

export function shapeQuery(ack: HandshakeAckEnvelope, query: ContextQuery, policies: ShapePolicies = {}, routingId = ack.provider.name): Shaped {
  const out = structuredClone(query) as ContextQuery & Record<string, unknown>;
  const notes: ShapeNote[] = [];
  const caps = ack.capabilities;

  // Q1 narrowing.
  if (Array.isArray(out.kinds) && out.kinds.length > 0 && !policies.skipKindNarrowing) {
    const declared = Array.isArray(caps.query?.kinds) ? caps.query.kinds : [];
    const overlap = out.kinds.filter((k) => declared.includes(k));
    if (overlap.length === 0) {
      return {
        send: false,
        rule: 'Q1',
        reason: `Q1: provider "${routingId}" declares kinds [${declared.join(', ')}], none of the requested [${out.kinds.join(', ')}]; not queried`,
      };
    }
    if (overlap.length < out.kinds.length) {
      notes.push({ rule: 'Q1', message: `Q1: kinds narrowed to [${overlap.join(', ')}] for provider "${routingId}" (declares [${declared.join(', ')}])` });
      out.kinds = overlap;
    }
  }

  // E1: exact fingerprint equality, or no embedding at all.
  if (out.embedding !== undefined && out.embedding !== null && !policies.sendEmbeddingAlways) {
    if (!fingerprintsMatch(policies.embeddingFingerprint, caps.embeddings_fingerprint)) {
      notes.push({
        rule: 'E1',
        message: `E1: embedding stripped for provider "${routingId}": host fingerprint ${JSON.stringify(policies.embeddingFingerprint ?? null)} ≠ declared ${JSON.stringify(caps.embeddings_fingerprint ?? null)}`,
      });
      delete out.embedding;
    }
  }

  // P5: never request an unadvertised representation.
  const prefs = out.representation_preferences;
  const policy = policies.representationPolicy ?? 'filter';
  if (Array.isArray(prefs) && prefs.length > 0 && policy !== 'passthrough') {
    const advertised: string[] = Array.isArray(caps.representations) ? caps.representations : [];
    const unadvertised = prefs.filter((p) => !advertised.includes(p));
    if (unadvertised.length > 0) {
      if (policy === 'refuse') throw new UnsupportedRepresentation([...prefs], advertised, { routingId });
      const kept = prefs.filter((p) => advertised.includes(p));
      if (kept.length > 0) out.representation_preferences = kept;
      else delete out.representation_preferences;
      notes.push({
        rule: 'P5',
        message: `P5: representation preference(s) [${unadvertised.join(', ')}] not advertised by provider "${routingId}" (advertises [${advertised.join(', ')}]); ${kept.length > 0 ? `sent [${kept.join(', ')}]` : 'member omitted (full)'}`,
      });
    }
  }
  return { send: true, query: out, notes };
}
