// Consent (C1, C2, C6): the durable ledger and the gate that reads it.
export {
  ConsentLedger,
  LEDGER_FORMAT,
  type ConsentReceipt,
  type ConsentState,
  type GrantInput,
  type GrantRecord,
  type Grantor,
  type LedgerDiagnostic,
  type LedgerOptions,
  type LedgerRecord,
  type ProviderIdentity,
  type RevokeInput,
  type RevokeRecord,
} from './ledger.js';
export { enforceConsent, evaluateConsent, requiresConsent, type GateVerdict } from './gate.js';
