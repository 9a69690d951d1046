// Public API of the reference host (src/host).
export * from './types.js';
export * from './errors.js';
export { Host, type GrantOptions, type HostOptions, type HostPolicies, type RevokeOptions } from './host.js';
export {
  ProviderConnection,
  connectHttp,
  connectStdio,
  HOST_HANDSHAKE_TIMEOUT_MS,
  HOST_REQUEST_TIMEOUT_MS,
  HOST_SHUTDOWN_GRACE_MS,
  type ConnectOptions,
  type ConnectionPolicies,
  type HttpConnectOptions,
  type PayloadGate,
  type QueryOutcome,
  type ShutdownReport,
  type StdioConnectOptions,
} from './connection.js';
export { acceptHandshake, type AckPolicies, type AcceptedAck, type HostFinding } from './connection-handshake.js';
export { shapeQuery, type RepresentationPolicy, type ShapeNote, type ShapePolicies, type Shaped } from './connection-shape.js';
export type { Channel, ChannelShutdown, ExchangeKind, ExchangeOptions } from './connection-channel.js';
export { fanOut, type AttestFn, type AuditFn, type FanOutFailure, type FanOutNote, type FanOutOptions, type FanOutResult, type FanOutSkip, type ProviderAudit } from './fan-out.js';
export { Redactor, asHostError, checkHttpTarget, effectiveEgress, redactingSink, type HttpTarget, type LogEntry, type LogLevel, type LogSink } from './http-security.js';
export * from './consent/index.js';
// The budget audit (B1–B4 → B2) and attestation evidence (F8–F13) the fan-out applies.
export * from './budget-audit.js';
export * from './attestation.js';
