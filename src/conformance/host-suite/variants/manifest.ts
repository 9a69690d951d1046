/**
 * The host misbehaviour manifest: misbehaving variants of the bundled host, one per host-side MUST
 * (docs/architecture.md "Misbehaviour manifest"). Each entry names the ids it breaks; the host red team
 * (scripts/run-red-team.ts --side host) runs the host scenarios tagged with those ids against the
 * variant and requires each id to be reported failed by at least one of them.
 *
 * A variant is the bundled host with ONE thing changed: a Host policy switch (`policies`, the
 * connection/consent layer) or a wrapper around the host-under-test surface (`wrap`, for what the host
 * hands its caller: composition, usage, attribution, verify). A wrapper changes only what its entry
 * names, so a scenario about anything else still passes against it.
 */
import type { HostUnderTest } from '../../../host/under-test.js';
import type { HostPolicies } from '../../../host/host.js';
import { COMPOSITION_VARIANTS } from './composition.js';
import { CONNECTION_VARIANTS } from './connection.js';
import { EXTENSIBILITY_VARIANTS } from './extensibility.js';
import { PROOFS_VARIANTS } from './proofs.js';
import { TRANSPORT_VARIANTS } from './transport.js';
import { VERIFY_VARIANTS } from './verify.js';
import { IDENTITY_VARIANTS } from './identity.js';

export interface HostMisbehaviour {
  /** CGP_HOST_MISBEHAVE=<mode>. */
  mode: string;
  /** Anchor or rule ids this variant violates. */
  breaks: readonly string[];
  /** Zero-collateral allow-list: other ids this variant may also fail or warn, each with why (red team gate). */
  collateral?: ReadonlyArray<{ id: string; reason: string }>;
  description: string;
  policies?: HostPolicies;
  wrap?: (honest: HostUnderTest) => HostUnderTest;
}

const CONSENT_VARIANTS: readonly HostMisbehaviour[] = [
  {
    mode: 'skip-consent-gate',
    breaks: ['C1', 'C2', 'C6'],
    description: 'queries egress providers without a recorded consent (the gate never runs)',
    policies: { skipConsentGate: true },
  },
  {
    mode: 'custom-scope-on-machine',
    breaks: ['C6'],
    description: 'treats an unrecognised custom egress scope (vendor:name) as on-machine, so it is queried without a receipt for that scope (§4.1: an unknown destination leaves)',
    policies: { customScopesOnMachine: true },
  },
];

// One table, assembled from the groups (each group's variants live in src/conformance/host-suite/variants/).
export const HOST_MISBEHAVIOURS: readonly HostMisbehaviour[] = [
  ...CONSENT_VARIANTS,
  ...TRANSPORT_VARIANTS,
  ...CONNECTION_VARIANTS,
  ...COMPOSITION_VARIANTS,
  ...VERIFY_VARIANTS,
  ...EXTENSIBILITY_VARIANTS,
  ...PROOFS_VARIANTS,
  ...IDENTITY_VARIANTS,
];

export class UnknownHostMisbehaviour extends Error {
  constructor(mode: string) {
    super(`unknown host misbehaviour ${JSON.stringify(mode)}; known: ${HOST_MISBEHAVIOURS.map((m) => m.mode).join(', ')}`);
    this.name = 'UnknownHostMisbehaviour';
  }
}

export function hostMisbehaviour(mode: string): HostMisbehaviour {
  const entry = HOST_MISBEHAVIOURS.find((m) => m.mode === mode);
  if (entry === undefined) throw new UnknownHostMisbehaviour(mode);
  return entry;
}

/** The name the red team reads a manifest by (scripts/run-red-team.ts --side host). */
export const MISBEHAVIOURS = HOST_MISBEHAVIOURS;
