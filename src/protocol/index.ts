/** Public API of the protocol rules (pure functions; no I/O). */
export { WIRE_SHAPE, violation, warning, hasErrors, type Finding, type Severity } from './findings.js';
export { escapePointerToken, pointerJoin } from '../util/json-pointer.js';
export { isJsonObject, describeValue, jsonTypeOf, type JsonObject } from './json-value.js';
export { FRAME_KINDS, REPRESENTATIONS, VERDICT_STATUSES, BASE_EGRESS_SCOPES, BASE_ERROR_CODES, BASE_RELS } from './vocabulary.js';
export { ENVELOPE_TYPES, isKnownEnvelopeType, type EnvelopeType } from './envelope-types.js';
export { PROTOCOL_VERSION, PROTOCOL_FAMILY, isVersionString, majorFamily, minorVersion, versionsCompatible } from './version.js';
export { BYTES_PER_BUDGET_TOKEN, SAFETY_FACTOR, budgetTokens, utf8ByteLength } from './token-cost.js';
export { isProtocolTimestamp, compareProtocolTimestamps, formatProtocolTimestamp } from './timestamp.js';
export { DIGEST_PREFIX, isWellFormedDigest, sha256Digest } from './digest.js';
export { classifyName, isNamespacedName, type NameClass } from './namespaced-name.js';
export { isBaseScope, isValidScope, isOffMachine, declaredScopes, offMachineScopes, scopesConsistent, type BaseEgressScope } from './scopes.js';
export { isFingerprint, fingerprintDimensions, fingerprintsMatch } from './fingerprint.js';
export { ERROR_REACTIONS, isBaseErrorCode, effectiveCode, reactionFor, isRetryable, type BaseErrorCode, type EffectiveCode, type HostReaction } from './error-codes.js';
export { compareUtf8 } from './utf8-order.js';
export { frameIdOf, frameIdKey, compareFrameIds, sameFrameId } from './identity.js';
export { checkFrame, frameLabel } from './frame-checks.js';
export { checkResult, type ResultQuery, type ResultCheckOptions } from './result-checks.js';
export { checkAttestationShape, type AttestationShapeOptions } from './attestation-shape.js';
export {
  checkEnvelope,
  checkHandshake,
  checkHandshakeAck,
  checkQuery,
  checkFramesEnvelope,
  checkVerify,
  checkVerified,
  checkError,
  type AckCheckOptions,
  type EnvelopeContext,
} from './envelope-checks.js';
export { decodeEnvelope, DecodeError, type DecodeErrorCode, type DecodeResult, type UnknownEnvelope } from './decoder.js';
export { RECORD_HASH_RULE, computeRecordHash, checkRecordHash } from './record-hash.js';
