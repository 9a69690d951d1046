/**
 * The honest query engine, as a set of replaceable stages. A misbehaviour mode swaps one named
 * stage for a broken one (src/provider/misbehave/); the pipeline itself (core.ts) never branches
 * on a mode.
 *
 *   parse → checkEmbedding (E1) → chooseRepresentation (P5) → filterKinds (Q1) → filterTime (as_of)
 *   → rank (anchors G4, embedding) → render (full / compact P1–P4) → budget (B1, B4, truncated)
 */
import { compareProtocolTimestamps, isProtocolTimestamp } from '../protocol/timestamp.js';
import { COMPACT_TRANSFORM, EMBEDDING_DIMENSIONS, PROVIDER_NAME } from './catalogue.js';
import type { CorpusFrame } from './corpus.js';
import { similarityScore } from './embedding.js';
import { isJsonObject, type ParsedQuery, type Representation, type WireFrame } from './wire.js';

export type StageResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

export interface Scored {
  frame: CorpusFrame;
  score: number;
  anchored: boolean;
}

export interface BudgetOutcome {
  selected: WireFrame[];
  /** Eligible frames left out to fit max_frames / max_tokens. */
  dropped: number;
}

export interface Stages {
  /** E1: a vector whose length contradicts the declared dimension is refused (bad_request). */
  checkEmbedding(query: ParsedQuery): StageResult<ParsedQuery>;
  /** P5: the first preference, when every preference is advertised; else unsupported_representation. */
  chooseRepresentation(preferences: readonly string[], advertised: readonly string[]): StageResult<Representation>;
  /** Q1: keep only the requested kinds; unsupported_kind when none of them is served. */
  filterKinds(frames: readonly CorpusFrame[], kinds: readonly string[]): StageResult<CorpusFrame[]>;
  /** S6.1-as-of: omit frames not yet valid at the pin, or no longer valid at it. */
  filterTime(frames: readonly CorpusFrame[], asOf: string | undefined): CorpusFrame[];
  /** Score and order: anchored frames (G4) first, then by score. */
  rank(frames: readonly CorpusFrame[], query: ParsedQuery): Scored[];
  /** The content_digest declared for a rendering (§6.3): sha256 of the inline bytes. */
  contentDigest(frame: CorpusFrame, representation: 'full' | 'compact'): string;
  /** B1/B4: keep frames in rank order while they fit; report how many were left out. */
  budget(frames: readonly WireFrame[], query: ParsedQuery): BudgetOutcome;
}

// ── parsing ──────────────────────────────────────────────────────────────────────────────────

const U32_MAX = 4_294_967_295;

function isU32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= U32_MAX;
}

function stringList(value: unknown, name: string): StageResult<string[]> {
  if (value === undefined || value === null) return { ok: true, value: [] };
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    return { ok: false, code: 'bad_request', message: `query.${name} must be an array of strings` };
  }
  return { ok: true, value: [...value] };
}

/** Validate a query payload; unknown members are ignored (U1), absent lists mean "no filter". */
export function parseQuery(raw: unknown): StageResult<ParsedQuery> {
  if (!isJsonObject(raw)) return { ok: false, code: 'bad_request', message: 'query envelope carries no query object' };
  if (typeof raw.goal !== 'string' || raw.goal.length === 0) {
    return { ok: false, code: 'bad_request', message: 'query.goal must be a non-empty string' };
  }
  if (!isU32(raw.max_frames)) return { ok: false, code: 'bad_request', message: 'query.max_frames must be a u32' };
  if (!isU32(raw.max_tokens)) return { ok: false, code: 'bad_request', message: 'query.max_tokens must be a u32' };
  const kinds = stringList(raw.kinds, 'kinds');
  if (!kinds.ok) return kinds;
  const anchors = stringList(raw.anchors, 'anchors');
  if (!anchors.ok) return anchors;
  const prefs = stringList(raw.representation_preferences, 'representation_preferences');
  if (!prefs.ok) return prefs;
  const query: ParsedQuery = {
    goal: raw.goal,
    kinds: kinds.value,
    anchors: anchors.value,
    max_frames: raw.max_frames,
    max_tokens: raw.max_tokens,
    representation_preferences: prefs.value,
  };
  if (typeof raw.query_text === 'string') query.query_text = raw.query_text;
  if (raw.as_of !== undefined && raw.as_of !== null) {
    if (!isProtocolTimestamp(raw.as_of)) {
      return { ok: false, code: 'bad_request', message: `query.as_of ${JSON.stringify(raw.as_of)} is not a protocol timestamp (F4)` };
    }
    query.as_of = raw.as_of;
  }
  if (raw.embedding !== undefined && raw.embedding !== null) {
    if (!Array.isArray(raw.embedding) || !raw.embedding.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      return { ok: false, code: 'bad_request', message: 'query.embedding must be an array of numbers' };
    }
    query.embedding = [...(raw.embedding as number[])];
  }
  return { ok: true, value: query };
}

// ── honest stages ────────────────────────────────────────────────────────────────────────────

export function checkEmbedding(query: ParsedQuery): StageResult<ParsedQuery> {
  if (query.embedding !== undefined && query.embedding.length !== EMBEDDING_DIMENSIONS) {
    return {
      ok: false,
      code: 'bad_request',
      message: `query.embedding has ${query.embedding.length} dimensions; this provider's space is ${EMBEDDING_DIMENSIONS}-dimensional (E1)`,
    };
  }
  return { ok: true, value: query };
}

export function chooseRepresentation(preferences: readonly string[], advertised: readonly string[]): StageResult<Representation> {
  if (preferences.length === 0) return { ok: true, value: 'full' };
  const unadvertised = preferences.filter((p) => !advertised.includes(p));
  if (unadvertised.length > 0) {
    return {
      ok: false,
      code: 'unsupported_representation',
      message: `representation ${unadvertised.map((p) => JSON.stringify(p)).join(', ')} not offered; this provider advertises ${advertised.join(', ')} (P5)`,
    };
  }
  return { ok: true, value: preferences[0] as Representation };
}

export function filterKinds(frames: readonly CorpusFrame[], kinds: readonly string[]): StageResult<CorpusFrame[]> {
  if (kinds.length === 0) return { ok: true, value: [...frames] };
  const kept = frames.filter((f) => kinds.includes(f.spec.kind));
  if (kept.length === 0) {
    const served = [...new Set(frames.map((f) => f.spec.kind))];
    return {
      ok: false,
      code: 'unsupported_kind',
      message: `none of the requested kinds (${kinds.join(', ')}) is served; this provider serves ${served.join(', ')} (Q1)`,
    };
  }
  return { ok: true, value: kept };
}

export function filterTime(frames: readonly CorpusFrame[], asOf: string | undefined): CorpusFrame[] {
  if (asOf === undefined) return [...frames];
  return frames.filter((f) => {
    const started = (compareProtocolTimestamps(f.spec.valid_from, asOf) ?? 0) <= 0;
    const ended = f.spec.valid_to !== undefined && (compareProtocolTimestamps(f.spec.valid_to, asOf) ?? 0) < 0;
    return started && !ended;
  });
}

/** G4: anchored at zero hops (own uri) or one hop (a relation target). */
export function isAnchored(frame: CorpusFrame, anchors: readonly string[]): boolean {
  return anchors.includes(frame.uri) || frame.relations.some((r) => anchors.includes(r.target_uri));
}

export function rank(frames: readonly CorpusFrame[], query: ParsedQuery): Scored[] {
  const scored = frames.map((frame, index) => ({
    frame,
    index,
    anchored: isAnchored(frame, query.anchors),
    score: query.embedding ? similarityScore(query.embedding, frame.embedding) : frame.spec.score,
  }));
  scored.sort((a, b) => Number(b.anchored) - Number(a.anchored) || b.score - a.score || a.index - b.index);
  return scored.map(({ frame, score, anchored }) => ({ frame, score, anchored }));
}

export function contentDigest(frame: CorpusFrame, representation: 'full' | 'compact'): string {
  return representation === 'compact' ? frame.compactDigest : frame.contentDigest;
}

export function budget(frames: readonly WireFrame[], query: ParsedQuery): BudgetOutcome {
  const selected: WireFrame[] = [];
  let spent = 0;
  for (const frame of frames) {
    if (selected.length >= query.max_frames) break;
    if (spent + frame.token_cost > query.max_tokens) continue;
    selected.push(frame);
    spent += frame.token_cost;
  }
  return { selected, dropped: frames.length - selected.length };
}

export const HONEST_STAGES: Stages = {
  checkEmbedding,
  chooseRepresentation,
  filterKinds,
  filterTime,
  rank,
  contentDigest,
  budget,
};

// ── rendering ────────────────────────────────────────────────────────────────────────────────

/**
 * One frame in the chosen representation. full: the exact range bytes inline (P1: no content_ref,
 * transform or canonical_content_hash). compact: the distillation plus every P2 member, costed by
 * its inline bytes (P4). reference: no inline content, cost 0 (P3/P4) — never chosen by the honest
 * provider, which does not advertise it (S6.4.1-no-reference-over-transport).
 */
export function renderFrame(scored: Scored, representation: Representation, digestOf: Stages['contentDigest']): WireFrame {
  const { frame: f, score } = scored;
  const s = f.spec;
  // Members are added in the reference serializer's order; score and token_cost follow below.
  const out = { id: s.id, kind: s.kind, title: s.title } as WireFrame;
  const contentRef = { provider_id: PROVIDER_NAME, uri: f.contentRefUri };
  if (representation === 'full') {
    out.content = f.content;
    out.content_digest = digestOf(f, 'full');
    out.uri = f.uri;
  } else if (representation === 'compact') {
    out.content = f.compact;
    out.content_digest = digestOf(f, 'compact');
    out.uri = f.uri;
    out.representation = 'compact';
    out.canonical_content_hash = f.contentDigest;
    out.content_ref = contentRef;
    out.transform = { ...COMPACT_TRANSFORM };
  } else {
    out.uri = f.uri;
    out.representation = 'reference';
    out.canonical_content_hash = f.contentDigest;
    out.content_ref = contentRef;
  }
  out.score = score;
  out.token_cost = representation === 'full' ? f.tokenCost : representation === 'compact' ? f.compactTokenCost : 0;
  if (representation !== 'full') out.canonical_token_cost = f.tokenCost;
  out.valid_from = s.valid_from;
  if (s.valid_to !== undefined) out.valid_to = s.valid_to;
  out.recorded_at = s.recorded_at;
  out.provenance = [{ type: 'file', uri: f.uri, range: f.range, digest: f.rangeDigest, method: 'file-read', by: PROVIDER_NAME }];
  out.citation_label = f.citationLabel;
  if (f.relations.length > 0) out.relations = f.relations.map((r) => ({ ...r }));
  return out;
}
