/**
 * Attestation rules on a frames result that need no cryptography (§6.5.4):
 * - F11: each frame_attestations entry names the FULL (provider id, frame id, content_digest)
 *   identity it attests, and names a frame the same result carries.
 * - F7 (grammar half): signed_commitment is `sha256:<64 lowercase hex>`. Whether it equals the
 *   §6.5.2/§6.5.3 commitment is the attestation verifier's job, not this module's.
 * F6 (no attestation inside a frame) is checked per frame in frame-checks.ts.
 */
import { isWellFormedDigest } from './digest.js';
import { violation, WIRE_SHAPE, type Finding } from './findings.js';
import { pointerJoin } from '../util/json-pointer.js';
import { describeValue, hasValue, isJsonObject, isNonBlankString, jsonTypeOf } from './json-value.js';

export interface AttestationShapeOptions {
  /** The provider's handshake provider.name: the provider_id every entry must carry (docs/interpretations.md §2). */
  providerName?: string;
}

function checkSignedCommitment(attestation: unknown, pointer: string, what: string): Finding[] {
  if (!isJsonObject(attestation)) {
    return [violation(WIRE_SHAPE, pointer, `${what} is ${jsonTypeOf(attestation)}; required an object`)];
  }
  if (isWellFormedDigest(attestation.signed_commitment)) return [];
  return [violation('F7', pointerJoin(pointer, 'signed_commitment'), `${what} has signed_commitment ${describeValue(attestation.signed_commitment)}; required sha256:<64 lowercase hex>`)];
}

/** `result` is the ContextQueryResult object; `frames` its frames array (already checked to be one). */
export function checkAttestationShape(result: Record<string, unknown>, frames: readonly unknown[], pointer: string, options: AttestationShapeOptions = {}): Finding[] {
  const out: Finding[] = [];
  if (hasValue(result, 'result_attestation')) {
    out.push(...checkSignedCommitment(result.result_attestation, pointerJoin(pointer, 'result_attestation'), 'result_attestation'));
  }
  if (!hasValue(result, 'frame_attestations')) return out;
  const entries = result.frame_attestations;
  const entriesAt = pointerJoin(pointer, 'frame_attestations');
  if (!Array.isArray(entries)) {
    out.push(violation(WIRE_SHAPE, entriesAt, `frame_attestations is ${jsonTypeOf(entries)}; required an array`));
    return out;
  }

  // The identities the result carries: (frame id, content_digest or absent).
  const carried = frames.filter(isJsonObject).map((f) => ({
    frame_id: f.id,
    content_digest: typeof f.content_digest === 'string' ? f.content_digest : undefined,
  }));
  const provider = options.providerName;

  entries.forEach((entry, i) => {
    const entryAt = pointerJoin(entriesAt, i);
    if (!isJsonObject(entry)) {
      out.push(violation(WIRE_SHAPE, entryAt, `frame_attestations[${i}] is ${jsonTypeOf(entry)}; required an object`));
      return;
    }
    if (hasValue(entry, 'attestation')) {
      out.push(...checkSignedCommitment(entry.attestation, pointerJoin(entryAt, 'attestation'), `frame_attestations[${i}].attestation`));
    }
    const id = entry.frame;
    const idAt = pointerJoin(entryAt, 'frame');
    if (!isJsonObject(id) || !isNonBlankString(id.provider_id) || !isNonBlankString(id.frame_id)) {
      out.push(violation('F11', idAt, `frame_attestations[${i}] names frame ${describeValue(id)}; required the full identity {provider_id, frame_id, content_digest}, never a position`));
      return;
    }
    if (hasValue(id, 'content_digest') && typeof id.content_digest !== 'string') {
      out.push(violation(WIRE_SHAPE, pointerJoin(idAt, 'content_digest'), `frame_attestations[${i}].frame.content_digest is ${jsonTypeOf(id.content_digest)}; required a string`));
      return;
    }
    const digest = typeof id.content_digest === 'string' ? id.content_digest : undefined;
    if (provider !== undefined && id.provider_id !== provider) {
      out.push(
        violation(
          'F11',
          pointerJoin(idAt, 'provider_id'),
          `frame_attestations[${i}] names provider_id ${JSON.stringify(id.provider_id)}; the result comes from provider ${JSON.stringify(provider)}, so it names no frame the result carries`,
        ),
      );
      return;
    }
    const sameId = carried.filter((c) => c.frame_id === id.frame_id);
    if (sameId.length === 0) {
      out.push(violation('F11', pointerJoin(idAt, 'frame_id'), `frame_attestations[${i}] names frame_id ${JSON.stringify(id.frame_id)}, which the same result does not carry`));
    } else if (!sameId.some((c) => c.content_digest === digest)) {
      out.push(
        violation(
          'F11',
          pointerJoin(idAt, 'content_digest'),
          `frame_attestations[${i}] names frame ${JSON.stringify(id.frame_id)} with content_digest ${describeValue(digest)}; the carried frame has ${sameId.map((c) => describeValue(c.content_digest)).join(' / ')}`,
        ),
      );
    }
  });
  return out;
}
