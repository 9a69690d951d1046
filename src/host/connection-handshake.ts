// Handshake acceptance (§3, §4): the checks a host runs on the first envelope a provider sends back, in this
// order, each a named failure raised as soon as the ack is read (never a hang):
//   error reply            → VersionMismatch (incompatible_version, H3) or HandshakeFailed
//   not a handshake_ack    → HandshakeFailed (S2-wire-shape)
//   H1 family              → VersionMismatch (H3)
//   H2 blank name/version  → HandshakeFailed (H2)
//   C5 egress:false + off-machine scope → ScopeContradiction
//   interop schema         → HandshakeFailed (S2-wire-shape)
// The reference host checks only the version; H2, C5 and the representation/resolve consistency are the
// stronger checks the public reference host lacks. A representations ⇒ resolve inconsistency
// (S6.4.1-resolve-declared) is recorded as a finding, not a refusal: the host can still use the provider.
import type { HandshakeAckEnvelope } from '../../generated/types/index.js';
import { checkHandshakeAck } from '../protocol/envelope-checks.js';
import { decodeEnvelope } from '../protocol/decoder.js';
import type { Finding } from '../protocol/findings.js';
import { isJsonObject, type JsonObject } from '../protocol/json-value.js';
import { isNamespacedName } from '../protocol/namespaced-name.js';
import { isBaseScope, isOffMachine, offMachineScopes, scopesConsistent } from '../protocol/scopes.js';
import { versionsCompatible } from '../protocol/version.js';
import { AUTHORING_STRICT_ID, validateEnvelope } from '../schema/validate.js';
import type { RawEnvelope } from '../transport/ndjson.js';
import { HandshakeFailed, ProviderError, ScopeContradiction, VersionMismatch } from './errors.js';

/** A finding observed by the host, with the provider it concerns. */
export interface HostFinding extends Finding {
  routingId?: string;
  provider?: string;
}

export interface AckPolicies {
  /** Misbehaving host only: accept an ack from another major family (breaks H3). */
  acceptForeignVersion?: boolean;
  /** Misbehaving host only: accept egress:false with off-machine scopes (breaks C5). */
  skipScopeConsistency?: boolean;
  /** Misbehaving host only: treat an unrecognised custom (vendor:name) scope as on-machine, so it needs no receipt (breaks C6 via S4.1-unknown-scope-off-machine). */
  customScopesOnMachine?: boolean;
  /**
   * Misbehaving host only: read a namespaced (vendor:name) egress scope or error code as the base value after
   * its first `:` — `acme:local-only` as `local-only`, `acme:unavailable` as `unavailable` (breaks U3).
   */
  readNamespacedAsBase?: boolean;
  /**
   * Misbehaving host only: validate providers' messages (handshake_ack, frames, error) with the
   * authoring-strict schema profile (additionalProperties:false) instead of the interop one, so a member the
   * schema does not define is refused (breaks U1 and S13-interop-validator).
   */
  strictInterop?: boolean;
}

/** Misbehaving host only (strictInterop): the members of `envelope` the authoring-strict schema does not define. */
export function undefinedMembers(envelope: unknown): string[] {
  return validateEnvelope(envelope, 'strict')
    .filter((i) => i.id === AUTHORING_STRICT_ID)
    .map((i) => i.pointer || '/');
}

export interface AcceptedAck {
  ack: HandshakeAckEnvelope;
  name: string;
  version: string;
  correlation: boolean;
  /** Declared off-machine scopes, as strings (unknown custom scopes included: they are off-machine, §4.1). */
  offMachineScopes: string[];
  declaredEgress: boolean;
  findings: HostFinding[];
}

const HANDLED_HERE = new Set(['H1', 'H2', 'C5']);
/**
 * Interop-schema issues that do not make a provider unusable: the representations ⇒ resolve consistency
 * (S6.4.1-resolve-declared: the host never calls resolve in 1.0), a malformed embeddings fingerprint (E1:
 * it then never equals the host's, so no embedding is sent) and an unprefixed custom scope (U3: treated as
 * off-machine, so gated). Each is reported as a finding by checkHandshakeAck.
 */
const TOLERATED = new Set(['S6.4.1-resolve-declared', 'E1', 'U3']);

function nonBlank(v: unknown): v is string {
  return typeof v === 'string' && v.trim().length > 0;
}

function describe(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}

/**
 * Accept or refuse the provider's reply to `handshake`. `alias` is the routing id the user chose, if any;
 * errors name it (or the target) because the provider's own name may be what is wrong.
 */
export function acceptHandshake(reply: RawEnvelope, ctx: { hostVersion: string; target: string; alias?: string; policies?: AckPolicies }): AcceptedAck {
  const policies = ctx.policies ?? {};
  const label = ctx.alias ?? ctx.target;
  if (reply.type === 'error') {
    const perr = new ProviderError(reply.code, reply.message, { routingId: label, phase: 'handshake' });
    if (perr.effectiveCode === 'incompatible_version') {
      throw new VersionMismatch(ctx.hostVersion, '<unknown>', `<refused: ${perr.providerMessage || 'incompatible_version'}>`, { routingId: label, cause: perr });
    }
    throw new HandshakeFailed(`${label} refused the handshake: ${perr.message}`, { routingId: label, cause: perr });
  }
  if (reply.type !== 'handshake_ack') {
    throw new HandshakeFailed(`${label} answered the handshake with a ${JSON.stringify(reply.type)} envelope; required handshake_ack`, {
      routingId: label,
      anchor: 'S2-wire-shape',
    });
  }
  const provider: JsonObject | undefined = isJsonObject(reply.provider) ? reply.provider : undefined;
  const rawName = provider?.name;
  const routingId = ctx.alias ?? (nonBlank(rawName) ? rawName : label);

  // H1/H3: the family check comes first and never waits for anything else.
  if (!versionsCompatible(reply.protocol_version, ctx.hostVersion) && !policies.acceptForeignVersion) {
    throw new VersionMismatch(ctx.hostVersion, typeof rawName === 'string' ? rawName : '', typeof reply.protocol_version === 'string' ? reply.protocol_version : describe(reply.protocol_version), {
      routingId,
    });
  }
  // H2: provider.name and provider.version MUST NOT be empty.
  if (!provider) {
    throw new HandshakeFailed(`handshake_ack from ${label} carries provider ${describe(reply.provider)}; required an object with name, version and data_flow`, {
      routingId,
      anchor: 'H2',
      violated: true,
    });
  }
  for (const key of ['name', 'version'] as const) {
    if (!nonBlank(provider[key])) {
      throw new HandshakeFailed(`handshake_ack from ${label} has provider.${key} ${describe(provider[key])}; required a non-empty string`, {
        routingId,
        anchor: 'H2',
        violated: true,
      });
    }
  }
  const name = provider.name as string;
  const version = provider.version as string;
  // C5: rejected at the handshake, before the provider could ever be queried.
  const dataFlow = provider.data_flow;
  const offMachine = offMachineScopes(dataFlow)
    .filter((s): s is string => typeof s === 'string')
    .filter((s) => !(policies.customScopesOnMachine === true && !isBaseScope(s)))
    .filter((s) => !(policies.readNamespacedAsBase === true && isNamespacedName(s) && !isOffMachine(s.slice(s.indexOf(':') + 1))));
  if (!scopesConsistent(dataFlow) && !policies.skipScopeConsistency) {
    throw new ScopeContradiction(name, offMachine, { routingId });
  }
  if (policies.strictInterop === true && undefinedMembers(reply).length > 0) {
    throw new HandshakeFailed(`handshake_ack from ${label} carries members the schema does not define: ${undefinedMembers(reply).join(', ')}`, { routingId, anchor: 'S2-wire-shape' });
  }
  const decoded = decodeEnvelope(reply);
  if (!decoded.ok) {
    // Shape problems the host can live with are recorded below as findings, not refused.
    // A misbehaving host's switch also silences the schema's copy of the check it skips (else it never bites).
    const tolerated = (id: string): boolean => TOLERATED.has(id) || (policies.skipScopeConsistency === true && id === 'C5') || (policies.acceptForeignVersion === true && id === 'H1');
    const fatal = decoded.error.issues.length === 0 || decoded.error.issues.some((i) => !tolerated(i.id));
    if (fatal) throw new HandshakeFailed(`handshake_ack from ${label} is malformed: ${decoded.error.message}`, { routingId, anchor: 'S2-wire-shape', cause: decoded.error });
  }
  const ack = (decoded.ok ? decoded.envelope : reply) as HandshakeAckEnvelope;
  // Everything else the ack checks find (S6.4.1-resolve-declared, E1 grammar, U3 scope names) is recorded.
  const findings: HostFinding[] = checkHandshakeAck(reply, '', { hostVersion: ctx.hostVersion })
    .filter((f) => !HANDLED_HERE.has(f.id) || policies.acceptForeignVersion || policies.skipScopeConsistency)
    .map((f) => ({ ...f, routingId, provider: name }));
  return {
    ack,
    name,
    version,
    correlation: ack.capabilities.correlation === true,
    offMachineScopes: offMachine,
    declaredEgress: isJsonObject(dataFlow) && dataFlow.egress === true,
    findings,
  };
}
