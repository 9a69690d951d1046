/**
 * What the reference provider "example-docs" serves: a fixed catalogue of frames cut from the
 * fixture documents in `fixtures/provider/` (read from the package root at start-up, never from
 * dist/). Digests are computed from the real bytes when the provider starts (see corpus.ts).
 *
 * The catalogue is shaped so that every provider-side anchor has something to bite on:
 * - three base kinds (doc, snippet, symbol) so the kinds filter (Q1) has work to do;
 * - `valid_from` on both sides of the plausible pin 2026-07-01, and one frame whose `valid_to`
 *   falls before it, so an `as_of` answer is strictly smaller (S6.1-as-of);
 * - relations to real frame URIs and to symbol URIs (G1/G2/G4), with the top-ranked frame carrying
 *   none, so anchoring visibly changes the ranking.
 */

export const PROVIDER_NAME = 'example-docs';

/** Fingerprint of the toy embedding space (E1): model id / dimensions / normalization. */
export const EMBEDDING_MODEL = 'cgp-fixture-hash';
export const EMBEDDING_DIMENSIONS = 8;
export const EMBEDDINGS_FINGERPRINT = `${EMBEDDING_MODEL}/${EMBEDDING_DIMENSIONS}/l2`;

/** Where the fixture documents live, relative to the package root. */
export const FIXTURE_DIR = 'fixtures/provider';

/** The kinds this provider serves (advertised in capabilities.query.kinds). */
export const SERVED_KINDS = ['doc', 'snippet', 'symbol'] as const;
export type ServedKind = (typeof SERVED_KINDS)[number];

/** Representations advertised in the handshake (compact ⇒ resolve:true, S6.4.1-resolve-declared). */
export const ADVERTISED_REPRESENTATIONS = ['full', 'compact'] as const;

/** The compact rendering's transform identity (P2). */
export const COMPACT_TRANSFORM = {
  method: 'first-sentence',
  implementation: 'example-docs/distill',
  version: '1',
} as const;

/** A relation target: a literal URI, or the file:// URI of a fixture file. */
export type RelationTarget = { uri: string } | { file: string };

export interface RelationSpec {
  rel: string;
  target: RelationTarget;
  display_name: string;
}

export interface FrameSpec {
  id: string;
  kind: ServedKind;
  title: string;
  /** Fixture file, relative to FIXTURE_DIR (forward slashes). */
  file: string;
  /** 1-based inclusive line range; each line includes its `\n`. */
  lines: readonly [number, number];
  /** Base relevance, in [0, 1]. */
  score: number;
  valid_from: string;
  valid_to?: string;
  recorded_at: string;
  relations: readonly RelationSpec[];
}

const NEXT_DELAY = 'symbol:///example-docs/backoff.rs#next_delay';

export const FRAME_SPECS: readonly FrameSpec[] = [
  {
    id: 'frm_getting_started',
    kind: 'doc',
    title: 'Getting started with example-docs',
    file: 'getting-started.md',
    lines: [1, 5],
    score: 0.82,
    valid_from: '2026-01-01T00:00:00Z',
    recorded_at: '2026-07-20T18:00:00Z',
    relations: [],
  },
  {
    id: 'frm_configuration',
    kind: 'doc',
    title: 'Configuration: the retry table',
    file: 'configuration.md',
    lines: [1, 6],
    score: 0.74,
    valid_from: '2026-01-01T00:00:00Z',
    recorded_at: '2026-07-20T18:00:00Z',
    relations: [{ rel: 'doc.documents', target: { file: 'src/backoff.rs' }, display_name: 'backoff.rs (fetcher backoff)' }],
  },
  {
    id: 'frm_retry_policy',
    kind: 'doc',
    title: 'Retry policy from September 2026',
    file: 'retry-policy.md',
    lines: [8, 11],
    score: 0.69,
    valid_from: '2026-09-01T00:00:00Z',
    recorded_at: '2026-08-15T09:30:00Z',
    relations: [{ rel: 'doc.documents', target: { uri: NEXT_DELAY }, display_name: 'next_delay' }],
  },
  {
    id: 'frm_next_delay',
    kind: 'snippet',
    title: 'backoff.rs next_delay',
    file: 'src/backoff.rs',
    lines: [1, 7],
    score: 0.63,
    valid_from: '2026-09-01T00:00:00Z',
    recorded_at: '2026-08-15T09:30:00Z',
    relations: [{ rel: 'code.defines', target: { uri: NEXT_DELAY }, display_name: 'next_delay' }],
  },
  {
    id: 'frm_should_retry',
    kind: 'symbol',
    title: 'should_retry',
    file: 'src/backoff.rs',
    lines: [9, 12],
    score: 0.55,
    valid_from: '2026-01-01T00:00:00Z',
    recorded_at: '2026-07-20T18:00:00Z',
    relations: [{ rel: 'code.references', target: { file: 'configuration.md' }, display_name: 'configuration.md (retry table)' }],
  },
  {
    id: 'frm_retry_policy_2026_h1',
    kind: 'doc',
    title: 'Retry policy until June 2026',
    file: 'retry-policy.md',
    lines: [3, 6],
    score: 0.41,
    valid_from: '2026-01-01T00:00:00Z',
    valid_to: '2026-06-30T23:59:59Z',
    recorded_at: '2026-07-20T18:00:00Z',
    relations: [{ rel: 'doc.documents', target: { uri: NEXT_DELAY }, display_name: 'next_delay (fixed-pause era)' }],
  },
];

/** Ids this provider used to serve and no longer does: verify answers `gone` for them (V3). */
export const RETIRED_FRAME_IDS: readonly string[] = ['frm_install_legacy', 'frm_retry_policy_2025'];
