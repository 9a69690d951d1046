/**
 * The misbehaviour manifest (docs/architecture.md "Misbehaviour manifest"): ONE table read both by the bundled
 * provider's `--misbehave <mode>` and by the red team. Each entry names the anchors (H1…A3) or
 * unanchored rule ids (S2.1-no-newline, S6.3-content-digest, …) the mode breaks; the red team runs
 * the scenarios tagged with those ids and requires each id to be reported failed (MUST) or warning
 * (SHOULD) by at least one of them. `breaks` lists only ids the mode really violates — never an
 * anchor it merely disturbs.
 *
 * The behaviour of each mode lives in src/provider/misbehave/ as a small named hook set; the type
 * of that map is keyed by `MisbehaviourMode`, so a mode without an implementation (or an
 * implementation without a manifest entry) does not compile.
 */

export interface Misbehaviour {
  /** The `--misbehave` argument. */
  mode: string;
  /** Anchor or rule ids this mode violates (empty only with `exercises` or `unbacked`). */
  breaks: readonly string[];
  /** Host-side ids this conformant provider behaviour is a fixture for (the host suite uses it). */
  exercises?: readonly string[];
  /** Why no normative id can be named (docs/architecture.md "Rule catalogue": a behaviour with no normative basis is no finding). */
  unbacked?: string;
  /** Ids whose scenarios the red team also runs for this mode: the defect shows only in their replies. */
  alsoRuns?: readonly string[];
  /**
   * Zero-collateral allow-list: ids other than `breaks` the mode's run may fail or warn, each with the reason
   * the one defect really violates it too. The red team fails on any other id a mode makes fail or warn.
   */
  collateral?: ReadonlyArray<{ id: string; reason: string }>;
  /** What the provider does wrong, and where it shows. */
  description: string;
}

export const MISBEHAVIOURS = [
  // ── handshake (H1–H3) and data flow (C5, U3) ─────────────────────────────────────────────────
  {
    mode: 'single-digit-minor',
    breaks: ['H1'],
    collateral: [{ id: 'S3.1-compare-families', reason: "the same refusal of contextgraph/1.10: S3.1's warning names its likely cause (the version compared as a string, not by family)" }],
    description: 'refuses a contextgraph/1.10 handshake with incompatible_version (reads the minor as one digit; §3.1 minor = 1*DIGIT)',
  },
  {
    mode: 'bad-version',
    breaks: ['H1'],
    description: 'acks every handshake with protocol_version "contextgraph/2.0", a foreign major family',
  },
  {
    mode: 'empty-provider-name',
    breaks: ['H2'],
    description: 'handshake_ack carries provider.name "" (frames and verify still use "example-docs")',
  },
  {
    mode: 'empty-provider-version',
    breaks: ['H2'],
    description: 'handshake_ack carries provider.version ""',
  },
  {
    mode: 'accept-foreign-handshake',
    // the 1.0 ack is not in the 2.0 host's family: H1 too (the H3 scenario credits it)
    breaks: ['H3', 'H1'],
    description: 'answers a contextgraph/2.0 handshake with a normal contextgraph/1.0 handshake_ack instead of error incompatible_version',
  },
  {
    mode: 'foreign-handshake-wrong-code',
    breaks: ['H3'],
    description: 'refuses a foreign-family handshake with error code bad_request instead of the named incompatible_version',
  },
  {
    mode: 'hang-on-foreign-handshake',
    breaks: ['H3'],
    description: 'never answers a foreign-family handshake (left to hang until the harness times out); other traffic is served',
  },
  {
    mode: 'prefix-version-family',
    // the 1.0 ack is not in the 10.0 host's family: H1 too (the H3 scenario credits it)
    breaks: ['H3', 'H1'],
    description: 'compares version families as a string prefix: acknowledges a contextgraph/10.0 handshake as family 1 (§3.1: the family is the whole major)',
  },
  {
    mode: 'accept-older-family',
    breaks: ['H3', 'H1'],
    description: 'acknowledges a handshake of any major up to its own (contextgraph/0.9) instead of refusing the foreign family with incompatible_version',
  },
  {
    mode: 'silent-second-handshake',
    breaks: ['H1'],
    description: 'answers only the first handshake of a connection; a second handshake on an established connection gets no reply at all',
  },
  {
    mode: 'scope-lie',
    breaks: ['C5'],
    description: 'declares data_flow.egress false alongside egress_scopes ["third-party-index"]',
  },
  {
    mode: 'custom-scope-lie',
    breaks: ['C5'],
    description: 'declares egress false alongside the namespaced custom scope "acme:mirror" (custom scopes are off-machine)',
  },
  {
    mode: 'malformed-namespaced-scope',
    breaks: ['U3'],
    collateral: [{ id: 'S4.1-egress-scopes', reason: 'the one malformed scope "acme:" is also outside §4.1\'s scope vocabulary (not a vendor:name), which that rule warns on' }],
    description:
      'declares egress true with the egress scope "acme:" — a namespaced name with an empty side (U3 requires vendor:name, ' +
      'non-empty on both sides; an unprefixed unknown scope is only a warning, see docs/interpretations.md §13)',
  },
  // ── correlation (H4) ─────────────────────────────────────────────────────────────────────────
  {
    mode: 'ascii-correlation-id',
    breaks: ['H4'],
    description: 'echoes a request id with its non-ASCII characters replaced by "?" (ids are opaque strings, echoed verbatim)',
  },
  {
    mode: 'normalised-correlation-id',
    breaks: ['H4'],
    description: 'echoes ids after "normalising" them: surrounding spaces trimmed and letters lower-cased (H4: verbatim)',
  },
  {
    mode: 'verify-error-drops-id',
    breaks: ['H4'],
    description: 'drops the id from the error answering a malformed verify that carried one (errors answering queries keep theirs)',
  },
  {
    mode: 'drop-correlation-id',
    breaks: ['H4'],
    description: 'answers queries with frames envelopes that omit the request id (errors still echo it)',
  },
  {
    mode: 'error-drops-correlation-id',
    breaks: ['H4'],
    description: 'error replies to requests that carried an id omit it (frames still echo it)',
  },
  {
    mode: 'wrong-correlation-id',
    breaks: ['H4'],
    description: 'frames replies carry a different id than the query ("<id>-x")',
  },
  {
    mode: 'wrong-verify-correlation-id',
    breaks: ['H4'],
    description: 'verified replies to a verify that carried an id echo a different one ("<id>-x"; docs/interpretations.md §4)',
  },
  // ── frame validity (F1–F5, D1, S6.3) ─────────────────────────────────────────────────────────
  {
    mode: 'bad-score',
    breaks: ['F1'],
    description: 'first frame of every answer has score 1.5',
  },
  {
    mode: 'anchored-over-budget',
    breaks: ['B4'],
    alsoRuns: ['G4'],
    collateral: [{ id: 'G4', reason: "the frames appended past max_frames come after unanchored ones, so the same extra frames also break G4's anchored-first ranking" }],
    description: 'ignores max_frames when the query carries anchors (every frame twice); only the anchored G4 probes see it, B4 is credited there',
  },
  {
    mode: 'anchored-cost-uncounted',
    breaks: ['B1'],
    description: "does not count anchored frames' token_cost against max_tokens: an anchored answer can exceed the budget",
  },
  {
    mode: 'empty-kinds-nothing',
    breaks: ['Q1'],
    description: 'answers kinds: [] ("any kind", §5.2) with zero frames while serving each kind when it is named',
  },
  {
    mode: 'bad-score-on-anchored',
    breaks: ['F1'],
    alsoRuns: ['G4'],
    description: 'every frame of an answer to a query with non-empty anchors has score 1.5 (only the anchored G4 probes see it; F1 is credited there)',
  },
  {
    mode: 'negative-score',
    breaks: ['F1'],
    description: 'first frame of every answer has score -0.25',
  },
  {
    mode: 'empty-title',
    breaks: ['F2'],
    description: 'first frame of every answer has title ""',
  },
  {
    mode: 'empty-citation',
    breaks: ['F3'],
    description: 'first frame of every answer has citation_label ""',
  },
  {
    mode: 'bad-timestamp',
    breaks: ['F4'],
    description: 'every frame has valid_from "last tuesday" (filters still run on the true instants)',
  },
  {
    mode: 'bad-valid-to',
    breaks: ['F4'],
    description: 'frames that carry valid_to render it as "2026-06-30 23:59:59" (space separator, no Z)',
  },
  {
    mode: 'bad-recorded-at',
    breaks: ['F4'],
    description: 'every frame has recorded_at with a numeric offset ("…T18:00:00+00:00") instead of Z',
  },
  {
    mode: 'malformed-digest',
    breaks: ['D1', 'F5'],
    collateral: [{ id: 'S6.2-digested-bytes', reason: 'a provenance digest "sha256:abc" cannot be the sha256 of the bytes it addresses' }],
    description: 'every frame has content_digest and provenance digest "sha256:abc" (verify vouches for it)',
  },
  {
    mode: 'uppercase-content-digest',
    breaks: ['D1'],
    description: 'content_digest is the right sha256 rendered in UPPERCASE hex (verify accepts that spelling)',
  },
  {
    mode: 'stale-digest',
    breaks: ['S6.2-digested-bytes'],
    description: 'file provenance digests are well-formed (so the F5 grammar holds) but have their last hex digit flipped, so re-reading the fixture bytes at uri + range does not match',
  },
  {
    mode: 'file-provenance-without-digest',
    breaks: ['F5'],
    description: 'file provenance entries carry no digest at all',
  },
  {
    mode: 'content-digest-mismatch',
    breaks: ['S6.3-content-digest'],
    description: 'content_digest of full frames is sha256 of the whitespace-trimmed content, not of the exact inline bytes (verify accepts it)',
  },
  // ── representations (P1–P5, §6.4.1) ──────────────────────────────────────────────────────────
  {
    mode: 'lying-representation',
    breaks: ['P3'],
    collateral: [
      { id: 'P4', reason: 'a frame labelled reference declares a token_cost other than 0' },
      { id: 'P5', reason: 'reference is not among the representations the ack advertises' },
      { id: 'S6.4.1-no-reference-over-transport', reason: 'a reference frame is served over a transport, where reference is not allowed' },
    ],
    description: 'first frame declares representation "reference" but still carries content and content_digest',
  },
  {
    mode: 'full-with-content-ref',
    breaks: ['P1'],
    description: 'full frames also carry a content_ref',
  },
  {
    mode: 'compact-missing-canonical-hash',
    breaks: ['P2'],
    description: 'compact frames omit canonical_content_hash',
  },
  {
    mode: 'compact-full-cost',
    breaks: ['P4', 'B3'],
    description: 'compact frames declare token_cost = the full-source cost (canonical_token_cost) instead of the cost of their distilled inline bytes',
  },
  {
    mode: 'serve-unadvertised-representation',
    breaks: ['P5'],
    description: 'advertises representations ["full"] only, yet serves compact frames to every query',
  },
  {
    mode: 'answer-unadvertised-preference',
    breaks: ['P5'],
    description: 'asked for a representation it did not advertise (e.g. "reference"), serves compact frames instead of error unsupported_representation or falling back to full',
  },
  {
    mode: 'compact-without-resolve',
    breaks: ['S6.4.1-resolve-declared'],
    description: 'advertises representations ["full","compact"] with capabilities.resolve false',
  },
  {
    mode: 'reference-over-transport',
    breaks: ['S6.4.1-no-reference-over-transport'],
    description: 'advertises "reference" and serves every frame as a (well-formed, cost 0) reference frame over stdio/HTTP',
  },
  // ── budget (B1, B3, B4, truncation) ──────────────────────────────────────────────────────────
  {
    mode: 'lying-costs',
    breaks: ['B1', 'B3'],
    collateral: [{ id: 'P4', reason: 'on a compact answer the false token_cost is also not the cost of the inline rendering P4 names' }],
    description: 'declares token_cost 99999 on every frame',
  },
  {
    mode: 'under-report-cost',
    breaks: ['B3'],
    collateral: [{ id: 'P4', reason: 'on a compact answer the false token_cost is also not the cost of the inline rendering P4 names' }],
    description: 'declares token_cost 1 on every frame (the sum stays within max_tokens)',
  },
  {
    mode: 'flood-frames',
    breaks: ['B4'],
    description: 'answers every query with 64 one-token doc frames (frm_flood_0..63), ignoring max_frames; costs are honest',
  },
  {
    mode: 'ignore-max-frames',
    breaks: ['B4'],
    description: 'budgets by max_tokens only: a query with max_frames below the number of eligible frames gets more than max_frames',
  },
  {
    mode: 'ignore-max-tokens',
    breaks: ['B1'],
    description: 'budgets by max_frames only: per-frame costs stay honest but their sum exceeds a tight max_tokens',
  },
  {
    mode: 'silent-truncation',
    breaks: [],
    unbacked:
      'SPEC.md gives `truncated` no normative meaning (it appears only in the wire example and in §6.5.5 prose); the ' +
      'frames it returns still satisfy B1/B4, so no anchor or rule is broken. Kept as a fixture so a future rule can be witnessed.',
    description: 'drops frames to fit the budget but answers truncated:false with no dropped_estimate (misleading, but not a ' + 'violation of any SPEC anchor or rule: see `unbacked`)',
  },
  // ── query semantics (Q1, G1, G2, G4, S6.1, E1) ────────────────────────────────────────────────
  {
    mode: 'ignore-kinds',
    breaks: ['Q1'],
    description: 'ignores query.kinds and returns frames of every kind',
  },
  {
    mode: 'refuse-served-kinds',
    breaks: ['Q1'],
    description: 'answers every query with a non-empty kinds filter with error unsupported_kind, even for kinds it declares and serves',
  },
  {
    mode: 'case-folded-kinds',
    breaks: ['Q1'],
    description: 'matches query.kinds case-insensitively: kinds ["DOC"] is answered with frames of kind "doc" (Q1: a frame whose kind is outside kinds)',
  },
  {
    mode: 'ignore-anchors',
    breaks: ['G4'],
    description: 'when anchors are given, drops the anchored frames instead of ranking them first',
  },
  {
    mode: 'one-hop-via-nodes',
    breaks: ['G4'],
    description: "honours an anchor only when it is some frame's own uri (follows relations to nodes it serves); an anchor that is only a relation target is ignored",
  },
  {
    mode: 'reject-fractional-as-of',
    breaks: ['S6.1-as-of'],
    description: 'answers a query whose as_of has fractional seconds (2026-06-30T23:59:59.5Z, F4-grammatical) with bad_request',
  },
  {
    mode: 'anchors-no-effect',
    breaks: ['G4'],
    description: 'declares graph:true but ignores anchors entirely: ranking is unchanged (SHOULD), and under a tight max_frames the anchored frame it has is not returned (MUST)',
  },
  {
    mode: 'empty-relation-display-name',
    breaks: ['G1'],
    description: 'every relation has display_name ""',
  },
  {
    mode: 'empty-relation-target-uri',
    breaks: ['G2'],
    description: 'every relation has target_uri ""',
  },
  {
    mode: 'malformed-namespaced-rel',
    breaks: ['U3'],
    description: 'relations use rel "example-docs:" — a namespaced name with an empty name side (U3 requires vendor:name, both sides non-empty)',
  },
  {
    mode: 'ignore-as-of',
    breaks: ['S6.1-as-of'],
    description: 'ignores query.as_of: frames valid only after the pin (and frames expired before it) are returned',
  },
  {
    mode: 'ignore-valid-to',
    breaks: ['S6.1-as-of'],
    description: 'applies as_of to valid_from only: a frame whose valid_to precedes the pin is still returned',
  },
  {
    mode: 'accept-bad-embedding',
    breaks: ['E1'],
    description: 'a query vector whose length contradicts the declared dimension (8) is silently ignored and frames are returned',
  },
  {
    mode: 'resize-bad-embedding',
    breaks: ['E1'],
    description: 'a wrongly sized query vector is zero-padded or cut to 8 dimensions and used for scoring instead of bad_request',
  },
  // ── verify (V2–V4) ───────────────────────────────────────────────────────────────────────────
  {
    mode: 'vouch-foreign-provider-id',
    breaks: ['S6.5.2-provider-id'],
    description: "answers valid for a served frame named under another provider_id (e.g. a host's local label); docs/interpretations.md §32",
  },
  {
    mode: 'verify-uniform-verdict',
    breaks: ['V3'],
    description: 'answers every identity of one verify with the status of the first (right whenever a request is homogeneous; a mixed request shows it)',
  },
  {
    mode: 'rubber-stamp-verify',
    breaks: ['V3'],
    description: 'every verdict is valid, whatever the digest, id or provider',
  },
  {
    mode: 'hollow-verify',
    breaks: ['V2'],
    description: 'declares verify but every verdict is unknown',
  },
  {
    mode: 'refuse-verify',
    breaks: ['V2'],
    description: 'declares verify but answers every verify with error internal instead of verified',
  },
  {
    mode: 'gone-verified-valid',
    breaks: ['V3'],
    description: 'identities of retired frames (it used to serve them) are answered valid instead of gone',
  },
  {
    mode: 'malformed-replacement-digest',
    breaks: ['V4'],
    description: 'stale verdicts carry the current frame BODY as replacement_digest instead of the current digest',
  },
  // ── provenance attestation (§6.5: F6–F8, F11–F13) ──────────────────────────────────────────
  {
    mode: 'lifted-frame-signature',
    breaks: ['F7'],
    description:
      "the first frame's frame_attestations entry carries the provider's genuine signature over ANOTHER frame's commitment " +
      '(a signature lifted from one frame and stapled to another); a verifier reports commitment-mismatch for it',
  },
  {
    mode: 'altered-after-signing',
    breaks: ['F7', 'F12', 'F13'],
    description:
      "after signing, the first frame's provenance link is re-attributed (`by` edited): its per-frame signed_commitment, " +
      'the result root and its inclusion proof no longer recompute (verdict commitment-mismatch; the other frames stay attested through their proofs)',
  },
  {
    mode: 'root-over-candidates',
    breaks: ['F12'],
    collateral: [
      { id: 'F13', reason: 'a root over frames the answer does not carry makes the inclusion proofs of the frames it does carry fail against it (a wrong commitment also breaks the Merkle root)' },
    ],
    description:
      'result_attestation and the inclusion proofs are computed over every eligible candidate before budget truncation, so a truncated ' +
      "answer's root covers frames it does not carry (untruncated answers are unaffected)",
  },
  {
    mode: 'proof-not-recomputing',
    breaks: ['F13'],
    description: "the first frame's inclusion proof has a sibling hash altered, so it does not recompute the signed root (proof-mismatch)",
  },
  {
    mode: 'proof-replayed-at-other-index',
    breaks: ['F13'],
    description: "the first frame's inclusion proof keeps its path and sides but claims the next leaf_index, as if the index were decorative (proof-mismatch)",
  },
  {
    mode: 'attestation-inside-frame',
    breaks: ['F6', 'F11'],
    description:
      'each frame carries its per-frame attestation as a member "attestation"; frame_attestations and result_attestation are omitted ' +
      '(a verifier ignores the embedded copy: every frame is unattested, and kept — F9)',
  },
  {
    mode: 'positional-attestations',
    breaks: ['F11'],
    description:
      'signs per frame only (no root, no proofs) and frame_attestations entries carry no `frame` identity, implying it by array position ' + '(every entry is ignored: each frame is unattested)',
  },
  {
    mode: 'attest-foreign-frame',
    breaks: ['F11'],
    description:
      'adds a genuinely signed frame_attestations entry naming a frame the result does not carry (the best candidate truncated away, ' + 'else a retired frame); the carried frames stay attested',
  },
  {
    mode: 'unknown-attestation-algorithm',
    breaks: [],
    exercises: ['F8', 'F9'],
    description:
      'publishes a TEST-ONLY Ed448 attester key (algorithm "ed448") and signs roots and frames with genuine Ed448 signatures. ' +
      'A provider using an algorithm the verifier does not recognise is CONFORMANT: this mode exists to exercise the HOST side of F8 ' +
      '(the verdict must be uncheckable, never attested, and no frame dropped — F9)',
  },
  {
    mode: 'bad-attester-key-length',
    breaks: ['S2-wire-shape'],
    description:
      'publishes its ed25519 attester key with 33 bytes (66 hex characters) instead of 32 (64 lowercase hex, docs/interpretations.md §6); signatures are ' +
      'honest, but every attestation is uncheckable under that key',
  },
  // ── robustness and wire (R1, R2, U1, §2.1) ───────────────────────────────────────────────────
  {
    mode: 'crash-on-query',
    breaks: ['B1', 'B4', 'R1'],
    description: 'exits with code 1 on any query (a line that is not an envelope is still answered bad_request first)',
  },
  {
    mode: 'hang-on-query',
    // not B3: a query never answered carries no token_cost to get wrong (the B3 scenarios, whose checks need
    // an answer, are inconclusive — docs/interpretations.md §87)
    breaks: ['B1', 'B4'],
    description: 'never answers a query (no reply, no exit); handshake, verify and shutdown still work, so every query scenario times out',
  },
  {
    mode: 'crash-on-garbage',
    breaks: ['R1'],
    description: 'exits with code 1 on a line that is not an envelope',
  },
  {
    mode: 'mislabel-malformed',
    breaks: ['R1'],
    description: 'answers a line that is not an envelope with error code internal instead of bad_request',
  },
  {
    mode: 'silent-on-garbage',
    breaks: ['R1'],
    description: 'answers nothing to a line that is not an envelope (SHOULD reply bad_request); keeps serving',
  },
  {
    mode: 'deaf-after-garbage',
    breaks: ['R1'],
    description: 'replies bad_request to a malformed line, then answers nothing but shutdown (docs/interpretations.md §8)',
  },
  // ── one malformed request type: each must give exactly its own finding (docs/interpretations.md §88) ──
  {
    mode: 'silent-on-malformed-verify',
    breaks: ['H4'],
    description: 'never answers a verify whose request.frames is not an array (no reply, no exit); everything else is served',
  },
  {
    mode: 'exit-on-malformed-verify',
    breaks: ['H4'],
    description: 'exits with code 1 (a crash) on a verify whose request.frames is not an array',
  },
  {
    mode: 'malformed-query-error-drops-id',
    breaks: ['H4'],
    description: "answers a query whose max_frames is not a number with an error that drops the query's id (other errors keep theirs)",
  },
  {
    mode: 'crash-on-deep-nesting',
    breaks: ['R1'],
    description: 'exits with code 1 on a valid envelope nested more than 64 levels deep (an unknown member holding nested arrays)',
  },
  {
    mode: 'ignore-shutdown',
    breaks: ['R2'],
    description: 'ignores shutdown (and the end of its input) and keeps running until killed',
  },
  {
    mode: 'exit-nonzero-on-shutdown',
    breaks: ['R2'],
    description: 'exits with code 3 on shutdown (docs/interpretations.md §7 requires code 0)',
  },
  {
    mode: 'reject-unknown-members',
    breaks: ['U1'],
    collateral: [{ id: 'S13-interop-validator', reason: 'rejecting an envelope for an unknown member is exactly what the interop-validator rule forbids (U1 restated for validators)' }],
    description: 'answers error bad_request to any envelope or query carrying a member it does not recognise',
  },
  {
    mode: 'reply-to-unknown-notification',
    breaks: ['S2.1-unknown-type'],
    collateral: [{ id: 'S3.2-notification', reason: 'the same reply: a notification gets no reply (S3.2), and an unknown type is ignored (S2.1)' }],
    description: 'answers an unrecognised notification (unknown type, no id) with error bad_request instead of ignoring it',
  },
  {
    mode: 'silent-on-unknown-request',
    breaks: ['S2.1-unknown-type'],
    description: 'answers nothing to a payload-bearing request of an unknown type instead of error bad_request',
  },
  {
    mode: 'newline-in-envelope',
    breaks: ['S2.1-no-newline'],
    description: 'writes every envelope pretty-printed over several lines (literal newlines inside one envelope)',
  },
  // ── edges (docs/interpretations.md §111–§116): each caught only by its probe in features/provider/edges.feature ──
  {
    mode: 'zero-max-tokens-unbounded',
    breaks: ['B1'],
    description: 'reads max_tokens 0 as "no limit" and returns frames (any positive max_tokens is honoured)',
  },
  {
    mode: 'frames-fast-path-off-by-one',
    breaks: ['B4'],
    description: 'skips truncation when max_frames is at least the eligible count minus one: max_frames one below it returns every frame',
  },
  {
    mode: 'tokens-fast-path-off-by-one',
    breaks: ['B1'],
    description: "skips budget packing when max_tokens is at least the eligible frames' total cost minus one: one token short, every frame comes back",
  },
  {
    mode: 'crash-on-budget-overflow',
    breaks: ['R1'],
    description: 'exits with code 1 on a query whose max_frames or max_tokens is a number beyond u32 (4294967296)',
  },
  {
    mode: 'accept-short-embedding',
    breaks: ['E1'],
    description: 'refuses a query vector longer than the declared dimension, but pads a shorter one with zeros and answers it',
  },
  {
    mode: 'numeric-id-normalised',
    breaks: ['H4'],
    description: 'echoes a correlation id that looks like a number as that number\'s canonical spelling ("007" comes back "7")',
  },
  {
    mode: 'refuse-empty-verify',
    breaks: ['V2'],
    description: 'answers a verify naming no identity (request.frames []) with error bad_request instead of a verified reply',
  },
  {
    mode: 'split-long-lines',
    breaks: ['R1'],
    description: 'reads a line longer than 64 KiB as several lines (a fixed read buffer): one bad_request per piece, so replies fall out of step',
  },
  {
    mode: 'crash-on-very-deep-nesting',
    breaks: ['R1'],
    description: 'exits with code 1 on a valid envelope nested more than 1000 levels deep (a recursive parser); 512 levels pass',
  },
  {
    mode: 'case-folded-members',
    breaks: ['U1'],
    description: "reads member names case-insensitively, the last spelling winning: a query's Max_Frames overrides its max_frames, an envelope's Type its type",
  },
  {
    mode: 'millisecond-as-of',
    breaks: ['S6.1-as-of'],
    description: 'refuses an as_of with more than three fractional digits (the F4 profile allows any number) with bad_request',
  },
  {
    mode: 'lenient-as-of',
    breaks: ['R1'],
    description: 'answers a query whose as_of is off the F4 profile (lower-case t, an offset, a space) with frames instead of bad_request',
  },
  {
    mode: 'first-anchor-only',
    breaks: ['G4'],
    description: 'reads only the first of several query anchors: an anchor in second place anchors nothing',
  },
  {
    mode: 'prefix-matched-kinds',
    breaks: ['Q1'],
    description: 'matches a requested kind against served kinds it is a prefix of: kinds ["do"] returns doc frames',
  },
  {
    mode: 'bounded-minor',
    // refusing an in-family minor is also the S3.1 SHOULD (compare major families) unmet
    breaks: ['H1', 'S3.1-compare-families'],
    description: 'reads the minor version as a u32 and refuses contextgraph/1.<minor beyond 4294967295> with incompatible_version (§3.1 minor = 1*DIGIT)',
  },
] as const satisfies readonly Misbehaviour[];

export type MisbehaviourMode = (typeof MISBEHAVIOURS)[number]['mode'];

export const MISBEHAVIOUR_MODES: readonly MisbehaviourMode[] = MISBEHAVIOURS.map((m) => m.mode);

export function isMisbehaviourMode(value: unknown): value is MisbehaviourMode {
  return typeof value === 'string' && (MISBEHAVIOUR_MODES as readonly string[]).includes(value);
}

export function findMisbehaviour(mode: string): Misbehaviour | undefined {
  return MISBEHAVIOURS.find((m) => m.mode === mode);
}
