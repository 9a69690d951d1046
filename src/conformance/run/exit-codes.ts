/**
 * The exit codes of every `cgp-conformance` command: one table, read by the code that exits, by the
 * library API (src/index.ts) and by each command's `--help` (exitCodesHelp). A command whose 0 or 1 means
 * something more specific (fuzz: "a finding"; replay: "the finding reproduces") overrides the wording,
 * never the number (docs/architecture.md "Exit codes").
 */

/** Conformant: no MUST failed (warnings allowed, unless `--strict`). */
export const EXIT_OK = 0;
/** A MUST failed (a handshake that answers wrongly is a finding, so 1); for fuzz/replay, a finding. */
export const EXIT_MUST_FAILED = 1;
/** Usage or configuration error: unknown option, a tag expression selecting nothing, a missing adapter. */
export const EXIT_USAGE = 2;
/** The target never answered the handshake at all (spawn failure, connection refused, no bytes in time). */
export const EXIT_NEVER_ANSWERED = 3;
/** Harness error: the harness could not establish its own precondition; the run is inconclusive. */
export const EXIT_HARNESS_ERROR = 4;

export type ExitCode = typeof EXIT_OK | typeof EXIT_MUST_FAILED | typeof EXIT_USAGE | typeof EXIT_NEVER_ANSWERED | typeof EXIT_HARNESS_ERROR;

/** What each code means for a suite command (stdio, http, host, certify). */
export const EXIT_CODE_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [EXIT_OK]: 'conformant (warnings allowed)',
  [EXIT_MUST_FAILED]: 'a MUST failed',
  [EXIT_USAGE]: 'usage or configuration error (unknown option, bad tag expression, missing adapter, …)',
  [EXIT_NEVER_ANSWERED]: 'the target never answered the handshake',
  [EXIT_HARNESS_ERROR]: 'harness error: the run is inconclusive',
};

/** The "Exit codes:" block a command's `--help` ends with; `overrides` rewords a code for that command. */
export function exitCodesHelp(overrides: Partial<Record<ExitCode, string>> = {}): string {
  const codes = Object.keys(EXIT_CODE_MEANINGS).map(Number) as ExitCode[];
  return `\nExit codes:\n${codes.map((c) => `  ${c}  ${overrides[c] ?? EXIT_CODE_MEANINGS[c]}`).join('\n')}`;
}
