/**
 * Error codes and host reactions (§10, X1, X2, S10-not-retryable).
 *
 * The code vocabulary is open. X1: an unrecognised code MUST be treated as `internal`.
 * X2: an absent code MUST be treated as `internal`. Both default to the conservative
 * reading: a host never infers "safe to retry" from a code it does not understand, or from
 * silence. `incompatible_version` is permanent: never retryable (S10-not-retryable).
 */
import { BASE_ERROR_CODES } from './vocabulary.js';

export { BASE_ERROR_CODES };
export type BaseErrorCode = (typeof BASE_ERROR_CODES)[number];

export type HostReaction = 'do-not-retry' | 'narrow-or-skip' | 'request-full-or-skip' | 'drop-provider' | 'raise-budget-or-skip' | 'retry-with-backoff' | 'respawn-or-drop' | 'report-and-count';

/** The §10 table: code → host reaction. */
export const ERROR_REACTIONS: Readonly<Record<BaseErrorCode, HostReaction>> = {
  bad_request: 'do-not-retry', // malformed or unintelligible query
  unsupported_kind: 'narrow-or-skip', // requested kinds not served
  unsupported_representation: 'request-full-or-skip', // representation not offered (§6.4)
  incompatible_version: 'drop-provider', // H3: do not retry; the provider is unusable
  budget_unsatisfiable: 'raise-budget-or-skip', // budget too small for any meaningful frame
  unavailable: 'retry-with-backoff', // transient overload, backing store down
  shutting_down: 'respawn-or-drop', // provider is tearing down
  internal: 'report-and-count', // provider fault; count against health
};

export function isBaseErrorCode(value: unknown): value is BaseErrorCode {
  return typeof value === 'string' && (BASE_ERROR_CODES as readonly string[]).includes(value);
}

export interface EffectiveCode {
  /** The code a host acts on. */
  code: BaseErrorCode;
  /** The code as received, kept verbatim for display (U2); undefined when absent. */
  original: string | undefined;
  /** Why `code` differs from `original`: X2 absent, X1 unrecognised; undefined when recognised. */
  defaultedBy: 'X1' | 'X2' | undefined;
}

/**
 * The code a host acts on. Absent (or null) ⇒ internal (X2); any value that is not a base
 * code — a vendor `acme:quota`, a later-minor code, or a non-string — ⇒ internal (X1).
 */
export function effectiveCode(code: unknown): EffectiveCode {
  if (code === undefined || code === null) return { code: 'internal', original: undefined, defaultedBy: 'X2' };
  const original = typeof code === 'string' ? code : JSON.stringify(code);
  if (isBaseErrorCode(code)) return { code, original, defaultedBy: undefined };
  return { code: 'internal', original, defaultedBy: 'X1' };
}

/** The §10 host reaction for a received code (via effectiveCode, so X1/X2 apply). */
export function reactionFor(code: unknown): HostReaction {
  return ERROR_REACTIONS[effectiveCode(code).code];
}

/**
 * Only transient codes are retryable: `unavailable` (back off) and `shutting_down` (re-spawn).
 * Never `incompatible_version` (S10-not-retryable), never an unknown or absent code (X1/X2).
 */
export function isRetryable(code: unknown): boolean {
  const reaction = reactionFor(code);
  return reaction === 'retry-with-backoff' || reaction === 'respawn-or-drop';
}
