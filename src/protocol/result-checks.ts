/**
 * Checks on a ContextQueryResult (the `result` of a frames envelope) against the query it
 * answers: every frame (frame-checks.ts), B1 budget sum, B4 frame count, Q1 kinds filter,
 * S6.1-as-of (SHOULD), `truncated` present, S6.4.1-no-reference-over-transport (SHOULD NOT, when
 * the caller says the result came over a transport), and the attestation shape rules F6/F7/F11.
 */
import { checkAttestationShape } from './attestation-shape.js';
import { violation, warning, WIRE_SHAPE, type Finding } from './findings.js';
import { checkFrame, frameLabel } from './frame-checks.js';
import { pointerJoin } from '../util/json-pointer.js';
import { describeValue, isJsonObject, jsonTypeOf } from './json-value.js';
import { compareProtocolTimestamps, isProtocolTimestamp } from './timestamp.js';

/** The members of the answered query the result is held to (a ContextQuery fits). */
export interface ResultQuery {
  max_tokens?: unknown;
  max_frames?: unknown;
  kinds?: unknown;
  as_of?: unknown;
}

export interface ResultCheckOptions {
  /** The provider's handshake provider.name, for F11 identities. */
  providerName?: string;
  /** The result arrived over a transport binding (stdio, HTTP): S6.4.1-no-reference-over-transport applies. */
  overTransport?: boolean;
}

/**
 * @param result  the ContextQueryResult, as received
 * @param pointer JSON pointer of `result` in the checked message (e.g. `/result`)
 * @param query   the query it answers (a ContextQuery, or raw JSON); omit to skip B1/B4/Q1/S6.1
 */
export function checkResult(result: unknown, pointer: string, query?: unknown, options: ResultCheckOptions = {}): Finding[] {
  if (!isJsonObject(result)) {
    return [violation(WIRE_SHAPE, pointer, `a query result must be a JSON object, saw ${jsonTypeOf(result)}`)];
  }
  const out: Finding[] = [];
  if (typeof result.truncated !== 'boolean') {
    out.push(violation(WIRE_SHAPE, pointerJoin(pointer, 'truncated'), `result.truncated is ${describeValue(result.truncated)}; required a boolean`));
  }
  const framesAt = pointerJoin(pointer, 'frames');
  if (!Array.isArray(result.frames)) {
    out.push(violation(WIRE_SHAPE, framesAt, `result.frames is ${jsonTypeOf(result.frames)}; required an array`));
    return out;
  }
  const frames: unknown[] = result.frames;
  frames.forEach((frame, i) => out.push(...checkFrame(frame, pointerJoin(framesAt, i))));

  if (isJsonObject(query)) out.push(...checkAgainstQuery(frames, framesAt, query));

  // S6.4.1-no-reference-over-transport (SHOULD NOT): a host cannot rehydrate a reference frame
  // over the wire in 1.0; an in-process provider MAY use reference.
  if (options.overTransport === true) {
    frames.forEach((f, i) => {
      if (isJsonObject(f) && f.representation === 'reference') {
        out.push(
          warning(
            'S6.4.1-no-reference-over-transport',
            pointerJoin(framesAt, i, 'representation'),
            `${frameLabel(f, pointerJoin(framesAt, i))} is a reference frame sent over a transport binding; 1.0 has no resolve operation, so send compact or full`,
          ),
        );
      }
    });
  }
  out.push(...checkAttestationShape(result, frames, pointer, options));
  return out;
}

function checkAgainstQuery(frames: unknown[], framesAt: string, query: Record<string, unknown>): Finding[] {
  const out: Finding[] = [];

  // B1: the sum of token_cost across returned frames MUST NOT exceed max_tokens.
  if (typeof query.max_tokens === 'number') {
    const sum = frames.reduce<number>((acc, f) => acc + (isJsonObject(f) && typeof f.token_cost === 'number' ? f.token_cost : 0), 0);
    if (sum > query.max_tokens) {
      out.push(violation('B1', framesAt, `${frames.length} frames declare token_cost summing to ${sum}; the query's max_tokens is ${query.max_tokens}`));
    }
  }

  // B4: the number of returned frames MUST NOT exceed max_frames.
  if (typeof query.max_frames === 'number' && frames.length > query.max_frames) {
    out.push(violation('B4', framesAt, `${frames.length} frames returned; the query's max_frames is ${query.max_frames}`));
  }

  // Q1: when kinds is non-empty, no frame of a kind outside it. Empty kinds means any kind.
  if (Array.isArray(query.kinds) && query.kinds.length > 0) {
    const kinds: unknown[] = query.kinds;
    frames.forEach((f, i) => {
      if (isJsonObject(f) && !kinds.includes(f.kind)) {
        out.push(violation('Q1', pointerJoin(framesAt, i, 'kind'), `${frameLabel(f, pointerJoin(framesAt, i))} has kind ${describeValue(f.kind)}; the query asked only for ${JSON.stringify(kinds)}`));
      }
    });
  }

  // S6.1-as-of (SHOULD): as_of pins retrieval to an instant; a frame whose validity starts
  // after that instant was not yet true then.
  if (isProtocolTimestamp(query.as_of)) {
    const asOf = query.as_of;
    frames.forEach((f, i) => {
      if (!isJsonObject(f)) return;
      const order = compareProtocolTimestamps(f.valid_from, asOf);
      if (order !== undefined && order > 0) {
        out.push(warning('S6.1-as-of', pointerJoin(framesAt, i, 'valid_from'), `${frameLabel(f, pointerJoin(framesAt, i))} has valid_from ${String(f.valid_from)}, after the query's as_of ${asOf}`));
      }
    });
  }
  return out;
}
