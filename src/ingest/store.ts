/**
 * The artifact store behind the ingest provider: the session's authoritative set of pasted blocks.
 * Serves any representation of any artifact (the real `[full]` re-query that backs resolve:true,
 * §6.4.1), answers verify exactly (the content is immutable), and hands back the exact bytes.
 *
 * Ids: `frm_` + the first 12 hex digits of the address hash; if two different blocks share that
 * prefix, both ids grow (16, 20, … digits) until they differ — a function of the set, so still
 * independent of attachment order.
 */
import { compareProtocolTimestamps } from '../protocol/timestamp.js';
import type { ContextFrame } from '../../generated/types/index.js';
import { INGEST_PROVIDER_NAME, renderArtifact, type Artifact, type ServedRepresentation } from './artifact.js';

export interface ServeOptions {
  representation: ServedRepresentation;
  /** Q1: empty = any kind. */
  kinds?: readonly string[];
  /** S6.1-as-of: omit frames whose window does not contain the pin. */
  asOf?: string;
}

export type Verdict =
  | { frame: { provider_id: string; frame_id: string; content_digest?: string }; status: 'valid' | 'gone' | 'unknown' }
  | { frame: { provider_id: string; frame_id: string; content_digest?: string }; status: 'stale'; replacement_digest: string };

export class IngestStore {
  /** Artifacts in canonical order: score descending, then id ascending. */
  readonly artifacts: readonly Artifact[];
  private readonly byId = new Map<string, Artifact>();
  private readonly byHash = new Map<string, Artifact>();

  constructor(artifacts: readonly Artifact[]) {
    assignIds(artifacts);
    this.artifacts = [...artifacts].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const a of this.artifacts) {
      this.byId.set(a.id, a);
      this.byHash.set(a.addressHash, a);
    }
  }

  get kinds(): string[] {
    return [...new Set(this.artifacts.map((a) => a.frameKind))].sort();
  }

  idOf(addressHash: string): string {
    return this.byHash.get(addressHash)!.id;
  }

  get(id: string): Artifact | undefined {
    return this.byId.get(id);
  }

  /** Eligible artifacts (kinds, as_of) rendered in one representation, in canonical order. */
  serve(opts: ServeOptions): ContextFrame[] {
    return this.eligible(opts).map((a) => renderArtifact(a, opts.representation));
  }

  eligible(opts: Omit<ServeOptions, 'representation'>): Artifact[] {
    const kinds = opts.kinds ?? [];
    return this.artifacts.filter((a) => {
      if (kinds.length > 0 && !kinds.includes(a.frameKind)) return false;
      if (opts.asOf !== undefined) {
        if (a.validFrom !== undefined && (compareProtocolTimestamps(a.validFrom, opts.asOf) ?? 0) > 0) return false;
        if (a.validTo !== undefined && (compareProtocolTimestamps(a.validTo, opts.asOf) ?? 0) < 0) return false;
      }
      return true;
    });
  }

  /** The exact pasted bytes of a frame (what canonical_content_hash covers). */
  resolveBytes(id: string): Uint8Array | undefined {
    return this.byId.get(id)?.bytes;
  }

  /**
   * verify (§9): another provider's identity ⇒ unknown; an id this session never held ⇒ gone (the
   * store is authoritative for the session); no digest ⇒ unknown; a digest this frame is served
   * under (its [full] digest, or its compact digest) ⇒ valid; any other digest ⇒ stale, with the
   * [full] digest as replacement (V4: a digest, never a body).
   */
  verify(identity: { provider_id: string; frame_id: string; content_digest?: string | null }): Verdict {
    const frame: { provider_id: string; frame_id: string; content_digest?: string } = { provider_id: identity.provider_id, frame_id: identity.frame_id };
    if (typeof identity.content_digest === 'string') frame.content_digest = identity.content_digest;
    if (identity.provider_id !== INGEST_PROVIDER_NAME) return { frame, status: 'unknown' };
    const a = this.byId.get(identity.frame_id);
    if (!a) return { frame, status: 'gone' };
    if (typeof identity.content_digest !== 'string') return { frame, status: 'unknown' };
    const served = [a.full().digest, a.inlineDigest];
    if (served.includes(identity.content_digest)) return { frame, status: 'valid' };
    return { frame, status: 'stale', replacement_digest: a.full().digest };
  }
}

function assignIds(artifacts: readonly Artifact[]): void {
  let width = 12;
  for (const a of artifacts) a.id = `frm_${a.addressHash.slice(7, 7 + width)}`;
  for (;;) {
    const seen = new Map<string, Artifact[]>();
    for (const a of artifacts) seen.set(a.id, [...(seen.get(a.id) ?? []), a]);
    const clashes = [...seen.values()].filter((g) => g.length > 1);
    if (clashes.length === 0) return;
    width += 4;
    for (const g of clashes) for (const a of g) a.id = `frm_${a.addressHash.slice(7, 7 + width)}`;
  }
}
