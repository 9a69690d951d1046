// Reviewed mapping tables for the rule catalogue. SPEC.md's requirement tables give each anchor its id,
// text, section and (through its bold key words) its level; what the rows do not state explicitly —
// which side an anchor binds, the level of a row with no key word, and the stable ids of the normative
// prose sentences that carry no anchor — is recorded here, by hand, and reviewed against the row text.
// A change to SPEC.md that adds a row or a normative sentence shows up as an unmapped entry in the
// extractor's diagnostics (and fails test/catalogue), so nothing enters the catalogue unreviewed.

import type { CatalogueLevel, CatalogueSide } from './types.js';

/**
 * Which side each anchor binds. Reviewed row by row against SPEC.md; the comment says why where the row
 * names more than one party.
 */
export const ANCHOR_SIDES: Readonly<Record<string, CatalogueSide>> = {
  // §3 handshake
  H1: 'provider',
  H2: 'provider',
  H3: 'both', // the provider answers a foreign family with a named error; the host refuses a foreign ack
  H4: 'provider',
  // §4 data flow and consent
  C1: 'host',
  C2: 'host',
  C3: 'provider',
  C4: 'host',
  C5: 'provider', // binds the declaring provider; the host's rejection is the consequence the row names
  C6: 'host',
  C7: 'host',
  C8: 'host',
  // §5 query
  Q1: 'provider',
  E1: 'both', // host MUST NOT send a mismatched embedding; provider SHOULD reply bad_request
  // §6 frames and attestation
  F1: 'provider',
  F2: 'provider',
  F3: 'provider',
  F4: 'provider',
  F5: 'provider',
  F6: 'provider',
  F7: 'provider',
  F8: 'host', // binds the verifier
  F9: 'host',
  F10: 'host',
  F11: 'provider',
  F12: 'provider',
  F13: 'both', // a present proof must recompute the root (provider); a host keeping a subset derives proofs
  // §6.3 identity
  D1: 'provider',
  D2: 'host',
  D3: 'host',
  D4: 'host',
  // §6.4 representations
  P1: 'provider',
  P2: 'provider',
  P3: 'provider',
  P4: 'provider',
  P5: 'both', // host MUST NOT ask for an unadvertised representation; provider SHOULD refuse or fall back
  // §7 budget
  B1: 'provider',
  B2: 'host',
  B3: 'provider',
  B4: 'provider',
  UR1: 'host',
  // §8 graph
  G1: 'provider',
  G2: 'provider',
  G3: 'provider',
  G4: 'provider',
  // §9 verify
  V1: 'host', // the host builds verify requests
  V2: 'both', // provider answers every verify; host reads a missing verdict as unknown
  V3: 'both', // provider sends only the four verdicts; host reuses only on valid
  V4: 'both', // replacement_digest is a provider's digest grammar; the discard rule binds hosts
  // §10 errors
  X1: 'host',
  X2: 'host',
  // §11 robustness
  R1: 'provider',
  R2: 'provider',
  R3: 'host',
  // §13 extensibility
  U1: 'both', // "a receiver"
  U2: 'host', // "a host that receives an unrecognised kind"; the open vocabularies flow provider → host
  U3: 'both', // whoever names a vendor-specific rel, egress_scope or code
  U4: 'types', // stability of the fields this spec (and so the schema) defines
  // §14 attribution
  A1: 'host',
  A2: 'host',
  A3: 'host',
};

/**
 * Level of an anchor whose row has no bold key word, judged by its words. Rows that do carry key words
 * take the strongest of them (MUST beats SHOULD beats MAY) and are not listed here.
 */
export const ANCHOR_LEVEL_BY_WORDS: Readonly<Record<string, { level: CatalogueLevel; why: string }>> = {
  P4: {
    level: 'MUST',
    why: 'applies B3 (a MUST) to representations: reference declares token_cost 0, compact the inline cost, "never" the full-source cost',
  },
  U4: {
    level: 'MUST',
    why: 'absolute wording ("never repurposed", "never deleted or redefined") that only a new major family may break',
  },
};

/** One row of the reviewed sentence table. */
export interface RuleMapping {
  /** Stable id, `S<section>-<slug>`; `exclude` rows are reviewed non-rules and carry no id in the output. */
  id: string;
  /** A phrase that occurs in exactly one prose sentence of SPEC.md (Markdown formatting removed). */
  match: string;
  side: CatalogueSide;
  /** Required when the sentence carries no bold key word; otherwise the strongest key word decides. */
  level?: CatalogueLevel;
  /** Overrides the section of the heading the sentence sits under. */
  section?: string;
  /** Number of following sentences (same block) that belong to the same rule. */
  more?: number;
  /** A bold key word that binds no implementation (definitions, lead-ins, statements about the spec). */
  exclude?: string;
}

/**
 * Normative prose sentences that carry no anchor. Every sentence with a bold key word outside tables and
 * code must be named here (as a rule or as a reviewed exclusion). A few sentences with no key word are
 * listed too, with an explicit level, because docs/architecture.md or the spec's own "normative" statements rely on
 * them: a SHOULD level for those means a finding is a warning, never a failure.
 */
export const RULE_TABLE: readonly RuleMapping[] = [
  // Preamble
  {
    id: 'preamble-key-words',
    match: 'The key words MUST, MUST NOT, SHOULD, SHOULD NOT, and MAY are to be interpreted',
    side: 'both',
    exclude: 'defines the key words; binds nothing by itself',
  },
  {
    id: 'S2-wire-shape',
    match: 'Wire shapes, the requirement tables, the version rule, and the counting and format grammars are normative',
    side: 'both',
    level: 'MUST',
    section: '2',
  },
  // §2.1 NDJSON binding
  { id: 'S2.1-no-newline', match: 'An envelope MUST NOT contain a literal newline', side: 'both' },
  {
    id: 'S2.1-unknown-type',
    match: 'a receiver MUST NOT reject an envelope solely because its type is one it does not implement',
    side: 'both',
  },
  {
    id: 'S2.1-json-rpc-later',
    match: 'A JSON-RPC binding MAY be specified later',
    side: 'both',
    exclude: 'a statement about future revisions of the specification; binds no implementation',
  },
  // §3 handshake
  {
    id: 'S3-handshake-first',
    match: 'No query payload moves before this exchange completes',
    side: 'both',
    level: 'SHOULD',
  },
  // §3.1 version strings
  { id: 'S3.1-compare-families', match: 'An implementation SHOULD compare major families', side: 'both' },
  // §3.2 correlation
  { id: 'S3.2-id-optional', match: 'query, frames, and error MAY carry an id', side: 'both' },
  {
    id: 'S3.2-no-id-without-correlation',
    match: 'A host MUST NOT send an id to a provider that did not declare capabilities.correlation',
    side: 'host',
  },
  {
    id: 'S3.2-notification',
    match: 'An envelope with no id is a notification',
    side: 'both',
    level: 'advisory',
    more: 1,
  },
  // §4.1 egress scopes
  { id: 'S4.1-egress-scopes', match: 'A provider MAY declare, alongside the boolean egress', side: 'provider' },
  {
    id: 'S4.1-unknown-scope-off-machine',
    match: 'an unrecognised custom scope is treated as off-machine',
    side: 'host',
    level: 'advisory',
  },
  // §4.2 transport security
  { id: 'S4.2-bearer-credential', match: 'A provider MAY require a bearer credential', side: 'provider' },
  // §5 query
  { id: 'S5-anchor-boost', match: 'graph-capable provider SHOULD boost frames', side: 'provider' },
  // §6.1 temporal profile
  { id: 'S6.1-as-of', match: 'as_of pins retrieval to an instant', side: 'provider', level: 'SHOULD' },
  // §6.2 digests
  {
    id: 'S6.2-digested-bytes',
    match: 'Digested bytes: the exact UTF-8 source bytes addressed by uri + range',
    side: 'provider',
    level: 'SHOULD',
    more: 1,
  },
  // §6.3 frame identity
  {
    id: 'S6.3-content-digest',
    match: "content_digest is the provider-declared SHA-256 over the frame's exact inline content bytes",
    side: 'provider',
    level: 'SHOULD',
  },
  // §6.4.1 content_ref and resolve
  {
    id: 'S6.4.1-three-consequences',
    match: 'This has three consequences a 1.0 implementer MUST understand',
    side: 'both',
    exclude: 'lead-in to the three bullets, which carry the rules',
  },
  {
    id: 'S6.4.1-no-reference-over-transport',
    match: 'SHOULD NOT return reference frames',
    side: 'provider',
    more: 1,
  },
  { id: 'S6.4.1-in-process-reference', match: 'An in-process provider sharing the host', side: 'provider' },
  { id: 'S6.4.1-resolve-declared', match: 'MUST set resolve: true', side: 'provider' },
  {
    id: 'S6.4.1-unrehydratable-empty',
    match: 'cannot rehydrate MUST treat its contribution as empty',
    side: 'host',
  },
  // §6.5.2 frame commitment
  {
    id: 'S6.5.2-provider-id',
    match: "provider_id is the provider's handshake-declared provider.name",
    side: 'both',
    level: 'SHOULD',
  },
  // §6.5.4 verification
  { id: 'S6.5.4-distinct-verdicts', match: 'Verifiers MUST distinguish these outcomes', side: 'host' },
  { id: 'S6.5.4-strict-ed25519', match: 'Implementations SHOULD use a strict Ed25519 verifier', side: 'host' },
  // §6.6 score
  {
    id: 'S6.6-single-provider-threshold',
    match: "A host MAY apply a threshold to a single provider's scores",
    side: 'host',
  },
  // §7.2 budget tokens
  { id: 'S7.2-budget-token', match: 'a host MUST NOT treat one as one model token', side: 'host' },
  // §8.1 relation vocabulary
  { id: 'S8.1-rel-open', match: 'The rel vocabulary is open', side: 'host' },
  // §9 verification
  {
    id: 'S9-verify-correlation',
    match: 'a verify/verified pair is correlated by id exactly as query/frames are',
    side: 'both',
    level: 'SHOULD',
  },
  // §10 errors
  { id: 'S10-not-retryable', match: 'a host MUST NOT read it as retryable', side: 'host' },
  // §11 robustness
  {
    id: 'S11-compose-reference',
    match: 'A host realizing R3 SHOULD follow the reference prompt-composition module',
    side: 'host',
  },
  // §13 extensibility
  { id: 'S13-interop-validator', match: 'a validator on the interop path', side: 'both' },
  {
    id: 'S13-authoring-strict',
    match: 'published in an authoring-strict profile',
    side: 'types',
    level: 'advisory',
  },
];
