/**
 * Protocol version strings and major-family compatibility (§3.1, H1, H3).
 *
 *   version-string = "contextgraph/" major "." minor [ "-draft" ]
 *   major = 1*DIGIT ; minor = 1*DIGIT
 *
 * The major family is the substring up to (not including) the first `.`; two versions
 * interoperate iff they share a major family. We send PROTOCOL_VERSION and accept any
 * `contextgraph/1.x[-draft]` (docs/interpretations.md §1).
 */

export const PROTOCOL_VERSION = 'contextgraph/1.0';

// §3.1 grammar; DIGIT is ASCII 0-9 only, and `$` (no `m` flag) anchors at end of input.
const VERSION_RE = /^contextgraph\/([0-9]+)\.([0-9]+)(-draft)?$/;

export function isVersionString(value: unknown): value is string {
  return typeof value === 'string' && VERSION_RE.test(value);
}

/** Substring up to (not including) the first `.`; the whole string when there is none. */
export function majorFamily(version: string): string {
  const dot = version.indexOf('.');
  return dot < 0 ? version : version.slice(0, dot);
}

/** The protocol family we implement: `contextgraph/1`. */
export const PROTOCOL_FAMILY = majorFamily(PROTOCOL_VERSION);

/**
 * H1/H3: both are grammatical version strings of the same major family.
 * Stricter than comparing prefixes alone: a string outside the grammar belongs to no family,
 * so `contextgraph/1` (no minor) is never compatible with anything.
 */
export function versionsCompatible(a: unknown, b: unknown): boolean {
  return isVersionString(a) && isVersionString(b) && majorFamily(a) === majorFamily(b);
}

/** The minor number of a grammatical version string, else undefined. */
export function minorVersion(version: unknown): number | undefined {
  if (typeof version !== 'string') return undefined;
  const m = VERSION_RE.exec(version);
  return m ? Number(m[2]) : undefined;
}
