/**
 * Base vocabularies of contextgraph/1.0, as the protocol checks see them.
 * Open vocabularies (kind, rel, egress_scope, error code) only ever grow within the family
 * (U2); these lists are what THIS implementation recognises, never a reason to reject.
 */

// U2: the FrameKind base vocabulary (§6).
export const FRAME_KINDS = ['snippet', 'symbol', 'fact', 'doc', 'memory', 'episode', 'graph'] as const;
// §6.4: how a frame carries its content; absent means full.
export const REPRESENTATIONS = ['full', 'compact', 'reference'] as const;
// V3: a verdict is one of these.
export const VERDICT_STATUSES = ['valid', 'stale', 'gone', 'unknown'] as const;
// §4.1: the four normative base egress classes; everything but local-only is off-machine.
export const BASE_EGRESS_SCOPES = ['local-only', 'org-tenant', 'third-party-index', 'third-party-model'] as const;
// §10: the base error codes.
export const BASE_ERROR_CODES = [
  'bad_request',
  'unsupported_kind',
  'unsupported_representation',
  'incompatible_version',
  'budget_unsatisfiable',
  'unavailable',
  'shutting_down',
  'internal',
] as const;
// §8.1: the published rel names.
export const BASE_RELS = [
  'code.calls',
  'code.imports',
  'code.defines',
  'code.references',
  'doc.documents',
  'episode.follows',
] as const;
