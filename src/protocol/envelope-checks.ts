/**
 * Protocol checks per envelope type, beyond what the schema encodes. `checkEnvelope` is what
 * `cgp-conformance validate` runs after schema validation. Correlation (H4) needs a live
 * exchange and lives in the suite, not here.
 */
import { isWellFormedDigest } from './digest.js';
import { violation, warning, WIRE_SHAPE, type Finding } from './findings.js';
import { isFingerprint } from './fingerprint.js';
import { pointerJoin } from '../util/json-pointer.js';
import { describeValue, hasValue, isJsonObject, isNonBlankString, jsonTypeOf, type JsonObject } from './json-value.js';
import { classifyName } from './namespaced-name.js';
import { checkResult, type ResultCheckOptions } from './result-checks.js';
import { isOffMachine } from './scopes.js';
import { isProtocolTimestamp } from './timestamp.js';
import { isVersionString, majorFamily, PROTOCOL_VERSION, versionsCompatible } from './version.js';
import { BASE_EGRESS_SCOPES, BASE_ERROR_CODES, VERDICT_STATUSES } from './vocabulary.js';

export interface AckCheckOptions {
  /** The host's protocol version (H1 family); default PROTOCOL_VERSION. */
  hostVersion?: string;
}

export interface EnvelopeContext extends AckCheckOptions {
  /** The query a frames envelope answers (B1, B4, Q1, S6.1-as-of). */
  query?: unknown;
  /** The provider's handshake provider.name (F11 identities). */
  providerName?: string;
  /** The envelope came over stdio/HTTP (S6.4.1-no-reference-over-transport); default false. */
  overTransport?: boolean;
}

function objectMember(env: JsonObject, key: string, pointer: string, out: Finding[]): JsonObject | undefined {
  const value = env[key];
  if (isJsonObject(value)) return value;
  out.push(violation(WIRE_SHAPE, pointerJoin(pointer, key), `${key} is ${jsonTypeOf(value)}; required an object`));
  return undefined;
}

function arrayMember(obj: JsonObject, key: string, pointer: string, what: string, out: Finding[]): unknown[] | undefined {
  const value = obj[key];
  if (Array.isArray(value)) return value;
  out.push(violation(WIRE_SHAPE, pointerJoin(pointer, key), `${what} is ${jsonTypeOf(value)}; required an array`));
  return undefined;
}

/** §3.1: the version a host sends is in the version grammar (S2-wire-shape: the version rule is normative). */
export function checkHandshake(envelope: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  if (isVersionString(envelope.protocol_version)) return [];
  return [
    violation(
      WIRE_SHAPE,
      pointerJoin(pointer, 'protocol_version'),
      `handshake protocol_version is ${describeValue(envelope.protocol_version)}; required "contextgraph/" 1*DIGIT "." 1*DIGIT ["-draft"]`,
    ),
  ];
}

export function checkHandshakeAck(ack: unknown, pointer = '', opts: AckCheckOptions = {}): Finding[] {
  if (!isJsonObject(ack)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(ack)}`)];
  const out: Finding[] = [];
  const hostVersion = opts.hostVersion ?? PROTOCOL_VERSION;

  // H1: the ack's protocol_version is in the host's major family (a non-grammatical string is in none).
  const version = ack.protocol_version;
  if (!versionsCompatible(version, hostVersion)) {
    const seen = isVersionString(version) ? `${JSON.stringify(version)} (family ${majorFamily(version)})` : `${describeValue(version)}, not a version string`;
    out.push(
      violation('H1', pointerJoin(pointer, 'protocol_version'), `handshake_ack protocol_version is ${seen}; required the host's family ${majorFamily(hostVersion)} (host speaks ${hostVersion})`),
    );
  }

  const provider = objectMember(ack, 'provider', pointer, out);
  if (provider) {
    const providerAt = pointerJoin(pointer, 'provider');
    // H2: provider.name and provider.version MUST NOT be empty.
    for (const key of ['name', 'version'] as const) {
      if (!isNonBlankString(provider[key])) {
        out.push(violation('H2', pointerJoin(providerAt, key), `provider.${key} is ${describeValue(provider[key])}; required a non-empty string`));
      }
    }
    const dataFlow = objectMember(provider, 'data_flow', providerAt, out);
    if (dataFlow) out.push(...checkDataFlow(dataFlow, pointerJoin(providerAt, 'data_flow')));
  }

  const caps = objectMember(ack, 'capabilities', pointer, out);
  if (caps) out.push(...checkCapabilities(caps, pointerJoin(pointer, 'capabilities')));
  return out;
}

function checkDataFlow(dataFlow: JsonObject, pointer: string): Finding[] {
  const out: Finding[] = [];
  if (!hasValue(dataFlow, 'egress_scopes')) return out;
  const scopes = arrayMember(dataFlow, 'egress_scopes', pointer, 'data_flow.egress_scopes', out);
  if (!scopes) return out;
  const egress = dataFlow.egress === true;
  scopes.forEach((scope, i) => {
    const at = pointerJoin(pointer, 'egress_scopes', i);
    // U3: a custom scope is vendor:name with non-empty sides; unprefixed names belong to the protocol.
    switch (classifyName(scope, BASE_EGRESS_SCOPES)) {
      case 'not-a-string':
        out.push(violation(WIRE_SHAPE, at, `egress_scopes[${i}] is ${jsonTypeOf(scope)}; required a string`));
        break;
      case 'empty':
      case 'malformed-namespace':
        out.push(violation('U3', at, `egress scope ${describeValue(scope)} is malformed; required a base scope or vendor:name with both sides non-empty`));
        break;
      case 'unprefixed-unknown':
        out.push(
          warning(
            'U3',
            at,
            `egress scope ${describeValue(scope)} is neither a base scope (${BASE_EGRESS_SCOPES.join(', ')}) nor namespaced; a vendor scope MUST be vendor:name (treated as off-machine)`,
          ),
        );
        break;
      default:
        break;
    }
    // C5: no off-machine scope alongside egress:false (unknown scopes count as off-machine).
    if (!egress && isOffMachine(scope)) {
      out.push(
        violation(
          'C5',
          at,
          `data_flow declares egress ${describeValue(dataFlow.egress)} with off-machine egress scope ${describeValue(scope)}; a local posture MUST NOT name a destination content leaves`,
        ),
      );
    }
  });
  return out;
}

function checkCapabilities(caps: JsonObject, pointer: string): Finding[] {
  const out: Finding[] = [];
  // E1 grammar: embeddings_fingerprint is <model-id>/<dimensions>[/<normalization>].
  if (hasValue(caps, 'embeddings_fingerprint') && !isFingerprint(caps.embeddings_fingerprint)) {
    out.push(
      violation(
        'E1',
        pointerJoin(pointer, 'embeddings_fingerprint'),
        `embeddings_fingerprint is ${describeValue(caps.embeddings_fingerprint)}; required <model-id>/<dimensions>[/<normalization>], e.g. bge-small-en-v1.5/384/l2`,
      ),
    );
  }
  // S6.4.1-resolve-declared: advertising compact or reference ⇒ resolve: true.
  if (hasValue(caps, 'representations')) {
    const reps = arrayMember(caps, 'representations', pointer, 'capabilities.representations', out);
    const needsResolve = reps?.filter((r) => r === 'compact' || r === 'reference') ?? [];
    if (needsResolve.length > 0 && caps.resolve !== true) {
      out.push(
        violation(
          'S6.4.1-resolve-declared',
          pointerJoin(pointer, 'resolve'),
          `capabilities advertise ${needsResolve.join(' and ')} with resolve ${describeValue(caps.resolve)}; a provider advertising compact or reference MUST set resolve: true`,
        ),
      );
    }
  }
  return out;
}

/** F4 on query.as_of. */
export function checkQuery(envelope: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  const out: Finding[] = [];
  const query = objectMember(envelope, 'query', pointer, out);
  if (query && hasValue(query, 'as_of') && !isProtocolTimestamp(query.as_of)) {
    out.push(violation('F4', pointerJoin(pointer, 'query', 'as_of'), `query.as_of is ${describeValue(query.as_of)}; required YYYY-MM-DDTHH:MM:SS(.f+)?Z, a real UTC instant`));
  }
  return out;
}

export function checkFramesEnvelope(envelope: unknown, pointer = '', ctx: EnvelopeContext = {}): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  const options: ResultCheckOptions = {};
  if (ctx.providerName !== undefined) options.providerName = ctx.providerName;
  if (ctx.overTransport !== undefined) options.overTransport = ctx.overTransport;
  return checkResult(envelope.result, pointerJoin(pointer, 'result'), ctx.query, options);
}

/** The members of a FrameId (§6.3). */
const FRAME_ID_MEMBERS = new Set(['provider_id', 'frame_id', 'content_digest']);

/** FrameId shape + D1 on its content_digest. */
function checkFrameIdentity(id: unknown, pointer: string, what: string): Finding[] {
  if (!isJsonObject(id)) return [violation(WIRE_SHAPE, pointer, `${what} is ${jsonTypeOf(id)}; required a FrameId object`)];
  const out: Finding[] = [];
  for (const key of ['provider_id', 'frame_id'] as const) {
    if (!isNonBlankString(id[key])) {
      out.push(violation(WIRE_SHAPE, pointerJoin(pointer, key), `${what}.${key} is ${describeValue(id[key])}; required a non-empty string`));
    }
  }
  // D1: content_digest, when present, MUST match sha256:<64 lowercase hex>.
  if (hasValue(id, 'content_digest') && !isWellFormedDigest(id.content_digest)) {
    out.push(violation('D1', pointerJoin(pointer, 'content_digest'), `${what} has content_digest ${describeValue(id.content_digest)}; required sha256:<64 lowercase hex>`));
  }
  return out;
}

export function checkVerify(envelope: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  const out: Finding[] = [];
  const request = objectMember(envelope, 'request', pointer, out);
  if (!request) return out;
  const requestAt = pointerJoin(pointer, 'request');
  const frames = arrayMember(request, 'frames', requestAt, 'request.frames', out);
  frames?.forEach((id, i) => {
    const at = pointerJoin(requestAt, 'frames', i);
    const what = `request.frames[${i}]`;
    out.push(...checkFrameIdentity(id, at, what));
    if (!isJsonObject(id)) return;
    // V1 (MUST): identities only, never frame bodies.
    for (const key of Object.keys(id)) {
      if (!FRAME_ID_MEMBERS.has(key)) {
        out.push(violation('V1', pointerJoin(at, key), `${what} carries "${key}"; a verify request carries frame identities only (provider_id, frame_id, content_digest), no frame bodies`));
      }
    }
    // V1 (SHOULD): only identities carrying a content_digest; a digest-less frame is re-queried.
    if (!hasValue(id, 'content_digest')) {
      out.push(warning('V1', at, `${what} has no content_digest; a digest-less frame cannot be revalidated and should be re-queried instead`));
    }
  });
  return out;
}

export function checkVerified(envelope: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  const out: Finding[] = [];
  const response = objectMember(envelope, 'response', pointer, out);
  if (!response) return out;
  const responseAt = pointerJoin(pointer, 'response');
  const verdicts = arrayMember(response, 'verdicts', responseAt, 'response.verdicts', out);
  verdicts?.forEach((verdict, i) => {
    const at = pointerJoin(responseAt, 'verdicts', i);
    if (!isJsonObject(verdict)) {
      out.push(violation(WIRE_SHAPE, at, `response.verdicts[${i}] is ${jsonTypeOf(verdict)}; required an object`));
      return;
    }
    out.push(...checkFrameIdentity(verdict.frame, pointerJoin(at, 'frame'), `verdicts[${i}].frame`));
    // V3: a verdict is one of valid, stale, gone, unknown.
    if (!(VERDICT_STATUSES as readonly unknown[]).includes(verdict.status)) {
      out.push(violation('V3', pointerJoin(at, 'status'), `verdicts[${i}] has status ${describeValue(verdict.status)}; required one of ${VERDICT_STATUSES.join(', ')}`));
    }
    // V4: a replacement_digest is a digest, never a body.
    if (hasValue(verdict, 'replacement_digest') && !isWellFormedDigest(verdict.replacement_digest)) {
      out.push(
        violation('V4', pointerJoin(at, 'replacement_digest'), `verdicts[${i}] has replacement_digest ${describeValue(verdict.replacement_digest)}; required a digest, sha256:<64 lowercase hex>`),
      );
    }
  });
  return out;
}

export function checkError(envelope: unknown, pointer = ''): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  const out: Finding[] = [];
  // §10 + wire shape: message (for whoever reads the log) is required and non-empty.
  if (!isNonBlankString(envelope.message)) {
    out.push(
      violation(WIRE_SHAPE, pointerJoin(pointer, 'message'), `error message is ${describeValue(envelope.message)}; required a non-empty string (code is for the machine, message for the reader)`),
    );
  }
  if (hasValue(envelope, 'code')) {
    const at = pointerJoin(pointer, 'code');
    // An unknown code is legal (X1: treated as internal); U3 only grades its spelling.
    switch (classifyName(envelope.code, BASE_ERROR_CODES)) {
      case 'not-a-string':
        out.push(violation(WIRE_SHAPE, at, `error code is ${jsonTypeOf(envelope.code)}; required a string`));
        break;
      case 'empty':
      case 'malformed-namespace':
        out.push(violation('U3', at, `error code ${describeValue(envelope.code)} is malformed; required a base code or vendor:name with both sides non-empty`));
        break;
      case 'unprefixed-unknown':
        out.push(warning('U3', at, `error code ${describeValue(envelope.code)} is neither a base code nor namespaced; a vendor code MUST be vendor:name (a host treats it as internal, X1)`));
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * Dispatch by `type`. An unknown type yields no finding (S2.1-unknown-type: the receiver decides
 * between bad_request and ignoring it); shutdown carries nothing to check.
 */
export function checkEnvelope(envelope: unknown, pointer = '', ctx: EnvelopeContext = {}): Finding[] {
  if (!isJsonObject(envelope)) return [violation(WIRE_SHAPE, pointer, `an envelope must be a JSON object, saw ${jsonTypeOf(envelope)}`)];
  switch (envelope.type) {
    case 'handshake':
      return checkHandshake(envelope, pointer);
    case 'handshake_ack':
      return checkHandshakeAck(envelope, pointer, ctx.hostVersion === undefined ? {} : { hostVersion: ctx.hostVersion });
    case 'query':
      return checkQuery(envelope, pointer);
    case 'frames':
      return checkFramesEnvelope(envelope, pointer, ctx);
    case 'verify':
      return checkVerify(envelope, pointer);
    case 'verified':
      return checkVerified(envelope, pointer);
    case 'error':
      return checkError(envelope, pointer);
    case 'shutdown':
      return [];
    default:
      if (typeof envelope.type !== 'string') {
        return [violation(WIRE_SHAPE, pointerJoin(pointer, 'type'), `envelope type is ${describeValue(envelope.type)}; required a string tag`)];
      }
      return [];
  }
}
