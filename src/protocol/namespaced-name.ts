/**
 * U3: names containing `:` are reserved for namespacing. A vendor-specific rel, egress_scope
 * or error code MUST be `vendor:name`, non-empty on both sides; unprefixed names belong to
 * the protocol.
 *
 * Decision: the name splits at the FIRST `:`. `acme:vector-store` and `acme:a:b` (name `a:b`)
 * are namespaced; `:x`, `acme:` and `:` are malformed. An unprefixed name we do not know is
 * `unprefixed-unknown`: it may be a base value a later 1.x minor added (U2 forbids rejecting
 * it) or a vendor value missing its namespace (U3) — the two cannot be told apart, so checks
 * report it as a warning, never an error.
 */

export type NameClass = 'base' | 'namespaced' | 'malformed-namespace' | 'unprefixed-unknown' | 'empty' | 'not-a-string';

export function classifyName(value: unknown, base: readonly string[]): NameClass {
  if (typeof value !== 'string') return 'not-a-string';
  if (base.includes(value)) return 'base';
  const colon = value.indexOf(':');
  if (value.length === 0) return 'empty';
  if (colon < 0) return 'unprefixed-unknown';
  return colon > 0 && colon < value.length - 1 ? 'namespaced' : 'malformed-namespace';
}

/** `vendor:name` with non-empty sides (U3). */
export function isNamespacedName(value: unknown): value is string {
  return classifyName(value, []) === 'namespaced';
}
