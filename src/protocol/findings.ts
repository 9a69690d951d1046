/**
 * Findings: the one shape every protocol check reports in.
 *
 * A finding names the anchor (`B3`) or unanchored rule id (`S6.3-content-digest`) it
 * witnesses, an RFC 6901 JSON pointer into the message that was checked, and a message
 * that starts with the id and says what was seen versus what is required.
 *
 * Severity: a violated MUST is an `error`; a SHOULD not met, or an unanchored definition
 * not met, is a `warning` (reported, never a failing exit).
 */

export type Severity = 'error' | 'warning';

export interface Finding {
  /** Anchor (`B3`) or rule id (`S6.3-content-digest`). */
  id: string;
  severity: Severity;
  /** RFC 6901 JSON pointer into the checked message ('' = the whole message). */
  pointer: string;
  /** Starts with `id`; says seen vs required. */
  message: string;
  /** Indices into the scenario's wire transcript of the lines that show it (the request and its reply). */
  wire?: number[];
}

/**
 * Rule id for a message whose normative wire shape is broken where a check needs it (a member
 * absent or of the wrong JSON type, the version grammar, a closed vocabulary): §2 "wire shapes …
 * and the format grammars are normative".
 */
export const WIRE_SHAPE = 'S2-wire-shape';

/** A violated MUST: `<id> violated: <detail>`. */
export function violation(id: string, pointer: string, detail: string): Finding {
  return { id, severity: 'error', pointer, message: `${id} violated: ${detail}` };
}

/** A SHOULD (or unanchored definition) not met: `<id> warning: <detail>`. */
export function warning(id: string, pointer: string, detail: string): Finding {
  return { id, severity: 'warning', pointer, message: `${id} warning: ${detail}` };
}

/** True when any finding is an error (a MUST failed). */
export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error');
}
