/** Small helpers the host-suite checks share to render what they saw in a finding's message. */
import { HarnessError } from '../suite/errors.js';

/** An error as `Name: message` (anything else as its string form). */
export { describeError } from '../suite/errors.js';

/** A member of an error-like object (code, retryable, …), or undefined. */
export function memberOf(err: unknown, key: string): unknown {
  return typeof err === 'object' && err !== null ? (err as Record<string, unknown>)[key] : undefined;
}

/** A value as compact JSON ("absent" for undefined), cut at `max` characters. */
export function showValue(value: unknown, max = 100): string {
  const text = value === undefined ? 'absent' : (JSON.stringify(value) ?? String(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/**
 * The harness could not set up its own precondition (its own provider served nothing to judge, a script
 * names no subject): the run is inconclusive — a harness error (exit 4), never a finding against the host.
 */
export function harnessPrecondition(id: string, message: string): never {
  throw new HarnessError(`${id} could not be witnessed: ${message}`);
}
