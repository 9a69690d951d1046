/**
 * Host capabilities (docs/host-control-protocol.md, Capabilities): the closed set a host may declare in
 * its `init` result, and the ONE table saying which scenarios each capability decides — printed by
 * `cgp-conformance explain host-capabilities`.
 *
 * A scenario names what it needs with `@needs-<capability>` tags. When the host lacks one (it declared
 * its capabilities without it, or answered `not_supported` to the operation the scenario needed):
 *  - the scenario is NOT APPLICABLE, with a reason naming the capability, when every anchor it judges is
 *    conditional in SPEC.md (a MAY, "a host reporting X", "a host's HTTP transport", "a verifier", …);
 *  - it is INCONCLUSIVE — "unverified: needs <capability>", counted apart, never a pass and never a
 *    failure — when the missing capability is a test hook (the host may well be conformant; the suite
 *    cannot observe it) or when the scenario judges a MUST that binds every host: such a MUST is never
 *    waived by a declaration (NEVER_WAIVED).
 */
import { HarnessError } from '../provider-suite/errors.js';

export const HOST_CAPABILITIES = ['revoke', 'attribution', 'score-thresholds', 'compose-strategies', 'attestation-checks', 'http', 'https-test-ca', 'name-resolution-hook', 'embedding'] as const;

export type HostCapability = (typeof HOST_CAPABILITIES)[number];

export interface CapabilityEntry {
  capability: HostCapability;
  /** `feature`: a host feature the spec makes optional or conditional; `hook`: a test hook only. */
  kind: 'feature' | 'hook';
  /** The operations (or option) that need it. */
  ops: string;
  /** The scenarios' anchors it decides (by their @needs-<capability> tags). */
  anchors: readonly string[];
  /** Why its absence is not a failure (SPEC.md's wording). */
  basis: string;
  /**
   * Never-waived ids a scenario needing this capability may also carry, which OTHER scenarios witness on
   * every host (so the scenario is not applicable, not unverified): C2 beside revocation (the consent gate
   * is witnessed without revoking), F10 beside a single-provider threshold (F10 has scenarios of its own).
   */
  witnessedElsewhere?: readonly string[];
}

export const CAPABILITY_TABLE: readonly CapabilityEntry[] = [
  {
    capability: 'revoke',
    kind: 'feature',
    ops: 'revokeConsent',
    anchors: ['C2 (the revocation scenario only)'],
    basis:
      'C1 asks for revocable consent but names no operation: a host may let its user withdraw consent by other means (the ledger, a setting), which the suite cannot drive; the revocation scenario observes the effect of the revokeConsent operation only',
    witnessedElsewhere: ['C2'],
  },
  {
    capability: 'attribution',
    kind: 'feature',
    ops: 'attribute',
    anchors: ['A1', 'A2', 'A3'],
    basis: 'SPEC.md §14: A2 binds "a host reporting attribution"; A1 and A3 bind the attribution record it reports',
  },
  {
    capability: 'score-thresholds',
    kind: 'feature',
    ops: 'compose option providerThresholds',
    anchors: ['S6.6-single-provider-threshold (and its F10 check)'],
    basis: "SPEC.md §6.6: a host MAY apply a threshold to a single provider's scores",
    witnessedElsewhere: ['F10'],
  },
  { capability: 'compose-strategies', kind: 'feature', ops: 'compose option strategy', anchors: [], basis: 'the ranking strategy is host policy (F10); no scenario of this suite version sends one' },
  {
    capability: 'attestation-checks',
    kind: 'feature',
    ops: 'queryAll answers[].frames[].evidence',
    anchors: ['F8', 'S6.5.4-distinct-verdicts', 'S6.5.4-strict-ed25519', 'F13'],
    basis: 'SPEC.md §6.5.4: these bind a verifier (F8 "a verifier that does not recognise…"); F13 binds a host keeping proofs for the attestations it reports',
  },
  {
    capability: 'http',
    kind: 'feature',
    ops: 'connectHttp',
    anchors: ['C4', 'C7', 'S4.2-bearer-credential', 'C8 (inconclusive, never waived)'],
    basis: 'SPEC.md §4.2: C4 and C7 bind "a host\'s HTTP transport"; C8 binds every host, so without http its scenarios are unverified, not waived',
  },
  {
    capability: 'https-test-ca',
    kind: 'hook',
    ops: 'connectHttp option ca',
    anchors: ['C4', 'S4.2-bearer-credential', 'C8'],
    basis: "a test hook: the suite's TLS peer has a certificate only an extra trusted CA verifies",
  },
  {
    capability: 'name-resolution-hook',
    kind: 'hook',
    ops: 'connectHttp option loopbackNames',
    anchors: ['C4', 'C8', 'S4.2-bearer-credential'],
    basis:
      'a test hook: the suite reaches its peers under a non-loopback name only the hook resolves (to 127.0.0.1); C7 is judged without it, at a name that never resolves (a refusal before resolving passes)',
  },
  {
    capability: 'embedding',
    kind: 'feature',
    ops: 'init option embeddingFingerprint',
    anchors: [],
    basis:
      "SPEC.md §5.2: E1 binds what reaches the providers whatever the host declares (a host may pass a caller's embedding through); declared, the provider sharing its fingerprint is read as a control. A host answering not_supported to the fingerprint has none: no provider may receive an embedding",
  },
];

/** MUSTs that bind every host: a declaration never turns them into "not applicable". */
export const NEVER_WAIVED: readonly string[] = [
  'C1',
  'C2',
  'C5',
  'C6',
  'C8',
  'B2',
  'R3',
  'D2',
  'F9',
  'F10',
  'UR1',
  'H3',
  'H4',
  'U1',
  'U2',
  'U3',
  'X1',
  'X2',
  'P5',
  'Q1',
  'V1',
  'V2',
  'V3',
  'V4',
  'D3',
  'D4',
];

export function isHostCapability(value: unknown): value is HostCapability {
  return typeof value === 'string' && (HOST_CAPABILITIES as readonly string[]).includes(value);
}

/** The @needs-<capability> tags of a scenario that name host capabilities. */
export function capabilityNeeds(tags: readonly string[]): HostCapability[] {
  return tags.map((t) => t.replace(/^@needs-/, '')).filter((t, i) => tags[i]!.startsWith('@needs-') && isHostCapability(t)) as HostCapability[];
}

/** The scenario does not apply to this host: a conditional anchor and a capability it lacks. */
export class CapabilityNotApplicable extends Error {
  constructor(
    readonly capability: HostCapability,
    reason: string,
  ) {
    super(reason);
    this.name = 'CapabilityNotApplicable';
  }
}

/** The scenario cannot be witnessed on this host (a test hook it lacks, or a never-waived MUST): inconclusive. */
export class CapabilityUnverified extends HarnessError {
  constructor(
    readonly capability: string,
    reason: string,
  ) {
    super(`unverified: needs ${capability} — ${reason}`);
    this.name = 'CapabilityUnverified';
  }
}

/**
 * What a missing capability makes of a scenario with these ids: not applicable, or unverified. `why` says
 * how the absence was learnt ("the host declares capabilities without it", "it answered not_supported to …").
 */
export function missingCapability(capability: HostCapability, ids: readonly string[], why: string): CapabilityNotApplicable | CapabilityUnverified {
  const entry = CAPABILITY_TABLE.find((e) => e.capability === capability)!;
  const binding = ids.filter((id) => NEVER_WAIVED.includes(id) && !(entry.witnessedElsewhere ?? []).includes(id));
  if (entry.kind === 'hook') return new CapabilityUnverified(capability, `${why}; ${entry.basis} — ${ids.join(', ')} not witnessed, counted apart (never a pass, never a failure)`);
  if (binding.length > 0)
    return new CapabilityUnverified(
      capability,
      `${why}; ${binding.join(', ')} bind${binding.length === 1 ? 's' : ''} every host and ${binding.length === 1 ? 'is' : 'are'} never waived by a declaration — not witnessed here, counted apart`,
    );
  return new CapabilityNotApplicable(capability, `the host lacks the capability ${capability} (${why}); ${entry.basis}`);
}

/** The declared capabilities of an init result: the known ones, and a note for each unknown value. */
export function readCapabilities(value: unknown): { declared: HostCapability[] | undefined; notes: string[] } {
  if (!Array.isArray(value)) return { declared: undefined, notes: [] };
  const declared: HostCapability[] = [];
  const notes: string[] = [];
  for (const v of value) {
    if (isHostCapability(v)) declared.push(v);
    else notes.push(`init declared the capability ${JSON.stringify(v)}, which is not in the closed set (${HOST_CAPABILITIES.join(', ')}): ignored`);
  }
  return { declared, notes };
}

/** The table as text (explain host-capabilities). */
export function renderCapabilityTable(): string {
  const lines = ['Host capabilities (declared in the init result: {"capabilities": [...]}; any operation may also answer the error code "not_supported")', ''];
  for (const e of CAPABILITY_TABLE) {
    lines.push(`${e.capability}  [${e.kind === 'hook' ? 'test hook: absent ⇒ inconclusive, "unverified: needs ' + e.capability + '"' : 'feature: absent ⇒ not applicable'}]`);
    lines.push(`  needed by: ${e.ops}`);
    lines.push(`  decides:   ${e.anchors.length > 0 ? e.anchors.join(', ') : '(no scenario of this suite version)'}`);
    lines.push(`  basis:     ${e.basis}`);
  }
  lines.push('', `Never waived by a declaration (bind every host; a scenario judging one is inconclusive, never not applicable): ${NEVER_WAIVED.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
