/**
 * A host-side step could not set up what its check needs (a precondition of the scenario failed): the
 * scenario is INCONCLUSIVE — counted apart, never a finding against the host (docs/interpretations.md §97).
 * One class for both sides: the provider suite's `Inconclusive` (src/conformance/provider-suite/errors.ts), whose
 * message begins `could not observe <ID>: <cause>`.
 */
import { Inconclusive } from '../provider-suite/errors.js';

export { Inconclusive };

/** Throw the Inconclusive for `id`: what its check needed was not set up (never a violation). */
export function notObserved(id: string, cause: string): never {
  throw new Inconclusive(id, cause);
}
