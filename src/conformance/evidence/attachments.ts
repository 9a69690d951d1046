/**
 * The media types of the cucumber attachments a scenario leaves in its messages file: the contract between
 * the steps that write them (steps/world.ts, steps/hooks.ts, steps/host/hooks.ts) and everything that reads a
 * run back (src/conformance/report/messages.ts, src/conformance/provider-suite/summary.ts). One home, so a writer
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

/**
 * What a harness-error attachment (`{harness_error: message}`) makes of its scenario. Neither is ever a
 * failure of the target nor a pass (docs/architecture.md "How a verdict is made"):
 * - `unverified`: the host under test lacks a test hook, or a never-waived MUST could not be driven on it
 *   ("unverified: needs <capability> — …", src/conformance/host-suite/capabilities.ts);
 * - `inconclusive`: everything else — a precondition of the check failed ("could not observe <ID>: <cause>"),
 *   a host broke the control contract, or the suite itself went wrong.
 */
export type HarnessOutcome = 'inconclusive' | 'unverified';

const UNVERIFIED = /(?:^|: )unverified: needs (\S+)/;

/**
 * The reason as a reader should see it: "unverified: needs …" and "could not observe <ID>: …" without the
 * "harness error (not a target finding): " that the HarnessError class they travel as puts in front
 * (src/conformance/provider-suite/errors.ts) — they are not the suite's fault. Anything else keeps its words.
 */
export function harnessReason(message: string): string {
  return message.replace(/^harness error \(not a target finding\): (?=unverified: needs |could not observe )/, '');
}

export function harnessOutcome(message: string): HarnessOutcome {
  return UNVERIFIED.test(message) ? 'unverified' : 'inconclusive';
}

/** The capability an unverified scenario needs ("unverified: needs http — …" → http), else undefined. */
export function unverifiedCapability(message: string): string | undefined {
  return UNVERIFIED.exec(message)?.[1];
}
