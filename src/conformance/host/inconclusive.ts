/**
 * A host-side step could not set up what its check needs (a precondition of the scenario failed): the
 * scenario is INCONCLUSIVE — a harness-side error, counted apart, never a finding against the host
 * (docs/interpretations.md §97). Its message begins `could not observe <ID>: <cause>`.
 */
import { HarnessError } from '../suite/errors.js';

export class Inconclusive extends HarnessError {
  constructor(readonly id: string, cause: string) {
    super(`could not observe ${id}: ${cause}`);
    // the shape every report prints: no "harness error" prefix, the id first
    this.message = `could not observe ${id}: ${cause}`;
    this.name = 'Inconclusive';
  }
}

/** Throw the Inconclusive for `id`: what its check needed was not set up (never a violation). */
export function notObserved(id: string, cause: string): never {
  throw new Inconclusive(id, cause);
}
