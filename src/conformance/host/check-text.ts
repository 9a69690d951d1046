/** Small helpers the host-suite checks share to render what they saw in a finding's message. */

/** An error as `Name: message` (anything else as its string form). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/** A member of an error-like object (code, retryable, …), or undefined. */
export function memberOf(err: unknown, key: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[key] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A value as compact JSON ("absent" for undefined), cut at `max` characters. */
export function showValue(value: unknown, max = 100): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
