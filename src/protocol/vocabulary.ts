/**
 * Base vocabularies of contextgraph/1.0, generated from the schema (generated/types).
 * Open vocabularies (kind, rel, egress_scope, error code) only ever grow within the family
 * (U2); these lists are what THIS implementation recognises, never a reason to reject.
 */
export {
  FRAME_KINDS, // U2: the FrameKind base vocabulary (§6)
  REPRESENTATIONS, // §6.4: absent means full
  VERDICT_STATUSES, // V3
  BASE_EGRESS_SCOPES, // §4.1: everything but local-only is off-machine
  BASE_ERROR_CODES, // §10
  BASE_RELS, // §8.1
} from '../../generated/types/index.js';
