/** The provider-facing conformance suite's support code: what step definitions call. */
export { resolveSuiteConfig, splitCommandLine, bundledProviderCommand, ConfigError, type SuiteConfig, type TargetSpec, type SuiteTimeouts } from './config.js';
export { SuiteRuntime, runtimeFor, installRuntime, closeRuntime, FRESH_STEPS, type SharedSession, type FreshDemand } from './runtime.js';
export { ScenarioProbe, probeQuery, PROBE_GOAL, GENEROUS, TYPICAL, type FramesAnswer } from './scenario.js';
export { needsOf, needsAck, applicability, NEEDS, type Applicability } from './capabilities.js';
export { ConformanceFailure, HarnessError, Inconclusive, isTargetError, describeError } from './errors.js';
export { FINDING_MEDIA_TYPE, APPLICABILITY_MEDIA_TYPE, HARNESS_ERROR_MEDIA_TYPE } from '../evidence/attachments.js';
export { ScenarioLedger, type Verdict } from './scenario-ledger.js';
export { checkReply, checkLines, checkAckExtras, wireShapeFindings, type Evidence } from './checks.js';
export { performHandshake, judgeInFamily, judgeForeign, ackOf, neverAnswered, type HandshakeOutcome } from './handshake.js';
export { openSession, StdioSession, HttpSession, type AnySession, type ProviderSession } from './session.js';
export * as queryProbes from './probes/query.js';
export * as verifyProbes from './probes/verify.js';
export * as correlationProbes from './probes/correlation.js';
export * as attestationProbes from './probes/attestation.js';
export * as wireProbes from './probes/wire.js';
export * as provenanceProbes from './probes/provenance.js';
export * as shapeProbes from './probes/shape.js';
