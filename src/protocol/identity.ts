/**
 * Frame identity (§6.3, D1–D4, A1): the triple (provider id, frame id, content_digest).
 * `provider_id` is the provider's handshake `provider.name` everywhere (docs/interpretations.md §2).
 * `content_digest` may be absent (D3: such a frame cannot be reused unchecked).
 */
import type { FrameId } from '../../generated/types/index.js';
import { compareUtf8 } from './utf8-order.js';

/** The (provider id, frame id, content_digest) of a frame served by `providerName`. */
export function frameIdOf(providerName: string, frame: { id: string; content_digest?: string | null }): FrameId {
  const id: FrameId = { provider_id: providerName, frame_id: frame.id };
  if (typeof frame.content_digest === 'string') id.content_digest = frame.content_digest;
  return id;
}

function digestOf(id: FrameId): string | undefined {
  return typeof id.content_digest === 'string' ? id.content_digest : undefined;
}

/**
 * A stable, unambiguous string key for maps and sets (D2: same triple ⇒ same content).
 * An absent and a null content_digest are the same identity.
 */
export function frameIdKey(id: FrameId): string {
  return JSON.stringify([id.provider_id, id.frame_id, digestOf(id) ?? null]);
}

/**
 * Canonical order (§6.3, used by composition and the §6.5.3 result root): by provider_id, then
 * frame_id, then content_digest with absent first — each compared as UTF-8 bytes.
 */
export function compareFrameIds(a: FrameId, b: FrameId): number {
  const byProvider = compareUtf8(a.provider_id, b.provider_id);
  if (byProvider !== 0) return byProvider;
  const byFrame = compareUtf8(a.frame_id, b.frame_id);
  if (byFrame !== 0) return byFrame;
  const da = digestOf(a);
  const db = digestOf(b);
  if (da === undefined || db === undefined) return da === db ? 0 : da === undefined ? -1 : 1;
  return compareUtf8(da, db);
}

/** D2: two identities name the same content. */
export function sameFrameId(a: FrameId, b: FrameId): boolean {
  return compareFrameIds(a, b) === 0;
}
