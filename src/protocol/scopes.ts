/**
 * Egress scopes (§4.1) and the C5 consistency rule.
 *
 * Base classes: local-only, org-tenant, third-party-index, third-party-model. The vocabulary
 * extends by namespaced custom scopes (`vendor:name`, U3). Everything but `local-only` is
 * off-machine, an unrecognised custom scope included: an unknown destination leaves, so a
 * host never under-gates.
 */
import { isJsonObject } from './json-value.js';
import { classifyName } from './namespaced-name.js';
import { BASE_EGRESS_SCOPES } from './vocabulary.js';

export { BASE_EGRESS_SCOPES };
export type BaseEgressScope = (typeof BASE_EGRESS_SCOPES)[number];

export function isBaseScope(value: unknown): value is BaseEgressScope {
  return typeof value === 'string' && (BASE_EGRESS_SCOPES as readonly string[]).includes(value);
}

/**
 * A base scope or a namespaced custom scope (`vendor:name`, non-empty both sides, split at the
 * first `:` — U3). An unprefixed unknown name is not valid for a 1.0 implementation (see
 * namespaced-name.ts for how checks grade it).
 */
export function isValidScope(value: unknown): value is string {
  const c = classifyName(value, BASE_EGRESS_SCOPES);
  return c === 'base' || c === 'namespaced';
}

/** Everything but `local-only` is off-machine, unknown custom scopes included (§4.1). */
export function isOffMachine(scope: unknown): boolean {
  return scope !== 'local-only';
}

/** The declared scopes of a DataFlow, or [] when absent or not an array. */
export function declaredScopes(dataFlow: unknown): unknown[] {
  if (!isJsonObject(dataFlow) || !Array.isArray(dataFlow.egress_scopes)) return [];
  return dataFlow.egress_scopes;
}

/** The declared off-machine scopes of a DataFlow. */
export function offMachineScopes(dataFlow: unknown): unknown[] {
  return declaredScopes(dataFlow).filter(isOffMachine);
}

/**
 * C5: an off-machine egress scope MUST NOT be declared alongside `egress: false`.
 * Anything but a literal `egress: true` counts as a local posture (absent defaults to false).
 * Scope grammar (U3) is a separate check: `isValidScope`.
 */
export function scopesConsistent(dataFlow: unknown): boolean {
  const egress = isJsonObject(dataFlow) && dataFlow.egress === true;
  return egress || offMachineScopes(dataFlow).length === 0;
}
