/**
 * U1-tolerant envelope decoder (§2, §13).
 *
 * - Parses JSON text (or takes an already-parsed value) and requires an object with a string
 *   `type` (S2-wire-shape).
 * - An unknown `type` is returned ok with `unknownType: true` (S2.1-unknown-type): the receiver
 *   decides between replying bad_request (a payload-bearing request) and ignoring it (a
 *   notification). It is never a decode failure.
 * - A known type is checked against the INTEROP schema profile: unknown members are ignored
 *   (U1), unknown kinds / rels / codes / scopes are accepted (U2).
 * - The returned envelope is the parsed value itself — nothing is stripped or normalised — so
 *   re-serialising it preserves unknown members and vocabulary strings verbatim (U2).
 * It never throws.
 */
import type { Envelope } from '../../generated/types/index.js';
import { validateEnvelope, type SchemaIssue } from '../schema/validate.js';
import { isKnownEnvelopeType } from './envelope-types.js';
import { isJsonObject, jsonTypeOf } from './json-value.js';

export type DecodeErrorCode = 'invalid-json' | 'not-an-object' | 'missing-type' | 'invalid-shape';

/** An envelope whose `type` this implementation does not know (kept as received). */
export interface UnknownEnvelope {
  type: string;
  [member: string]: unknown;
}

export class DecodeError extends Error {
  /** The rule a failed decode witnesses. */
  readonly rule = 'S2-wire-shape';
  constructor(
    readonly code: DecodeErrorCode,
    message: string,
    /** Interop-schema issues, for `invalid-shape`. */
    readonly issues: readonly SchemaIssue[] = [],
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

export type DecodeResult = { ok: true; envelope: Envelope; unknownType?: false } | { ok: true; envelope: UnknownEnvelope; unknownType: true } | { ok: false; error: DecodeError };

function fail(code: DecodeErrorCode, detail: string, issues: readonly SchemaIssue[] = []): DecodeResult {
  return { ok: false, error: new DecodeError(code, `S2-wire-shape violated: ${detail}`, issues) };
}

/**
 * @param input JSON text (one envelope; a string is always parsed as JSON text) or an
 *              already-parsed JSON value.
 */
export function decodeEnvelope(input: string | unknown): DecodeResult {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return fail('invalid-json', `not a JSON text (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  if (!isJsonObject(value)) {
    return fail('not-an-object', `an envelope is a single JSON object, saw ${jsonTypeOf(value)}`);
  }
  if (typeof value.type !== 'string') {
    return fail('missing-type', `an envelope is tagged by a string "type" member, saw ${jsonTypeOf(value.type)}`);
  }
  if (!isKnownEnvelopeType(value.type)) {
    // S2.1-unknown-type: never rejected for its type alone.
    return { ok: true, envelope: value as UnknownEnvelope, unknownType: true };
  }
  let issues: SchemaIssue[];
  try {
    issues = validateEnvelope(value, 'interop');
  } catch (e) {
    return fail('invalid-shape', `${value.type} envelope could not be validated (${e instanceof Error ? e.message : String(e)})`);
  }
  if (issues.length > 0) {
    const first = issues[0]!;
    const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
    return fail('invalid-shape', `${value.type} envelope fails the interop schema at ${first.pointer || '/'}: ${first.message}${more}`, issues);
  }
  return { ok: true, envelope: value as unknown as Envelope };
}
