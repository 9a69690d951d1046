/**
 * Artifacts (one per distinct block of bytes) and the frames rendered from them.
 *
 * Honest by construction:
 * - address hash = sha256 over the block's exact bytes; frame id = `frm_` + its first 12 hex digits, so
 *   the same bytes are the same frame (D2) wherever they appear, whatever the attachment order;
 * - every representation is rendered from one artifact, and its token_cost (B3: ceil(bytes/4)) and
 *   content_digest (§6.3: sha256 of the inline bytes) are computed from the content it actually
 *   carries — never carried over from another representation (P4);
 * - canonical_content_hash = the address hash (the complete source bytes, §6.3/§6.4);
 * - provenance is one `derivation` link (a paste has no re-readable uri + range, so F5 does not apply
 *   and no file digest is invented).
 */
import { sha256Digest } from '../protocol/digest.js';
import { budgetTokens } from '../protocol/token-cost.js';
import type { ContextFrame } from '../../generated/types/index.js';
import type { BlockKind } from './classify.js';
import type { Distilled } from './distill.js';

export const INGEST_PROVIDER_NAME = 'prompt-ingest';
export const INGEST_IMPLEMENTATION = 'cgp-conformance/ingest';
export const TRANSFORM_VERSION = '1';
/** A block at or under this many budget tokens is served verbatim (the reference's threshold). */
export const COMPACT_THRESHOLD_TOKENS = 64;

export type ServedRepresentation = 'full' | 'compact' | 'reference';
export type FrameKindOf = 'episode' | 'fact' | 'snippet' | 'doc';

export const KIND_FACTS: Record<Exclude<BlockKind, 'path'>, { frameKind: FrameKindOf; label: string; score: number }> = {
  stack: { frameKind: 'episode', label: 'stack trace', score: 0.85 },
  log: { frameKind: 'episode', label: 'log', score: 0.8 },
  code: { frameKind: 'snippet', label: 'code', score: 0.75 },
  diff: { frameKind: 'snippet', label: 'diff', score: 0.75 },
  table: { frameKind: 'fact', label: 'table', score: 0.7 },
  json: { frameKind: 'fact', label: 'JSON document', score: 0.7 },
  records: { frameKind: 'episode', label: 'repeated records', score: 0.75 },
  kv: { frameKind: 'fact', label: 'key/value lines', score: 0.7 },
  prose: { frameKind: 'doc', label: 'note', score: 0.5 },
  binary: { frameKind: 'doc', label: 'binary data', score: 0.2 },
};

export interface Artifact {
  id: string;
  addressHash: string;
  kind: Exclude<BlockKind, 'path'>;
  frameKind: FrameKindOf;
  title: string;
  citationLabel: string;
  score: number;
  /** The exact bytes (a view into the attachment, never a copy). */
  bytes: Uint8Array;
  /** The bytes are not valid UTF-8: the served text shows U+FFFD where they are not. */
  lossy: boolean;
  lines: number;
  inline: string;
  inlineDigest: string;
  inlineTokens: number;
  method: string;
  compacted: boolean;
  validFrom?: string;
  validTo?: string;
  /** The full rendering's text, digest and cost (computed once, on first use). */
  full(): { text: string; digest: string; tokens: number };
}

export interface ArtifactInput {
  kind: Exclude<BlockKind, 'path'>;
  bytes: Uint8Array;
  lossy: boolean;
  lines: number;
  /** The decoded text when the caller already has it (small blocks). */
  text?: string;
  distill: () => Distilled;
  validFrom?: string;
  validTo?: string;
}

export function buildArtifact(input: ArtifactInput): Artifact {
  const addressHash = sha256Digest(input.bytes);
  const facts = KIND_FACTS[input.kind];
  let full: { text: string; digest: string; tokens: number } | undefined;
  const fullOf = () => {
    if (!full) {
      const text = input.text ?? Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength).toString('utf8');
      // Valid UTF-8 round-trips, so the inline digest of [full] is the address hash; lossy text gets its own.
      full = { text, digest: input.lossy ? sha256Digest(text) : addressHash, tokens: budgetTokens(text) };
    }
    return full;
  };
  const fullTokens = input.lossy ? fullOf().tokens : Math.ceil(input.bytes.byteLength / 4);
  let inline: string;
  let method = 'verbatim';
  let compacted = false;
  const distilled = fullTokens > COMPACT_THRESHOLD_TOKENS || input.kind === 'binary' ? input.distill() : undefined;
  if (distilled && distilled.method !== 'verbatim' && budgetTokens(distilled.text) < fullTokens) {
    inline = distilled.text;
    method = distilled.method;
    compacted = true;
  } else {
    inline = fullOf().text;
  }
  const label = facts.label;
  const lines = input.lines;
  const title = input.kind === 'prose' ? 'note' : input.kind === 'binary' ? `binary data · ${input.bytes.byteLength} bytes` : `${label} · ${lines} ${lines === 1 ? 'line' : 'lines'}`;
  const artifact: Artifact = {
    id: `frm_${addressHash.slice(7, 19)}`,
    addressHash,
    kind: input.kind,
    frameKind: facts.frameKind,
    title,
    citationLabel: `pasted ${title}`,
    score: facts.score,
    bytes: input.bytes,
    lossy: input.lossy,
    lines,
    inline,
    inlineDigest: compacted ? sha256Digest(inline) : fullOf().digest,
    inlineTokens: budgetTokens(inline),
    method,
    compacted,
    full: fullOf,
  };
  if (input.validFrom !== undefined) artifact.validFrom = input.validFrom;
  if (input.validTo !== undefined) artifact.validTo = input.validTo;
  return artifact;
}

export function contentRefUri(a: Artifact): string {
  return `context://${INGEST_PROVIDER_NAME}/artifacts/${a.addressHash}`;
}

/**
 * One frame in one representation. full (P1): the full text inline, no content_ref / transform /
 * canonical_content_hash. compact (P2): the inline rendering with both hashes, its transform and a
 * content_ref. reference (P3): no content, no content_digest, no transform, token_cost 0 (P4).
 */
export function renderArtifact(a: Artifact, representation: ServedRepresentation): ContextFrame {
  const out = { id: a.id, kind: a.frameKind, title: a.title } as ContextFrame;
  if (representation === 'full') {
    const f = a.full();
    out.content = f.text;
    out.content_digest = f.digest;
    out.content_fidelity = a.lossy ? 'normalized' : 'exact';
  } else if (representation === 'compact') {
    out.content = a.inline;
    out.content_digest = a.inlineDigest;
    out.representation = 'compact';
    out.content_fidelity = a.compacted ? 'summarized' : a.lossy ? 'normalized' : 'exact';
    out.canonical_content_hash = a.addressHash;
    out.content_ref = { provider_id: INGEST_PROVIDER_NAME, uri: contentRefUri(a) };
    out.transform = { method: a.method, implementation: INGEST_IMPLEMENTATION, version: TRANSFORM_VERSION };
  } else {
    out.representation = 'reference';
    out.content_fidelity = 'omitted';
    out.canonical_content_hash = a.addressHash;
    out.content_ref = { provider_id: INGEST_PROVIDER_NAME, uri: contentRefUri(a) };
  }
  out.inline_content_requirement = 'resolvable_reference_allowed';
  out.score = a.score;
  // B3: token_cost = ceil(bytes/4) of the content this rendering carries (0 for reference, P4).
  out.token_cost = representation === 'full' ? a.full().tokens : representation === 'compact' ? a.inlineTokens : 0;
  if (representation !== 'full') out.canonical_token_cost = a.lossy ? a.full().tokens : Math.ceil(a.bytes.byteLength / 4);
  if (a.validFrom !== undefined) out.valid_from = a.validFrom;
  if (a.validTo !== undefined) out.valid_to = a.validTo;
  out.provenance = [{ type: 'derivation', method: 'paste', by: INGEST_IMPLEMENTATION }];
  out.citation_label = a.citationLabel;
  return out;
}
