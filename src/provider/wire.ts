/**
 * The shapes the provider reads and writes. Outgoing payloads use the generated wire types
 * (generated/types, interop profile); incoming envelopes are untrusted JSON objects read member by
 * member (U1: unknown members are ignored, never rejected).
 */
import { isJsonObject, type JsonObject } from '../protocol/json-value.js';

export { isJsonObject, type JsonObject };

export type { ContextFrame as WireFrame, ContextQueryResult as WireResult, FrameId as WireFrameId, FrameVerdict as WireVerdict, Representation } from '../../generated/types/index.js';

/** Any envelope the provider writes. */
export type OutEnvelope = JsonObject & { type: string };

/** The query as the engine uses it, after validation (absent lists are empty). */
export interface ParsedQuery {
  goal: string;
  query_text?: string;
  embedding?: number[];
  kinds: string[];
  anchors: string[];
  max_frames: number;
  max_tokens: number;
  as_of?: string;
  representation_preferences: string[];
}

/** The correlation id of a request: echoed verbatim (H4) when it is a string or a number. */
export function correlationIdOf(envelope: unknown): string | number | undefined {
  if (!isJsonObject(envelope)) return undefined;
  const id = envelope.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

export function errorEnvelope(code: string, message: string, id?: string | number): OutEnvelope {
  return id === undefined ? { type: 'error', code, message } : { type: 'error', id, code, message };
}
