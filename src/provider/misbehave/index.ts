/**
 * Every misbehaviour mode's implementation, keyed by the manifest's mode names. The declared type
 * makes a manifest entry without hooks a compile error; each group's `satisfies ModeHooks` makes
 * hooks without a manifest entry one too.
 */
import type { Hooks } from '../hooks.js';
import type { MisbehaviourMode } from '../misbehaviours.js';
import { ATTESTATION_MODES } from './attestation.js';
import { BUDGET_MODES } from './budget.js';
import { CORRELATION_MODES } from './correlation.js';
import { EDGE_MODES } from './edges.js';
import { FRAME_MODES } from './frames.js';
import { HANDSHAKE_MODES } from './handshake.js';
import { QUERY_MODES } from './query.js';
import { REPRESENTATION_MODES } from './representation.js';
import { VERIFY_MODES } from './verify.js';
import { WIRE_MODES } from './wire.js';

export const MISBEHAVIOUR_HOOKS: Readonly<Record<MisbehaviourMode, Hooks>> = {
  ...HANDSHAKE_MODES,
  ...CORRELATION_MODES,
  ...FRAME_MODES,
  ...REPRESENTATION_MODES,
  ...BUDGET_MODES,
  ...QUERY_MODES,
  ...VERIFY_MODES,
  ...WIRE_MODES,
  ...ATTESTATION_MODES,
  ...EDGE_MODES,
};
