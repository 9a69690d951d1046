/**
 * Failures are of two kinds and are never confused:
 * - a TARGET failure: the provider under test violated a MUST, or did not answer (timeout, crash, garbage).
 *   Its message starts with the anchor/rule id and says what was seen vs what is required.
 * - a HARNESS error: a bug or misconfiguration of the suite itself. Its message starts with
 *   "harness error" and it is attached apart (media type HARNESS_ERROR_MEDIA_TYPE), so a report never
 *   counts it against the target.
 */
import { TransportError } from '../../transport/errors.js';

/** A MUST-level conformance failure of the target (the scenario fails). */
export class ConformanceFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConformanceFailure';
    // A target failure is about the target, not about where the harness noticed it: reporters print the
    // stack, and it must start with the anchor/rule id (docs/architecture.md "Failure messages"). The one V8-style frame
    // line makes cucumber's stack parser read it as a V8 stack: a message line with ':' and quotes but no
    // frame would otherwise be read as a Firefox stack, whose parser backtracks for minutes on such lines.
    this.stack = `${message}\n    at cgp-conformance (native)`;
  }
}

/** The suite itself went wrong; not a finding about the target. */
export class HarnessError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message.startsWith('harness error') ? message : `harness error (not a target finding): ${message}`, options);
    this.name = 'HarnessError';
  }
}

/**
 * A failed precondition: what the scenario's check needs could not be set up (no handshake_ack, no reply to
 * the baseline query, a lost connection that could not be replaced), so nothing about its ids was observed.
 * Never a violation (docs/interpretations.md §87): it travels the harness-error path (attached apart, never
 * counted against the target) with a message of its own, `could not observe <IDs>: <cause>`.
 */
export class Inconclusive extends HarnessError {
  readonly ids: readonly string[];
  readonly reason: string;
  constructor(ids: readonly string[] | string, cause: string, options?: { cause?: unknown }) {
    const list = typeof ids === 'string' ? [ids] : [...ids];
    const message = `could not observe ${list.join(', ')}: ${cause}`;
    super(message, options);
    this.message = message;
    this.name = 'Inconclusive';
    this.ids = list;
    this.reason = cause;
  }
}

/** Errors that come from the target's behaviour on the wire (as opposed to our own bugs). */
export function isTargetError(err: unknown): boolean {
  if (err instanceof TransportError) return !['connection_closed', 'invalid_url', 'insecure_transport'].includes(err.code);
  return err instanceof Error && err.name === 'NoReplyError';
}

export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
