/**
 * The media types of the cucumber attachments a scenario leaves in its messages file: the contract between
 * the steps that write them (steps/world.ts, steps/hooks.ts, steps/host/hooks.ts) and everything that reads a
 * run back (src/conformance/report/messages.ts, src/conformance/suite/summary.ts). One home, so a writer
 * and a reader cannot drift apart (docs/architecture.md "How a verdict is made").
 */

/** A finding (`{id, severity, pointer, message}`), one attachment each. */
export const FINDING_MEDIA_TYPE = 'application/vnd.cgp.finding+json';
/** `{not_applicable: reason}`: the scenario does not apply to this target, and why. */
export const APPLICABILITY_MEDIA_TYPE = 'application/vnd.cgp.applicability+json';
/** `{harness_error: message}`: the suite itself went wrong; never counted against the target. */
export const HARNESS_ERROR_MEDIA_TYPE = 'application/vnd.cgp.harness-error+json';
/** The scenario's wire transcript, one WireEntry per line (src/conformance/evidence/evidence.ts). */
export const TRANSCRIPT_MEDIA_TYPE = 'application/x-ndjson';
/** The target as it identified itself (its handshake_ack), attached once per run. */
export const TARGET_MEDIA_TYPE = 'application/vnd.cgp.target+json';
