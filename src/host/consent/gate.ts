// The consent gate (C1, C2, C6), evaluated right before a payload would be written to a provider — after
// shaping, before the transport sees a byte. Nothing about the query is sent when it refuses.
//
//   local provider (effective egress false, no off-machine scope) → permitted, never gated;
//   otherwise → permitted iff the provider's exact identity (routing id, name, version) has a live consent
//   (C1: explicit, named, not revoked, not expired) AND every declared off-machine scope has a live receipt
//   (C6). Effective egress includes C4: a non-loopback HTTP provider is gated whatever it declared.
// The refusal is a ConsentRequired naming the scopes without receipts (and whether the consent itself is
// missing). Stronger than the reference host, whose gate accepts either a legacy record or receipts, ignores
// expiry and has no receipt revocation.
import { ConsentRequired } from '../errors.js';
import type { ProviderDescriptor } from '../types.js';
import type { ConsentLedger } from './ledger.js';

export interface GateVerdict {
  permitted: boolean;
  /** Why: 'local' (never gated), 'consented', or 'refused'. */
  basis: 'local' | 'consented' | 'refused';
  missingScopes: string[];
  consentMissing: boolean;
}

/** Whether the provider needs consent at all (egress, declared or forced by C4, or an off-machine scope). */
export function requiresConsent(provider: ProviderDescriptor): boolean {
  return provider.egress || provider.offMachineScopes.length > 0;
}

export function evaluateConsent(provider: ProviderDescriptor, ledger: ConsentLedger, now?: Date): GateVerdict {
  if (!requiresConsent(provider)) return { permitted: true, basis: 'local', missingScopes: [], consentMissing: false };
  const state = ledger.state({ name: provider.name, version: provider.version }, provider.routingId, now);
  const missingScopes = provider.offMachineScopes.filter((s) => !state.liveScopes.has(s));
  const consentMissing = !state.consentLive;
  const permitted = !consentMissing && missingScopes.length === 0;
  return { permitted, basis: permitted ? 'consented' : 'refused', missingScopes, consentMissing };
}

/**
 * Throws ConsentRequired when the gate refuses. `egressReason` explains an egress the provider did not
 * declare (C4 or a host policy), so the refusal says why a "local" provider is gated.
 */
export function enforceConsent(provider: ProviderDescriptor, ledger: ConsentLedger, now?: Date, egressReason?: string): void {
  const v = evaluateConsent(provider, ledger, now);
  if (v.permitted) return;
  throw new ConsentRequired(provider.name, v.missingScopes, v.consentMissing, { routingId: provider.routingId, ...(egressReason ? { reason: egressReason } : {}) });
}
